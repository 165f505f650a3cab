import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { assetRow, makeClip, registerAsset, settled } from './transcode-helpers';

let s: TestServer;
beforeAll(async () => {
  // A GPU encoder that cannot open on this machine: every encode must fall back to libx264 and say so.
  const before = process.env.VS_TRANSCODE_ENCODER;
  process.env.VS_TRANSCODE_ENCODER = 'h264_nvenc';
  // validate: every answer is checked against /openapi.json (the cancel's 200 among them).
  try { s = await startTestServer({ validate: true }); } finally { if (before === undefined) delete process.env.VS_TRANSCODE_ENCODER; else process.env.VS_TRANSCODE_ENCODER = before; }
});
afterAll(async () => { await s?.stop(); });

const encodeJob = async (asset: string) => {
  const page = await (await s.api('GET', `/v1/jobs?subject=${asset}&type=asset.encode`)).json() as { items: any[] };
  return page.items[0];
};

test('cancel a running encode: ffmpeg stops, asset fails with asset.failed; retry brings it to ready', async () => {
  const src = await makeClip(join(s.dataDir, 'long.mp4'), { size: '640x360', seconds: 30 });
  const id = registerAsset(s.ctx, src);
  await waitFor('encoding', () => assetRow(s.ctx, id).status === 'encoding' && (assetRow(s.ctx, id).progress ?? 0) > 3, 60_000, 20);
  const job = await encodeJob(id);
  expect(job.status).toBe('running');
  const c = await s.api('POST', `/v1/jobs/${job.id}/cancel`);
  expect(c.status).toBe(200);
  expect((await c.json()).cancel_requested).toBe(true);
  const a = await settled(s.ctx, id, 30_000);
  expect(a.status).toBe('failed');
  expect(a.error).toBe('processing was cancelled');
  expect((await s.api('GET', `/v1/jobs/${job.id}`).then((r) => r.json())).status).toBe('cancelled');
  const failedEv = s.ctx.db.query<{ data: string }, []>(`SELECT data FROM events WHERE type = 'asset.failed'`).all().map((e) => JSON.parse(e.data));
  expect(failedEv).toContainEqual({ asset: id, external_id: expect.any(String), status: 'failed', error: 'processing was cancelled' });
  expect((await s.api('POST', `/v1/jobs/${job.id}/cancel`)).status).toBe(409);

  const viewer = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string };
  expect((await s.api('POST', `/v1/jobs/${job.id}/retry`, undefined, { key: viewer.key })).status).toBe(403);
  expect((await s.api('GET', `/v1/jobs/${job.id}`, undefined, { key: viewer.key })).status).toBe(200);
  const r = await s.api('POST', `/v1/jobs/${job.id}/retry`);
  expect(r.status).toBe(200);
  expect(['queued', 'encoding']).toContain(assetRow(s.ctx, id).status);
  const done = await settled(s.ctx, id, 180_000);
  expect(done.error).toBeNull();
  expect(done.status).toBe('ready');
  const after = await encodeJob(id);
  expect(after.status).toBe('succeeded');
  // the GPU encoder failed and libx264 took over, recorded on the job
  expect(after.result).toMatchObject({ encoder: 'libx264', fallback_from: 'h264_nvenc' });
  const kinds = (await (await s.api('GET', `/v1/jobs/${job.id}/events`)).json() as { items: { kind: string }[] }).items.map((e) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(['cancel_requested', 'cancelled', 'retry_requested', 'encoder_fallback', 'succeeded']));
}, 300_000);

test('job list pages with cursors; unknown and foreign ids answer 404', async () => {
  const p1 = await (await s.api('GET', '/v1/jobs?limit=1')).json() as { items: any[]; next_cursor: string | null };
  expect(p1.items.length).toBe(1);
  expect(p1.next_cursor).not.toBeNull();
  const p2 = await (await s.api('GET', `/v1/jobs?limit=1&cursor=${encodeURIComponent(p1.next_cursor!)}`)).json() as { items: any[] };
  expect(p2.items[0].id).not.toBe(p1.items[0].id);
  expect((await s.api('GET', '/v1/jobs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  expect((await s.api('GET', '/v1/jobs/nope')).status).toBe(404);
  expect((await s.api('GET', '/v1/jobs?status=bogus')).status).toBe(422);
});
