import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { bytes, md5, partOf, sha256, until } from './uploads-helpers';

const PART = 67108864;
const dir = mkdtempSync(join(tmpdir(), 'vs-crash-'));
const data = bytes(PART * 2 + 1_048_576, 7); // three parts: 64 MiB, 64 MiB, 1 MiB
const procs: ServeProc[] = [];
let key = '';

afterAll(() => { for (const p of procs) p.kill('SIGKILL'); rmSync(dir, { recursive: true, force: true }); });

async function serve(): Promise<ServeProc> {
  const p = await spawnServe(['bun', 'src/main.ts', 'serve', '--data', dir, '--port', '0'], { VS_LOG_LEVEL: 'error' }, 60_000);
  procs.push(p);
  if (p.key) key = p.key;
  return p;
}
const j = (r: Response): Promise<any> => r.json();
const api = (base: string, method: string, path: string, body?: unknown) =>
  fetch(base + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const putPart = async (base: string, up: { upload_id: string; key: string }, n: number) => {
  const r = await fetch(`${base}/v1/uploads/${up.upload_id}/parts/${n}?key=${encodeURIComponent(up.key)}`, {
    method: 'PUT', headers: { authorization: `Bearer ${key}` }, body: partOf(data, n, PART) as BodyInit });
  expect(r.status).toBe(200);
  return j(r) as Promise<{ part_number: number; etag: string }>;
};
const etags = [1, 2, 3].map((n) => ({ part_number: n, etag: md5(partOf(data, n, PART)) }));

async function killed(p: ServeProc): Promise<void> {
  p.kill('SIGKILL');
  await p.proc.exited;
  expect(p.proc.signalCode).toBe('SIGKILL');
}

function sourceOf(assetId: string): { path: string; jobs: number; assets: number } {
  const db = new Database(join(dir, 'db', 'meta.sqlite'), { readonly: true });
  try {
    const a = db.query<{ source_path: string }, [string]>('SELECT source_path FROM assets WHERE id = ?').get(assetId)!;
    const jobs = db.query<{ n: number }, [string]>(`SELECT COUNT(*) AS n FROM jobs WHERE subject_id = ? AND type = 'asset.process'`).get(assetId)!.n;
    const assets = db.query<{ n: number }, []>('SELECT COUNT(*) AS n FROM assets').get()!.n;
    return { path: join(dir, a.source_path), jobs, assets };
  } finally { db.close(); }
}

test('kill -9 between parts: every acknowledged part is kept; the assembled file matches', async () => {
  let p = await serve();
  const up = await j(await api(p.url, 'POST', '/v1/uploads', { filename: 'big.bin', size_bytes: data.length }));
  expect(up.parts).toHaveLength(3);
  await Promise.all([putPart(p.url, up, 1), putPart(p.url, up, 3)]);
  await killed(p);
  p = await serve();
  // Part 2 was never sent; parts 1 and 3 got a 2xx before the crash and must still count.
  const early = await api(p.url, 'POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: etags });
  expect(early.status).toBe(409);
  expect((await j(early)).detail).toContain('part 2');
  await putPart(p.url, up, 2);
  const c = await api(p.url, 'POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: etags });
  expect(c.status).toBe(201);
  const a = await j(c);
  expect(a.status).toBe('probing');
  const src = sourceOf(a.id);
  expect(await sha256(src.path)).toBe(await sha256(data));
  expect(src.jobs).toBe(1);
  await killed(p);
}, 120_000);

test('kill -9 during complete, then resume: one asset, one job, the same bytes', async () => {
  let p = await serve();
  const up = await j(await api(p.url, 'POST', '/v1/uploads', { filename: 'big2.bin', size_bytes: data.length }));
  await Promise.all([1, 2, 3].map((n) => putPart(p.url, up, n)));
  let answered = false;
  const pending = api(p.url, 'POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: etags }).catch(() => null).finally(() => { answered = true; });
  // Kill once the request has reached the server: its upload left `open` (completing, or already completed).
  const status = new Database(join(dir, 'db', 'meta.sqlite'), { readonly: true });
  try {
    const q = status.query<{ status: string }, [string]>('SELECT status FROM uploads WHERE id = ?');
    await until('complete to reach the server', () => answered || q.get(up.upload_id)?.status !== 'open', 20_000, 1);
  } finally { status.close(); }
  await killed(p);
  await pending;
  p = await serve();
  const c = await api(p.url, 'POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: etags });
  expect(c.status).toBe(201);
  const a = await j(c);
  const again = await j(await api(p.url, 'POST', `/v1/uploads/${up.upload_id}/complete`, { key: up.key, parts: etags }));
  expect(again.id).toBe(a.id);
  const src = sourceOf(a.id);
  expect(await sha256(src.path)).toBe(await sha256(data));
  expect(src.jobs).toBe(1);
  expect(src.assets).toBe(2); // the first test's asset and this one: nothing duplicated
  await killed(p);
}, 120_000);
