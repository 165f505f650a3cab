import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';
import { emitEvent } from '../../src/kernel/events/outbox';
import { IdentityService } from '../../src/features/identity/service';
import { SegmentIndex } from '../../src/live/segment-index';
import { ChannelStore } from '../../src/features/channels/store';
import { gapsBetween, historyWindow } from '../../src/features/channels/history';
import { IngestInput } from '../../src/live/input';
import { segmentAbsPath, segmentRelPath } from '../../src/live/paths';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

type Json = Record<string, any>;
let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false, validate: true }); });
afterAll(async () => { expect(s.violations).toEqual([]); await s?.stop(); });

const json = async (r: Response) => await r.json() as Json;
const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /v1/channels/{id}/history', () => {
  test('feed changes, failovers, recording changes from the events; gaps from the segment index; other channels left out', async () => {
    const ch = await json(await s.api('POST', '/v1/channels', { name: 'History one' }));
    const other = await json(await s.api('POST', '/v1/channels', { name: 'History two' }));
    const row = new ChannelStore(s.ctx.db).anyById(ch.id)!;
    const t0 = Date.now() - 600_000;
    const base = { channel_id: ch.id, slug: ch.slug };
    emitEvent(s.ctx.db, row.tenant_id, 'channel.feed_changed', { ...base, feed: 'primary', previous: 'none', reason: 'start', warnings: [] }, t0);
    emitEvent(s.ctx.db, row.tenant_id, 'channel.recording_status', { ...base, recording: 'on', previous: 'off', at: iso(t0) }, t0);
    emitEvent(s.ctx.db, row.tenant_id, 'channel.feed_changed', { ...base, feed: 'primary', previous: 'primary', reason: 'feed warnings', warnings: [] }, t0 + 1000);
    emitEvent(s.ctx.db, row.tenant_id, 'channel.feed_changed', { ...base, feed: 'backup', previous: 'primary', reason: 'primary silent', warnings: [] }, t0 + 60_000);
    emitEvent(s.ctx.db, row.tenant_id, 'channel.ingest_failover', { ...base, from: 'primary', to: 'backup', reason: 'primary silent' }, t0 + 60_000);
    emitEvent(s.ctx.db, row.tenant_id, 'channel.feed_changed', { channel_id: other.id, slug: other.slug, feed: 'primary', previous: 'none', reason: 'start', warnings: [] }, t0 + 5000);
    // Recorded: 60 s, a 10 s hole, 30 s more.
    const index = new SegmentIndex(s.ctx.db, s.ctx.config.dataDir);
    const put = (t: number, initMs: number) => {
      const file = segmentAbsPath(s.ctx.config.dataDir, segmentRelPath(row.tenant_id, row.id, 'src', t));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, 'x');
      index.append(row, 'src', { startMs: t, durationMs: 2000, bytes: 100_000, initMs });
    };
    for (let t = t0; t < t0 + 60_000; t += 2000) put(t, t0);
    for (let t = t0 + 70_000; t < t0 + 100_000; t += 2000) put(t, t0 + 70_000);

    const h = await json(await s.api('GET', `/v1/channels/${ch.id}/history?from=${iso(t0 - 1000)}&to=${iso(t0 + 200_000)}`));
    expect(h.channel_id).toBe(ch.id);
    expect(h.feed_changes.map((x: Json) => `${x.previous}>${x.feed}`)).toEqual(['none>primary', 'primary>backup']);
    expect(h.failovers).toEqual([{ at: iso(t0 + 60_000), from: 'primary', to: 'backup', reason: 'primary silent' }]);
    expect(h.recording_changes).toEqual([{ at: iso(t0), recording: 'on', previous: 'off' }]);
    expect(h.gaps).toEqual([{ from: iso(t0 + 60_000), to: iso(t0 + 70_000), duration_s: 10, open: false }]);
    expect(h.recorded_s).toBe(90);
    expect(h.truncated).toBe(false);
    // The window bounds what is listed.
    const late = await json(await s.api('GET', `/v1/channels/${ch.id}/history?from=${iso(t0 + 30_000)}&to=${iso(t0 + 65_000)}`));
    expect(late.feed_changes).toHaveLength(1);
    expect(late.gaps).toEqual([{ from: iso(t0 + 60_000), to: iso(t0 + 65_000), duration_s: 5, open: false }]); // the hole's part inside the window
    expect(late.recorded_s).toBe(30);
    // Default window: the last hour, up to now.
    const def = await json(await s.api('GET', `/v1/channels/${ch.id}/history`));
    expect(Date.parse(def.to) - Date.parse(def.from)).toBe(3_600_000);
    expect(def.failovers).toHaveLength(1);
    const two = await json(await s.api('GET', `/v1/channels/${other.id}/history?from=${iso(t0 - 1000)}`));
    expect(two.feed_changes).toHaveLength(1);
    expect(two.failovers).toEqual([]);
    expect(two.gaps).toEqual([]);
  });

  test('hostile: other tenant 404, unknown id 404, bad bounds 422, no key 401; fuzzed bounds never 5xx', async () => {
    const ch = await json(await s.api('POST', '/v1/channels', { name: 'History hostile' }));
    const idn = new IdentityService(s.ctx.db, s.ctx.keys);
    const t2 = idn.createTenant({ name: 'History other' });
    const k2 = idn.createKey(t2.id, { role: 'owner' }).key;
    expect((await s.api('GET', `/v1/channels/${ch.id}/history`, undefined, { key: k2 })).status).toBe(404);
    expect((await s.api('GET', '/v1/channels/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
    expect((await s.api('GET', '/v1/channels/not-an-id/history')).status).toBe(404);
    expect((await s.api('GET', `/v1/channels/${ch.id}/history`, undefined, { key: null })).status).toBe(401);
    for (const q of ['from=yesterday', 'to=12345', `from=${iso(Date.now())}&to=${iso(Date.now() - 1000)}`, `from=${iso(Date.now() - 10 * 86_400_000)}`]) {
      const r = await s.api('GET', `/v1/channels/${ch.id}/history?${q}`);
      expect(r.status).toBe(422);
      const p = await json(r);
      expect(p.errors?.[0]?.field ?? p.errors?.[0]?.pointer).toBeTruthy();
    }
    const long = await s.api('GET', `/v1/channels/${ch.id}/history?from=${'2'.repeat(60)}`);
    expect([400, 422]).toContain(long.status);
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), async (a, b) => {
      const r = await s.api('GET', `/v1/channels/${ch.id}/history?from=${encodeURIComponent(a)}&to=${encodeURIComponent(b)}`);
      expect([200, 400, 422]).toContain(r.status);
      await r.body?.cancel();
    }), { numRuns: 40 });
  });

  test('the channel answers per-input health (stopped: nothing connected) and the on-air input\'s fps', async () => {
    const ch = await json(await s.api('POST', '/v1/channels', { name: 'History view' }));
    expect(ch.input.fps).toBeNull();
    expect(ch.inputs).toEqual({ primary: { connected: false, bitrate_kbps: null, fps: null, resolution: null, restarts: 0 }, backup: { connected: false, bitrate_kbps: null, fps: null, resolution: null, restarts: 0 } });
  });
});

describe('pure parts', () => {
  test('window defaults, order and length', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    expect(historyWindow({}, now)).toEqual([now - 3_600_000, now]);
    expect(() => historyWindow({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }, now)).toThrow();
    expect(() => historyWindow({ from: '2025-12-01T00:00:00Z' }, now)).toThrow();
  });
  test('gaps: holes of a second or more between spans, clipped', () => {
    expect(gapsBetween([0, 10_000, 10_500, 20_000, 30_000, 40_000], 0, 50_000)).toEqual([{ from: 20_000, to: 30_000 }]);
    expect(gapsBetween([0, 10_000, 30_000, 40_000], 25_000, 50_000)).toEqual([{ from: 25_000, to: 30_000 }]);
  });
  test('input bitrate from the segments it packaged: bytes × 8 over the last ~4 s of media', () => {
    const i = new IngestInput({ name: 'primary', outDir: '/nonexistent', argv: () => [], secrets: () => [], silenceKillMs: 4000, onRun: () => {}, log: s.ctx.log });
    i.noteSegment(250_000, 2000); // 1000 kb/s
    expect(i.info.bitrate_kbps).toBe(1000);
    i.noteSegment(500_000, 2000); // 2000 kb/s
    expect(i.info.bitrate_kbps).toBe(1500);
    i.noteSegment(500_000, 2000); // the first falls out of the window
    expect(i.info.bitrate_kbps).toBe(2000);
    i.noteSegment(0, 2000);
    expect(i.info.bitrate_kbps).toBe(2000);
  });
});
