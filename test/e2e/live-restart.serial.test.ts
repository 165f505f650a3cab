import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { waitFor } from '../helpers/server';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { killPushers, liveEnv, parseMedia, pushForever } from './live-helpers';

const dir = mkdtempSync(join(tmpdir(), 'vs-live-restart-'));
let srv: ServeProc | null = null;
afterAll(async () => { srv?.kill(); await killPushers(); rmSync(dir, { recursive: true, force: true }); });

function filesUnder(p: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(p)) { const f = join(p, n); if (statSync(f).isDirectory()) out.push(...filesUnder(f)); else out.push(f); }
  return out;
}

test('server killed (-9) while recording: on restart the index matches the files and the started channel resumes', async () => {
  const env = { ...(await liveEnv()), VS_DATA_DIR: dir };
  srv = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1'], env);
  const key = srv.key!;
  const api = (m: string, p: string, b?: unknown) => fetch(srv!.url + p, { method: m, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
  const ch = await (await api('POST', '/v1/channels', { name: 'Crash' })).json();
  const ing = await (await api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await api('POST', `/v1/channels/${ch.id}/start`);
  const pusher = pushForever(ing.srt.primary.url);
  await waitFor('3 segments', async () => parseMedia(await (await fetch(`${srv!.url}/live/default/crash/src/index.m3u8`)).text()).length >= 3, 30_000);
  srv.kill('SIGKILL');
  await srv.proc.exited;

  // Drop the index behind the server's back too: it must be rebuilt from the files.
  const db = new Database(join(dir, 'db', 'meta.sqlite'));
  // The killed server's delivery worker notices its parent is gone within a second and closes its read connection;
  // until then the first writer after the crash may find the WAL index busy.
  db.exec('PRAGMA busy_timeout = 15000');
  db.exec('DELETE FROM live_segments');
  db.close();
  const recDir = join(dir, 'rec');
  const files = filesUnder(recDir).filter((f) => f.endsWith('.m4s') && !f.includes('.scratch'));
  expect(files.length).toBeGreaterThanOrEqual(3);

  srv = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1'], env);
  const api2 = (m: string, p: string) => fetch(srv!.url + p, { method: m, headers: { authorization: `Bearer ${key}` } });
  const segs = parseMedia(await (await fetch(`${srv.url}/live/default/crash/src/index.m3u8`)).text());
  expect(segs.length).toBeGreaterThanOrEqual(files.length);
  for (const sg of segs.slice(0, files.length)) expect(Math.abs(sg.durMs - 2000)).toBeLessThan(700);
  // The started channel restarts by itself; the reconnecting pusher makes it live again, after a discontinuity.
  await waitFor('live after restart', async () => (await (await api2('GET', `/v1/channels/${ch.id}`)).json()).status === 'live', 30_000);
  const after = await waitFor('new segments after restart', async () => {
    const t = await (await fetch(`${srv!.url}/live/default/crash/src/index.m3u8`)).text();
    return parseMedia(t).length > segs.length + 1 && t;
  }, 30_000);
  expect(after).toContain('#EXT-X-DISCONTINUITY');
  await pusher.stop();
}, 150_000);
