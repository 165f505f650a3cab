import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { statsRuntime } from '../../src/features/stats/runtime';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import type { StatsParam } from '../../src/kernel/stats';

let s: TestServer;
let off: TestServer;
let tenantId: string;
const keys: Record<string, string> = {};

const json = async (r: Response) => ({ status: r.status, body: await r.json() as Record<string, unknown> });

beforeAll(async () => {
  s = await startTestServer({ workers: false, env: { VS_STATS_FLUSH_MS: '200' } });
  off = await startTestServer({ workers: false, env: { VS_ANALYTICS: 'off' } });
  for (const [name, scopes] of [['read', ['stats:read']], ['pii', ['stats:read', 'stats:pii']], ['none', ['assets:read']]] as const) {
    const r = await s.api('POST', '/v1/api-keys', { scopes, name });
    keys[name] = ((await r.json()) as { key: string }).key;
  }
  tenantId = s.ctx.db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
}, 60_000);
afterAll(async () => { await s?.stop(); await off?.stop(); });

describe('scopes, switch and limits', () => {
  test('stats:read is required; analytics off → 403 feature_disabled', async () => {
    expect((await s.api('GET', '/v1/stats/overview', undefined, { key: keys.none })).status).toBe(403);
    expect((await s.api('GET', '/v1/stats/overview', undefined, { key: null })).status).toBe(401);
    expect((await s.api('GET', '/v1/stats/overview', undefined, { key: keys.read })).status).toBe(200);
    for (const path of ['overview', 'timeseries?metric=plays', 'top?entity=assets', 'realtime', 'breakdown', 'traffic', 'qoe', 'cdn', 'completion', 'programmes', 'sessions', 'ads', 'sites', 'export?report=sessions']) {
      const r = await json(await off.api('GET', `/v1/stats/${path}`));
      expect([path, r.status, (r.body.type as string).split('/').pop()]).toEqual([path, 403, 'feature_disabled']);
    }
  });

  test('range: default 24 h, RFC 3339 or epoch ms, at most 2 years, from before to', async () => {
    const r = await json(await s.api('GET', '/v1/stats/overview'));
    expect(Date.parse(r.body.to as string) - Date.parse(r.body.from as string)).toBe(86_400_000);
    expect((await s.api('GET', '/v1/stats/overview?from=2026-01-01T00:00:00Z&to=1767312000000')).status).toBe(200);
    expect((await s.api('GET', '/v1/stats/overview?from=2020-01-01T00:00:00Z&to=2023-01-01T00:00:00Z')).status).toBe(422);
    expect((await s.api('GET', '/v1/stats/overview?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).status).toBe(422);
    expect((await s.api('GET', '/v1/stats/overview?from=yesterday')).status).toBe(422);
  });

  test('timeseries: unknown metric 422 naming the metrics; each interval has a maximum range', async () => {
    const r = await json(await s.api('GET', '/v1/stats/timeseries?metric=nope'));
    expect(r.status).toBe(422);
    expect(r.body.detail).toContain('watch_time');
    expect((await s.api('GET', '/v1/stats/timeseries?metric=plays&interval=1m&from=2026-01-01T00:00:00Z&to=2026-01-04T00:00:00Z')).status).toBe(422);
    expect((await s.api('GET', '/v1/stats/timeseries?metric=plays&interval=1h&from=2025-01-01T00:00:00Z&to=2025-12-01T00:00:00Z')).status).toBe(422);
    const d = await json(await s.api('GET', '/v1/stats/timeseries?metric=plays&from=2025-01-01T00:00:00Z&to=2025-12-01T00:00:00Z'));
    expect(d.body.interval).toBe('1d');
    const h = await json(await s.api('GET', '/v1/stats/timeseries?metric=bytes&from=2026-01-01T00:00:00Z&to=2026-01-03T00:00:00Z'));
    expect(h.body.interval).toBe('1h');
    expect((h.body.points as unknown[]).length).toBe(48);
  });

  test('top: limit up to 100, entity checked, unknown metric 422', async () => {
    expect((await s.api('GET', '/v1/stats/top?entity=assets&limit=100')).status).toBe(200);
    expect((await s.api('GET', '/v1/stats/top?entity=assets&limit=101')).status).toBe(422);
    expect((await s.api('GET', '/v1/stats/top?entity=things')).status).toBe(422);
    expect((await s.api('GET', '/v1/stats/top?entity=channels&metric=nope')).status).toBe(422);
  });

  test('export: unknown report 422 naming the reports; more than 31 days 422', async () => {
    const r = await json(await s.api('GET', '/v1/stats/export?report=nope'));
    expect(r.status).toBe(422);
    expect(r.body.detail).toContain('sessions, player_events, edge_requests, site_events, programmes');
    expect((await s.api('GET', '/v1/stats/export?report=sessions&from=2026-01-01T00:00:00Z&to=2026-02-05T00:00:00Z')).status).toBe(422);
  });
});

describe('origin request log and reads', () => {
  test('a delivery answer is logged (tenant, target, status, TTFB, device, hashed IP) and rolled up', async () => {
    const asset = crypto.randomUUID();
    const r = await fetch(`${s.url}/m/${tenantId}/assets/${asset}/v1/master.m3u8`, { headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1' } });
    expect(r.status).toBe(404);
    const rows = await waitFor('edge row', async () => {
      const x = await s.ctx.stats.all<Record<string, unknown>>('SELECT * FROM edge_requests WHERE target = ?', [asset]);
      return x.length ? x : null;
    }, 10_000);
    const row = rows![0];
    expect(row).toMatchObject({ tenant_id: tenantId, kind: 'asset', status: 404, method: 'GET', device: 'mobile', browser: 'Safari', os: 'iOS', source: 'memory' });
    expect(String(row.ip_hash)).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(row.ttfb_ms)).toBeGreaterThanOrEqual(0);
    const m = await s.ctx.stats.all<{ requests: string; errors: string }>('SELECT sum(requests) AS requests, sum(errors) AS errors FROM edge_minute WHERE target = ?', [asset]);
    expect(m.map((x) => [Number(x.requests), Number(x.errors)])).toEqual([[1, 1]]);
    const t = await json(await s.api('GET', `/v1/stats/traffic?asset=${asset}`));
    expect(t.body.requests).toBe(1);
  });

  test('sessions: viewer ids only with stats:pii; export streams CSV with BOM and ndjson with row headers', async () => {
    const now = s.ctx.clock.now();
    const row = (sid: string, e: string, t: number, x: Record<string, StatsParam> = {}) => {
      const base: Record<string, StatsParam> = { ts: now - 60_000 + t, received: now, tenant_id: tenantId, sid, viewer_id: `viewer-${sid}`, page_host: 'news.example', kind: 'vod', content_id: 'asset-x', live: false, e, pos: 0, buf: 0, device: 'desktop', user_agent: 'UA', ...x };
      return EVENT_COLUMNS.map((c) => base[c] ?? null);
    };
    await statsRuntime(s.ctx).ready;
    await s.ctx.stats.append('player_events', [row('a', 'play_request', 0), row('a', 'first_frame', 800, { startup_ms: 800 }), row('a', 'heartbeat', 15_000), row('b', 'play_request', 0)]);
    await statsRuntime(s.ctx).flush(); // sessions and their rollup (otherwise within one flush interval)
    // Realtime answers from memory, fed by /b/v1: rows written straight to the table reach it as at start (warm-up).
    await statsRuntime(s.ctx).realtime.warm(s.ctx.stats, now);
    const plain = await json(await s.api('GET', '/v1/stats/sessions', undefined, { key: keys.read }));
    const items = plain.body.items as Record<string, unknown>[];
    expect(items.length).toBe(2);
    expect(items.every((i) => i.viewer_id === undefined)).toBe(true);
    const pii = await json(await s.api('GET', '/v1/stats/sessions', undefined, { key: keys.pii }));
    expect((pii.body.items as Record<string, unknown>[]).map((i) => i.viewer_id).sort()).toEqual(['viewer-a', 'viewer-b']);

    const csv = await s.api('GET', '/v1/stats/export?report=sessions&format=csv', undefined, { key: keys.read });
    expect(csv.headers.get('x-export-total-rows')).toBe('2');
    expect(csv.headers.get('x-export-truncated')).toBe('false');
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n');
    expect(lines.length).toBe(3);
    expect(lines[0].split(',')).not.toContain('viewer_id');
    const nd = await s.api('GET', '/v1/stats/export?report=player_events&format=ndjson', undefined, { key: keys.pii });
    const evs = (await nd.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(evs.length).toBe(4);
    expect(evs[0].viewer_id).toBe('viewer-a');
    const ov = await json(await s.api('GET', '/v1/stats/overview'));
    expect((ov.body.current as Record<string, number>).plays).toBe(1);
    expect((ov.body.current as Record<string, number>).attempts).toBe(2);
    const rt = await json(await s.api('GET', '/v1/stats/realtime'));
    expect(rt.body.concurrent).toBe(2);
    // Every further read answers over the same data.
    const br = await json(await s.api('GET', '/v1/stats/breakdown?by=page_host'));
    expect(br.body.items).toEqual([expect.objectContaining({ key: 'news.example', attempts: 2, plays: 1 })]);
    expect((await json(await s.api('GET', '/v1/stats/qoe'))).body).toMatchObject({ attempts: 2, plays: 1, exits_before_start: 1, startup_avg: 800 });
    expect((await json(await s.api('GET', '/v1/stats/completion'))).body).toMatchObject({ completion_rate: 0 });
    expect((await json(await s.api('GET', '/v1/stats/sites'))).body.items).toEqual([expect.objectContaining({ page_host: 'news.example', plays: 1, viewers: 2 })]);
    expect((await json(await s.api('GET', '/v1/stats/ads'))).body).toMatchObject({ ad_impressions: 0 });
    expect((await s.api('GET', '/v1/stats/cdn')).status).toBe(200);
    expect((await s.api('GET', '/v1/stats/programmes')).status).toBe(200);
    expect((await s.api('GET', '/v1/stats/timeseries?metric=bytes&group_by=page_host')).status).toBe(422);
    const grouped = await json(await s.api('GET', '/v1/stats/timeseries?metric=attempts&group_by=device'));
    expect((grouped.body.series as { key: string }[]).map((x) => x.key)).toEqual(['desktop']);
  });

  test('the event stream carries stats.realtime frames (no id) for stats:read keys only', async () => {
    const read = async (key: string, ms: number) => {
      const ac = new AbortController();
      const r = await fetch(`${s.url}/v1/events/stream?stats_s=1`, { headers: { authorization: `Bearer ${key}` }, signal: ac.signal });
      const reader = r.body!.getReader();
      let text = '';
      const end = Date.now() + ms;
      while (Date.now() < end && !text.includes('event: stats.realtime')) {
        const c = await Promise.race([reader.read(), Bun.sleep(end - Date.now()).then(() => null)]);
        if (!c || c.done) break;
        text += new TextDecoder().decode(c.value);
      }
      ac.abort();
      return text;
    };
    const both = await (await s.api('POST', '/v1/api-keys', { scopes: ['events:read', 'stats:read'], name: 'both' })).json() as { key: string };
    const text = await read(both.key, 10_000);
    const m = /event: stats\.realtime\ndata: (.*)\n\n/.exec(text);
    expect(m).not.toBeNull();
    expect(text.slice(0, text.indexOf('event: stats.realtime')).endsWith('id: ')).toBe(false);
    expect(JSON.parse(m![1])).toMatchObject({ window_s: 120 });
    const ev = await (await s.api('POST', '/v1/api-keys', { scopes: ['events:read'], name: 'ev' })).json() as { key: string };
    expect(await read(ev.key, 2500)).not.toContain('stats.realtime');
  }, 20_000);
});
