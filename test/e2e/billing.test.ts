/**
 * Billing usage (issue 47): a seeded past month checked against hand-computed figures (stored prorated, encoded,
 * delivered minutes and bytes, live input and recorded hours, by tier), JSON and CSV equal, a closed month kept when
 * its records go; the current month from a real upload, encode and segment delivery; bad input and scopes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { defaultTenant, makeClip, registerAsset, settled } from './transcode-helpers';
import { monthAt } from '../../src/features/billing/months';

let s: TestServer;
let tenant: string;
const HOUR = 3_600_000, DAY = 86_400_000;
const now = Date.now();
// Two months back: the background closer keeps the previous month as soon as the service starts.
const past = monthAt(monthAt(monthAt(now).from - 1).from - 1);
const monthMs = past.to - past.from;

interface ByTier { audio: number; up_to_720p: number; '1080p': number; above_1080p: number; unknown: number; total: number }
interface MonthUsage { month: string; complete: boolean; minutes_stored: ByTier; minutes_encoded: ByTier; minutes_delivered: ByTier; bytes_delivered: ByTier; live_input_hours: ByTier; recorded_hours: ByTier }

const output = (short: number) => JSON.stringify({
  dir: 'media/x', version: 1, encoder: 'libx264', fallback_from: null, ladder: 'default', audio: true,
  renditions: short ? [{ name: `${short}p`, width: Math.round(short * 16 / 9), height: short, video_k: 1000 }] : [], files: {}, thumb: { w: 160, h: 90, interval_s: 5 },
});

function seedAsset(id: string, durationS: number, short: number, created: number, deleted: number | null) {
  s.ctx.db.query(`INSERT INTO assets (id, tenant_id, title, status, source, duration_s, output, deleted_at, created_at, updated_at)
    VALUES (?, ?, 'seeded', 'ready', '{"kind":"upload"}', ?, ?, ?, ?, ?)`).run(id, tenant, durationS, output(short), deleted, created, created);
}

function seedEncode(assetId: string, finished: number, status = 'succeeded') {
  s.ctx.db.query(`INSERT INTO jobs (id, tenant_id, type, payload, subject_kind, subject_id, status, run_at, created_at, updated_at, finished_at)
    VALUES (?, ?, 'asset.encode', '{}', 'asset', ?, ?, ?, ?, ?, ?)`).run(crypto.randomUUID(), tenant, assetId, status, finished, finished, finished, finished);
}

function feedEvent(channelId: string, at: number, feed: string) {
  s.ctx.db.query(`INSERT INTO events (id, tenant_id, type, data, at) VALUES (?, ?, 'channel.feed_changed', ?, ?)`)
    .run(crypto.randomUUID(), tenant, JSON.stringify({ channel_id: channelId, feed, previous: feed === 'none' ? 'primary' : 'none' }), at);
}

async function usage(q: string, key?: string): Promise<Response> {
  return s.api('GET', `/v1/billing/usage${q}`, undefined, key ? { key } : {});
}

beforeAll(async () => {
  s = await startTestServer({ env: { VS_STATS_FLUSH_MS: '200' } });
  tenant = defaultTenant(s.ctx);
});
afterAll(async () => { await s?.stop(); });

describe('billing usage', () => {
  test('a seeded past month matches hand-computed figures; JSON and CSV agree; the closed month is kept', async () => {
    // Assets: A 10 min 1080p from day 11 to the month's end and beyond; B 6 min 720p deleted at day 5 12:00 (was
    // registered before the month); C audio only, 2 min, the whole month; D encoding (no output): not stored.
    seedAsset('bill-a', 600, 1080, past.from + 10 * DAY, null);
    seedAsset('bill-b', 360, 720, past.from - 40 * DAY, past.from + 4 * DAY + 12 * HOUR);
    seedAsset('bill-c', 120, 0, past.from - DAY, null);
    s.ctx.db.query(`INSERT INTO assets (id, tenant_id, title, status, source, duration_s, created_at, updated_at) VALUES ('bill-d', ?, 'x', 'processing', '{"kind":"upload"}', 900, ?, ?)`).run(tenant, past.from, past.from);
    // Encodes: A once in the month, B twice (a re-encode counts again), one failed and one of the month before: not counted.
    seedEncode('bill-a', past.from + 10 * DAY + HOUR);
    seedEncode('bill-b', past.from + DAY);
    seedEncode('bill-b', past.from + 2 * DAY);
    seedEncode('bill-a', past.from + 3 * DAY, 'failed');
    seedEncode('bill-b', past.from - DAY);
    // A channel whose feed reports 1280x720: on from before the month until day 1 02:00, on again day 3 10:00-10:30.
    const ch = (await (await s.api('POST', '/v1/channels', { name: 'Billing TV' })).json()) as { id: string };
    s.ctx.db.query('UPDATE channels SET feed_info = ? WHERE id = ?').run(JSON.stringify({ resolution: '1280x720' }), ch.id);
    feedEvent(ch.id, past.from - 5 * HOUR, 'primary');
    feedEvent(ch.id, past.from + 2 * HOUR, 'none');
    feedEvent(ch.id, past.from + 2 * DAY + 10 * HOUR, 'backup');
    feedEvent(ch.id, past.from + 2 * DAY + 10 * HOUR + 30 * 60_000, 'none');
    // Recording: rendition r0 has a summarised hour (span 40 min) and a materialised hour whose segments sum to
    // 20 min with a 10 min hole; r1 has less (the channel counts its most complete rendition once).
    const h1 = past.from + 5 * HOUR, h2 = past.from + 6 * HOUR;
    const hour = (r: string, h: number, first: number, end: number, mat: number) => s.ctx.db.query(
      `INSERT INTO live_hours (channel_id, rendition, hour_ms, n, first_ms, last_ms, end_ms, first_seq, disc_seq_start, first_disc, inner_discs, dir_mtime, materialized)
       VALUES (?, ?, ?, 1, ?, ?, ?, 0, 0, 0, 0, 0, ?)`).run(ch.id, r, h, first, end, end, mat);
    hour('r0', h1, h1, h1 + 40 * 60_000, 0);
    hour('r0', h2, h2, h2 + 30 * 60_000, 1);
    for (let i = 0; i < 10; i++) {
      const start = i < 5 ? h2 + i * 120_000 : h2 + 10 * 60_000 + i * 120_000;
      s.ctx.db.query(`INSERT INTO live_segments (channel_id, rendition, start_ms, duration_ms, bytes, path, init_ms, seq, disc_seq) VALUES (?, 'r0', ?, 120000, 1, 'x', 0, ?, 0)`).run(ch.id, start, i);
    }
    hour('r1', h1, h1, h1 + 30 * 60_000, 0);
    // Delivery (statistics store): 90 min watched of A, 30 min of the channel, 12 min of a purged asset; bytes likewise.
    for (const [content, kind, ms, minute] of [['bill-a', 'vod', 60 * 60_000, past.from + DAY], ['bill-a', 'vod', 30 * 60_000, past.from + 20 * DAY], [ch.id, 'live', 30 * 60_000, past.from + 2 * DAY], ['gone', 'vod', 12 * 60_000, past.from + 3 * DAY], ['bill-a', 'vod', 999 * 60_000, past.to]] as const) {
      await s.ctx.stats.run('INSERT INTO session_minute (tenant_id, minute, kind, content_id, watch_ms) VALUES (?, ?, ?, ?, ?)', [tenant, minute, kind, content, ms]);
    }
    for (const [target, kind, bytes] of [['bill-a', 'asset', 5_000_000], [ch.id, 'channel', 2_000_000], [`${ch.id}/prog1`, 'startover', 1_000_000], ['gone', 'asset', 7]] as const) {
      await s.ctx.stats.run(`INSERT INTO edge_minute (tenant_id, minute, kind, target, country, device, requests, errors, bytes, memory_requests, memory_bytes, ttfb_ms_sum)
        VALUES (?, ?, ?, ?, '', '', 1, 0, ?, 0, 0, 0)`, [tenant, past.from + 3 * DAY, kind, target, bytes]);
    }

    const r = await usage(`?month=${past.label}`);
    expect(r.status).toBe(200);
    const [u] = ((await r.json()) as { items: MonthUsage[] }).items;
    const r3 = (v: number) => Math.round(v * 1000) / 1000;
    expect(u.month).toBe(past.label);
    expect(u.complete).toBe(true);
    const storedA = 10 * (monthMs - 10 * DAY) / monthMs, storedB = 6 * (4 * DAY + 12 * HOUR) / monthMs;
    expect(u.minutes_stored).toEqual({ audio: 2, up_to_720p: r3(storedB), '1080p': r3(storedA), above_1080p: 0, unknown: 0, total: r3(2 + storedA + storedB) });
    expect(u.minutes_encoded).toEqual({ audio: 0, up_to_720p: 12, '1080p': 10, above_1080p: 0, unknown: 0, total: 22 });
    expect(u.minutes_delivered).toEqual({ audio: 0, up_to_720p: 30, '1080p': 90, above_1080p: 0, unknown: 12, total: 132 });
    expect(u.bytes_delivered).toEqual({ audio: 0, up_to_720p: 3_000_000, '1080p': 5_000_000, above_1080p: 0, unknown: 7, total: 8_000_007 });
    expect(u.live_input_hours).toEqual({ audio: 0, up_to_720p: 2.5, '1080p': 0, above_1080p: 0, unknown: 0, total: 2.5 });
    expect(u.recorded_hours).toEqual({ audio: 0, up_to_720p: 1, '1080p': 0, above_1080p: 0, unknown: 0, total: 1 });

    // CSV: the same figures, one row per metric and tier, with a byte order mark and CRLF.
    const c = await usage(`?month=${past.label}&format=csv`);
    expect(c.status).toBe(200);
    expect(c.headers.get('content-type')).toContain('text/csv');
    const bytes = new Uint8Array(await c.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFFmonth,complete,metric,tier,value\r\n')).toBe(true);
    const rows = text.slice(1).trim().split('\r\n').slice(1).map((l) => l.split(','));
    expect(rows.length).toBe(6 * 6);
    for (const [month, complete, metric, tier, value] of rows) {
      expect(month).toBe(past.label);
      expect(complete).toBe('true');
      expect(Number(value)).toBe((u as unknown as Record<string, Record<string, number>>)[metric]![tier]!);
    }
    const viaAccept = await s.api('GET', `/v1/billing/usage?month=${past.label}`, undefined, { headers: { accept: 'text/csv' } });
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await viaAccept.arrayBuffer())).toBe(text);

    // The closed month was kept: removing its records (retention) changes nothing.
    s.ctx.db.query("DELETE FROM live_hours WHERE channel_id = ?").run(ch.id);
    s.ctx.db.query("DELETE FROM jobs WHERE subject_id IN ('bill-a', 'bill-b')").run();
    const again = ((await (await usage(`?month=${past.label}`)).json()) as { items: MonthUsage[] }).items[0]!;
    expect(again).toEqual(u);
  });

  test('the current month from a real upload, encode and segment delivery', async () => {
    const src = await makeClip(join(mkdtempSync(join(tmpdir(), 'vs-bill-')), 'in.mp4'), { seconds: 3, size: '640x360' });
    const id = registerAsset(s.ctx, src);
    const a = await settled(s.ctx, id);
    expect(a.status).toBe('ready');
    const dur = s.ctx.db.query<{ duration_s: number }, [string]>('SELECT duration_s FROM assets WHERE id = ?').get(id)!.duration_s;
    const tok = await (await s.api('POST', '/v1/playback/tokens', { asset: id })).json() as { src: string };
    const master = await (await fetch(tok.src)).text();
    const variant = new URL(master.split('\n').find((l) => l && !l.startsWith('#'))!, tok.src);
    const list = await (await fetch(variant)).text();
    const seg = new URL(list.split('\n').find((l) => l && !l.startsWith('#'))!, variant);
    const segBytes = (await (await fetch(seg)).arrayBuffer()).byteLength;
    expect(segBytes).toBeGreaterThan(1000);
    const u = (await waitFor('delivered bytes counted', async () => {
      const m = ((await (await usage('')).json()) as { items: MonthUsage[] }).items[0]!;
      return m.bytes_delivered.up_to_720p >= segBytes ? m : null;
    }, 30_000, 250))!;
    expect(u.month).toBe(monthAt(Date.now()).label);
    expect(u.complete).toBe(false);
    expect(u.minutes_encoded.up_to_720p).toBeCloseTo(dur / 60, 3);
    // Stored so far: the asset exists for seconds of this month, a tiny positive share.
    expect(u.minutes_stored.up_to_720p).toBeGreaterThanOrEqual(0);
    expect(u.minutes_stored.up_to_720p).toBeLessThan(0.01);
  }, 120_000);

  test('bad input, scopes and keys', async () => {
    const bad = async (q: string, field: string) => {
      const r = await usage(q);
      expect(r.status).toBe(422);
      const b = await r.json() as { errors: { field: string }[] };
      expect(b.errors[0]!.field).toBe(field);
    };
    await bad('?month=2026-13', 'month');
    await bad('?month=26-01', 'month');
    await bad(`?month=${monthAt(monthAt(now).to).label}`, 'month');
    await bad('?month=2026-01&from=2026-01&to=2026-02', 'month');
    await bad('?from=2026-01', 'to');
    await bad('?from=2026-05&to=2026-01', 'to');
    await bad('?from=2020-01&to=2026-01', 'to');
    expect((await usage('?format=xml')).status).toBe(422);
    // A range: oldest first.
    const two = ((await (await usage(`?from=${past.label}&to=${monthAt(now).label}`)).json()) as { items: MonthUsage[] }).items;
    expect(two.map((m) => m.month)).toEqual([past.label, monthAt(past.to).label, monthAt(now).label]);
    // Owner-only scope: an admin key is refused; no key is 401.
    const admin = await (await s.api('POST', '/v1/api-keys', { name: 'admin', role: 'admin' })).json() as { key: string };
    expect((await usage('', admin.key)).status).toBe(403);
    expect((await s.api('GET', '/v1/billing/usage', undefined, { key: null })).status).toBe(401);
  });
});
