import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { JobQueue } from '../../src/jobs/queue';
import { assetJobHandlersWith, DEFAULT_FETCH_LIMITS } from '../../src/features/assets/jobs';
import { failAssetOfJob } from '../../src/features/assets/lifecycle';
import { makeMp4, sha256 } from './uploads-helpers';

const j = (r: Response): Promise<any> => r.json();
let s: TestServer;
let origin: ReturnType<typeof Bun.serve>;
let stall: { port: number; stop(b?: boolean): void };
let queue: JobQueue;
let mp4: Uint8Array;

beforeAll(async () => {
  // Only 127.0.0.1 is allowlisted: 127.0.0.2, ::1 and localhost stay refused.
  s = await startTestServer({ workers: false, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  mp4 = await makeMp4(s.dataDir);
  origin = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch(req) {
      const p = new URL(req.url).pathname;
      if (p === '/v.mp4') return new Response(mp4 as BodyInit, { headers: { 'content-type': 'video/mp4' } });
      if (p === '/moved') return Response.redirect(`http://127.0.0.1:${origin.port}/v.mp4`, 302);
      if (p === '/to-loopback') return Response.redirect(`http://127.0.0.2:${origin.port}/v.mp4`, 302);
      if (p === '/to-metadata') return Response.redirect('http://169.254.169.254/latest/meta-data/', 302);
      return new Response('no', { status: 404 });
    },
  });
  stall = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {}, open() {} } });
  // The real queue, with only this feature's handler (the media engine's are not started here).
  queue = new JobQueue(s.ctx, { handlers: assetJobHandlersWith({ ...DEFAULT_FETCH_LIMITS, idleTimeoutMs: 500, timeoutMs: 1500 }), pollMs: 50, onFinalFailure: failAssetOfJob });
  queue.start();
});
afterAll(async () => { await queue.stop(); origin.stop(true); stall.stop(true); await s.stop(); });

const asset = (id: string) => s.ctx.db.query<{ status: string; error: string | null; source_path: string | null }, [string]>('SELECT status, error, source_path FROM assets WHERE id = ?').get(id)!;
const jobs = (id: string) => s.ctx.db.query<{ type: string; status: string; error: string | null }, [string]>('SELECT type, status, error FROM jobs WHERE subject_id = ? ORDER BY seq').all(id);

test('URL ingest from an allowlisted server (through a redirect): source stored, asset.process queued', async () => {
  const r = await s.api('POST', '/v1/assets', { source: { kind: 'url', url: `http://127.0.0.1:${origin.port}/moved` }, title: 'from url' });
  expect(r.status).toBe(201);
  const a = await j(r);
  expect(a.status).toBe('registered');
  await waitFor('source fetched', () => asset(a.id).source_path);
  const row = asset(a.id);
  expect(row.source_path).toEndWith('/source.mp4');
  expect(await sha256(join(s.dataDir, row.source_path!))).toBe(await sha256(mp4));
  expect(jobs(a.id).map((x) => [x.type, x.status])).toEqual([['asset.fetch', 'succeeded'], ['asset.process', 'queued']]);
});

test('a redirect to loopback or to the metadata address fails the asset without retrying', async () => {
  for (const p of ['/to-loopback', '/to-metadata']) {
    const a = await j(await s.api('POST', '/v1/assets', { source: { kind: 'url', url: `http://127.0.0.1:${origin.port}${p}` } }));
    await waitFor('asset failed', () => asset(a.id).status === 'failed');
    expect(asset(a.id).error).toContain('refused');
    expect(asset(a.id).source_path).toBeNull();
    expect(jobs(a.id)).toHaveLength(1);
  }
  expect(s.ctx.db.query(`SELECT COUNT(*) AS n FROM events WHERE type = 'asset.failed'`).get()).toEqual({ n: 2 });
});

test('a source that never answers times out (the attempt fails and is retried later)', async () => {
  const a = await j(await s.api('POST', '/v1/assets', { source: { kind: 'url', url: `http://127.0.0.1:${stall.port}/v.mp4` } }));
  const job = await waitFor('fetch attempt failed', () => jobs(a.id).find((x) => x.error), 10_000);
  expect(job!.error).toMatch(/did not answer within/);
  expect(["queued", "failed"]).toContain(job!.status);
  expect(asset(a.id).source_path).toBeNull();
});

test('a 404 from the source fails the asset at once', async () => {
  const a = await j(await s.api('POST', '/v1/assets', { source: { kind: 'url', url: `http://127.0.0.1:${origin.port}/missing.mp4` } }));
  await waitFor('asset failed', () => asset(a.id).status === 'failed');
  expect(asset(a.id).error).toContain('HTTP 404');
});
