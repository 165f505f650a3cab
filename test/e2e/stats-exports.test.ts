import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { gunzipSync } from 'node:zlib';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { statsRuntime } from '../../src/features/stats/runtime';
import { ExportJobs } from '../../src/features/stats/export-jobs';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import type { StatsParam } from '../../src/kernel/stats';

let s: TestServer;
let tenantId: string;
const keys: Record<string, string> = {};
type Job = { id: string; status: string; download_url: string | null; file_name: string | null; rows: number | null; pii: boolean };

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  for (const [name, scopes] of [['read', ['stats:read']], ['pii', ['stats:read', 'stats:pii']]] as const) {
    keys[name] = ((await (await s.api('POST', '/v1/api-keys', { scopes, name })).json()) as { key: string }).key;
  }
  tenantId = s.ctx.db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
  await statsRuntime(s.ctx).ready;
  const now = s.ctx.clock.now();
  const row = (sid: string, e: string, t: number) => {
    const v: Record<string, StatsParam> = { ts: now - 60_000 + t, received: now, tenant_id: tenantId, sid, viewer_id: `viewer-${sid}`, page_host: 'news.example', page_url: 'https://news.example/a?x=1', kind: 'vod', content_id: 'asset-x', live: false, e, pos: 0, buf: 0 };
    return EVENT_COLUMNS.map((c) => v[c] ?? null);
  };
  await s.ctx.stats.append('player_events', [row('a', 'play_request', 0), row('a', 'first_frame', 500), row('b', 'play_request', 0)]);
  await statsRuntime(s.ctx).flush();
}, 60_000);
afterAll(async () => { await s?.stop(); });

const create = (key: string, body: Record<string, unknown>) => s.api('POST', '/v1/stats/exports', body, { key });
const ready = async (key: string, id: string): Promise<Job> => (await waitFor('export ready', async () => {
  const j = await (await s.api('GET', `/v1/stats/exports/${id}`, undefined, { key })).json() as Job;
  if (j.status === 'failed') throw new Error('export failed');
  return j.status === 'ready' ? j : null;
}, 20_000, 100))!;
const clear = () => s.ctx.stats.run('DELETE FROM export_jobs WHERE tenant_id = ?', [tenantId]);

describe('prepared exports', () => {
  test('202 queued → ready with a signed 15-minute URL and a gzip file name; the file is the report (CSV with BOM)', async () => {
    await clear();
    const r = await create(keys.read, { report: 'player_events', format: 'csv' });
    expect(r.status).toBe(202);
    const j0 = await r.json() as Job;
    expect(['queued', 'running', 'ready']).toContain(j0.status);
    const j = await ready(keys.read, j0.id);
    expect(j.file_name).toMatch(/^player_events-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv\.gz$/);
    expect(j.rows).toBe(3);
    const path = new URL(j.download_url!).pathname + new URL(j.download_url!).search;
    const d = await s.api('GET', path, undefined, { key: keys.read });
    expect(d.status).toBe(200);
    expect(d.headers.get('x-export-rows')).toBe('3');
    const text = gunzipSync(new Uint8Array(await d.arrayBuffer())).toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.trim().split('\r\n').length).toBe(4);
    // The signing key comes from the master key, not the process: a new instance (as after a restart) accepts the URL.
    const u = new URL(j.download_url!);
    const again = await new ExportJobs(s.ctx).download(tenantId, j.id, Number(u.searchParams.get('exp')), u.searchParams.get('sig')!, false);
    expect(again.rows).toBe(3);
    expect(text).not.toContain('viewer-a');
    // Altered or expired URLs are refused.
    expect((await s.api('GET', path.replace(/sig=[^&]+/, 'sig=AAAA'), undefined, { key: keys.read })).status).toBe(403);
    expect((await s.api('GET', path.replace(/exp=\d+/, 'exp=1000'), undefined, { key: keys.read })).status).toBe(403);
  });

  test('a file with viewer-level columns is served only to stats:pii callers', async () => {
    await clear();
    const j = await ready(keys.pii, ((await (await create(keys.pii, { report: 'sessions', format: 'ndjson' })).json()) as Job).id);
    expect(j.pii).toBe(true);
    const path = new URL(j.download_url!).pathname + new URL(j.download_url!).search;
    expect((await s.api('GET', path, undefined, { key: keys.read })).status).toBe(403);
    const d = await s.api('GET', path, undefined, { key: keys.pii });
    expect(gunzipSync(new Uint8Array(await d.arrayBuffer())).toString('utf8')).toContain('viewer-a');
  });

  test('limits: one running (409), 10 per hour and 3 waiting files (429, Retry-After 600), 31 days, unknown report, email for keys (422)', async () => {
    await clear();
    const now = s.ctx.clock.now();
    const fake = (status: string, created: number, downloaded: number | null = null) => s.ctx.stats.run(`INSERT INTO export_jobs (id, tenant_id, report, format, "from", "to", pii, status, created, downloaded) VALUES (?, ?, 'sessions', 'csv', 0, 1, false, ?, ?, ?)`, [crypto.randomUUID(), tenantId, status, created, downloaded]);
    await fake('running', now);
    expect((await create(keys.read, { report: 'sessions' })).status).toBe(409);
    await clear();
    for (let i = 0; i < 3; i++) await fake('ready', now - 2 * 3_600_000);
    const w = await create(keys.read, { report: 'sessions' });
    expect([w.status, w.headers.get('retry-after')]).toEqual([429, '600']);
    await clear();
    for (let i = 0; i < 10; i++) await fake('ready', now - 60_000, now);
    const h = await create(keys.read, { report: 'sessions' });
    expect([h.status, h.headers.get('retry-after')]).toEqual([429, '600']);
    await clear();
    expect((await create(keys.read, { report: 'sessions', from: '2026-01-01T00:00:00Z', to: '2026-02-05T00:00:00Z' })).status).toBe(422);
    const bad = await create(keys.read, { report: 'nope' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toContain('sessions, player_events, edge_requests, site_events, programmes');
    expect((await create(keys.read, { report: 'sessions', email: true })).status).toBe(422);
    expect((await create(keys.read, { report: 'sessions', nope: 1 })).status).toBe(400);
    expect((await s.api('GET', '/v1/stats/exports/00000000-0000-0000-0000-000000000000', undefined, { key: keys.read })).status).toBe(404);
  });
});
