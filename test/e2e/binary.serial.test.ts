import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServe, type ServeProc } from '../helpers/proc';

const dir = mkdtempSync(join(tmpdir(), 'vs-bin-'));
let served: ServeProc | null = null;
afterAll(() => { served?.kill(); rmSync(dir, { recursive: true, force: true }); });

test('the compiled binary runs from a temp dir: serve, /healthz, /v1/me, doctor with DuckDB', async () => {
  const bin = join(dir, 'viewstream');
  const build = Bun.spawnSync(['bun', 'scripts/build.ts', bin], { stdout: 'pipe', stderr: 'pipe' });
  expect(build.exitCode).toBe(0);
  // Run from the temp dir with no checkout beside it: cwd and data are both there.
  served = await spawnServe([bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--data', join(dir, 'data')], {});
  expect(served.key).toStartWith('vs_');
  const h = await fetch(`${served.url}/healthz`);
  expect(await h.json()).toEqual({ status: 'ok' });
  const me = await fetch(`${served.url}/v1/me`, { headers: { authorization: `Bearer ${served.key}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { current_tenant: { slug: string } }).current_tenant.slug).toBe('default');
  served.kill('SIGTERM');
  expect(await served.proc.exited).toBe(0);
  served = null;
  const doc = Bun.spawnSync([bin, 'doctor', '--json', '--data', join(dir, 'data')], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
  const report = JSON.parse(doc.stdout.toString()) as { duckdb: { ok: boolean; version: string }; encoder: string | null; srt: { ok: boolean } };
  expect(report.duckdb.ok).toBe(true);
  expect(report.duckdb.version).toStartWith('v1.');
  expect(report.encoder).toBeTruthy();
  expect(report.srt.ok).toBe(true);
  expect(doc.exitCode).toBe(0);
}, 180_000);
