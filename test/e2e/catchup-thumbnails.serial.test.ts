/** GET /v1/channels/{id}/thumbnails and /thumbnails/{at_ms}: a filmstrip of real recorded frames; hostile cases. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv } from './live-helpers';
import { at, recordChannel } from './catchup-helpers';
import { identityService } from '../../src/features/identity/service';

let s: TestServer;
afterAll(async () => { await killPushers(); await s?.stop(); });
beforeAll(async () => { s = await startTestServer({ env: await liveEnv(), validate: true }); }, 60_000);

type Plan = { from: string; to: string; count: number; fps: number | null; segment_ms: number; segments: number[] | null; recorded: { from: string; to: string }[]; items: { at: string; at_ms: number; segment_start: string; segment_end: string; url: string }[] };

test('a filmstrip of the recording: evenly spread JPEG frames, cached, gaps left out; other tenants 404; bad ranges 422', async () => {
  const { ch, pusher, segs } = await recordChannel(s, 'Thumbs One', 6, 2);
  await pusher.exited;
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(600); return n >= 2 && segs().length === n; }, 20_000);
  const rec = segs();
  const first = rec[0].start_ms, last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;

  // The range reaches 20 s before the recording: frames there fall in a gap and are left out.
  const r = await s.api('GET', `/v1/channels/${ch.id}/thumbnails?from=${at(first - 20_000)}&to=${at(last)}&count=10`);
  expect(r.status).toBe(200);
  const plan = await r.json() as Plan;
  expect(plan.count).toBe(10);
  expect(plan.items.length).toBeGreaterThan(1);
  expect(plan.items.length).toBeLessThan(10);
  expect(plan.items.every((i) => i.at_ms >= first && i.at_ms < last && Date.parse(i.segment_start) <= i.at_ms && i.at_ms < Date.parse(i.segment_end))).toBe(true);
  expect(plan.items.map((i) => i.at_ms)).toEqual([...plan.items.map((i) => i.at_ms)].sort((a, b) => a - b));
  expect(Date.parse(plan.recorded[0].from)).toBeGreaterThanOrEqual(first - 1);
  expect(plan.fps).toBeGreaterThan(10);
  expect(plan.segment_ms).toBeGreaterThan(0);
  // Segment boundaries: every recorded segment start and the last end.
  expect(plan.segments).toEqual([...rec.map((x) => x.start_ms), last]);

  const path = new URL(plan.items[0].url).pathname;
  const img = await s.api('GET', path);
  expect(img.status).toBe(200);
  expect(img.headers.get('content-type')).toBe('image/jpeg');
  const bytes = new Uint8Array(await img.arrayBuffer());
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  expect(bytes.length).toBeLessThan(60_000);
  // Cached: one file, and a conditional request answers 304.
  const etag = img.headers.get('etag')!;
  expect((await s.api('GET', path, undefined, { headers: { 'if-none-match': etag } })).status).toBe(304);
  // Every frame of the plan together (the renderer queues them).
  const codes = await Promise.all(plan.items.map(async (i) => (await s.api('GET', new URL(i.url).pathname)).status));
  expect(codes.every((c) => c === 200)).toBe(true);
  const dir = join(s.dataDir, 'media', identityService(s.ctx).tenant('default').id, 'thumbs', ch.id);
  expect(readdirSync(dir).filter((n) => n.endsWith('.jpg')).length).toBe(plan.items.length);

  // Outside the recording: 422 naming the field.
  const before = await s.api('GET', `/v1/channels/${ch.id}/thumbnails?from=${at(first - 3_600_000)}&to=${at(first - 1_800_000)}`);
  expect(before.status).toBe(422);
  expect(((await before.json()) as { errors: { field: string }[] }).errors[0].field).toBe('from');
  const gap = await s.api('GET', `/v1/channels/${ch.id}/thumbnails/${first - 60_000}`);
  expect(gap.status).toBe(422);
  // Bad parameters.
  for (const q of ['count=0', 'count=61', 'count=x', `from=${at(last)}&to=${at(first)}`, `from=${at(first - 86_400_000 * 2)}&to=${at(last)}`, 'from=yesterday']) {
    const b = await s.api('GET', `/v1/channels/${ch.id}/thumbnails?${q}`);
    expect(`${q} ${b.status}`).toBe(`${q} 422`);
  }
  expect((await s.api('GET', `/v1/channels/${ch.id}/thumbnails/12ab`)).status).toBe(422);
  await fc.assert(fc.asyncProperty(fc.string({ minLength: 1, maxLength: 30 }), fc.string({ maxLength: 30 }), async (f, t) => {
    // A non-empty `from` that is no RFC 3339 time is refused whatever `to` is (empty ones mean the defaults).
    const b = await s.api('GET', `/v1/channels/${ch.id}/thumbnails?from=${encodeURIComponent(f)}&to=${encodeURIComponent(t)}`);
    expect(b.status).toBe(422);
  }), { numRuns: 40 });

  // Another tenant's key: the channel does not exist for it (404), frames included; no key: 401.
  const other = identityService(s.ctx).createTenant({ name: 'Thumbs elsewhere' });
  const k = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
  expect((await s.api('GET', `/v1/channels/${ch.id}/thumbnails`, undefined, { key: k })).status).toBe(404);
  expect((await s.api('GET', path, undefined, { key: k })).status).toBe(404);
  expect((await fetch(`${s.url}${path}`)).status).toBe(401);
  expect((await s.api('GET', `/v1/channels/00000000-0000-4000-8000-000000000000/thumbnails`)).status).toBe(404);
  expect(s.violations).toEqual([]);
}, 120_000);
