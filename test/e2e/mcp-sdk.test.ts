import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { connect, keyFor, textOf } from './mcp-helpers';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.0/8' } }); });
afterAll(async () => { await s?.stop(); });

const READ_TOOLS = ['list_assets', 'get_asset', 'list_asset_jobs', 'list_channels', 'list_catchup', 'search_catchup', 'get_guide_day', 'stats_overview', 'stats_timeseries', 'stats_top'];
const WRITE_TOOLS = ['register_asset_from_url', 'update_asset_metadata', 'create_clip'];

test('tools/list follows the key scopes: viewer sees read tools only, editor adds clip and asset writes; schemas and annotations', async () => {
  const viewer = await connect(s, await keyFor(s, { role: 'viewer' }));
  expect(viewer.getServerVersion()).toMatchObject({ name: 'viewstream' });
  expect(viewer.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
  const vt = (await viewer.listTools()).tools;
  // support:write belongs to the viewer role in the scope table, so opening a support request is its one write.
  expect(vt.map((t) => t.name).sort()).toEqual([...READ_TOOLS, 'open_support_request'].sort());
  for (const t of vt) {
    expect(t.inputSchema.type).toBe('object');
    expect(t.outputSchema?.type).toBe('object');
    expect(t.annotations?.destructiveHint).toBe(false);
    expect(t.annotations?.readOnlyHint).toBe(t.name !== 'open_support_request');
  }
  const editor = await connect(s, await keyFor(s, { role: 'editor' }));
  const et = (await editor.listTools()).tools.map((t) => t.name);
  for (const n of [...READ_TOOLS, ...WRITE_TOOLS, 'open_support_request']) expect(et).toContain(n);
  // No delete tool, whatever the scopes.
  const owner = await connect(s, s.key);
  expect((await owner.listTools()).tools.filter((t) => /delete|remove|purge|trash/i.test(t.name))).toEqual([]);
  // Only channel reads: only channel tools.
  const ch = await connect(s, await keyFor(s, { scopes: ['channels:read'] }));
  expect((await ch.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_guide_day', 'list_catchup', 'list_channels', 'search_catchup']);
  await Promise.all([viewer.close(), editor.close(), owner.close(), ch.close()]);
});

test('resources: documentation in English and Hebrew, the operation catalogue and one operation; prompts', async () => {
  const c = await connect(s, await keyFor(s, { role: 'viewer' }));
  const list = (await c.listResources()).resources.map((r) => r.uri);
  for (const topic of ['getting-started', 'uploads', 'live-ingest', 'playback-tokens', 'webhooks', 'errors']) {
    expect(list).toContain(`viewstream://docs/en/${topic}`);
    expect(list).toContain(`viewstream://docs/he/${topic}`);
  }
  expect(list).toContain('viewstream://openapi');
  const templates = (await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
  expect(templates).toEqual(expect.arrayContaining(['viewstream://docs/{lang}/{topic}', 'viewstream://openapi/{operationId}']));
  const en = (await c.readResource({ uri: 'viewstream://docs/en/uploads' })).contents[0] as { text: string; mimeType: string };
  expect(en.mimeType).toBe('text/markdown');
  expect(en.text).toContain('/v1/uploads');
  const he = (await c.readResource({ uri: 'viewstream://docs/he/live-ingest' })).contents[0] as { text: string };
  expect(he.text).toMatch(/[\u0590-\u05FF]{3}/);
  expect(he.text).toContain('קליטת שידור חי');
  await expect(c.readResource({ uri: 'viewstream://docs/fr/uploads' })).rejects.toThrow();
  const cat = JSON.parse(((await c.readResource({ uri: 'viewstream://openapi' })).contents[0] as { text: string }).text) as { operations: { operationId: string; path: string; method: string; scope: string }[] };
  const reg = cat.operations.find((o) => o.path === '/v1/assets' && o.method === 'POST')!;
  expect(reg).toMatchObject({ operationId: 'registerAsset', scope: 'assets:write' });
  expect(cat.operations.some((o) => o.path === '/v1/support/requests')).toBe(true);
  const op = JSON.parse(((await c.readResource({ uri: `viewstream://openapi/${reg.operationId}` })).contents[0] as { text: string }).text) as { method: string; path: string; requestBody: unknown };
  expect(op).toMatchObject({ method: 'POST', path: '/v1/assets' });
  expect(op.requestBody).toBeTruthy();
  await expect(c.readResource({ uri: 'viewstream://openapi/noSuchOperation' })).rejects.toThrow();
  const prompts = (await c.listPrompts()).prompts.map((p) => p.name);
  expect(prompts).toEqual(expect.arrayContaining(['clip_last_goal', 'why_channel_down', 'asset_not_ready', 'weekly_report']));
  const g = await c.getPrompt({ name: 'why_channel_down', arguments: { channel_id: 'news' } });
  expect((g.messages[0].content as { text: string }).text).toContain('list_channels');
  await c.close();
});

test('tools end to end: register from a URL, update metadata, list/search/get, jobs, channels, guide day, statistics, support', async () => {
  const c = await connect(s, await keyFor(s, { role: 'editor' }));
  const reg = await c.callTool({ name: 'register_asset_from_url', arguments: { url: 'http://127.0.0.1:9/match.mp4', title: 'Cup final', external_id: 'mcp-1' } });
  expect(reg.isError).toBeFalsy();
  const asset = reg.structuredContent as { id: string; status: string; title: string };
  expect(asset).toMatchObject({ status: 'registered', title: 'Cup final' });
  expect(JSON.parse(textOf(reg))).toEqual(reg.structuredContent as object);
  const dup = await c.callTool({ name: 'register_asset_from_url', arguments: { url: 'http://127.0.0.1:9/match.mp4', external_id: 'mcp-1' } });
  expect(dup.isError).toBe(true);
  expect(JSON.parse(textOf(dup))).toMatchObject({ status: 409, title: 'conflict' });
  const up = await c.callTool({ name: 'update_asset_metadata', arguments: { asset_id: asset.id, title: 'גמר הגביע', metadata: { league: 'premier' } } });
  expect(up.structuredContent).toMatchObject({ id: asset.id, title: 'גמר הגביע', metadata: { league: 'premier' } });
  // The same asset through REST.
  expect(((await (await s.api('GET', `/v1/assets/${asset.id}`)).json()) as { title: string }).title).toBe('גמר הגביע');
  const found = await c.callTool({ name: 'list_assets', arguments: { q: 'הגביע' } });
  expect((found.structuredContent as { items: { id: string }[] }).items.map((a) => a.id)).toEqual([asset.id]);
  const got = await c.callTool({ name: 'get_asset', arguments: { asset_id: asset.id } });
  expect(got.structuredContent).toMatchObject({ id: asset.id, external_id: 'mcp-1' });
  const jobs = await c.callTool({ name: 'list_asset_jobs', arguments: { asset_id: asset.id } });
  expect((jobs.structuredContent as { items: { type: string; status: string }[] }).items).toEqual([expect.objectContaining({ type: 'asset.fetch', status: 'queued' })]);
  const missing = await c.callTool({ name: 'get_asset', arguments: { asset_id: '00000000-0000-4000-8000-000000000000' } });
  expect(missing.isError).toBe(true);
  expect(JSON.parse(textOf(missing))).toMatchObject({ status: 404, type: expect.stringContaining('/not_found') });

  // Channels and the guide of one day (in the channel's time zone).
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Sport 1', timezone: 'Asia/Jerusalem' })).json() as { id: string };
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Evening news', start_at: '2026-03-10T18:00:00Z', end_at: '2026-03-10T19:00:00Z' })).status).toBe(201);
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Late show', start_at: '2026-03-10T22:30:00Z', end_at: '2026-03-10T23:30:00Z' })).status).toBe(201);
  const chans = await c.callTool({ name: 'list_channels', arguments: {} });
  expect((chans.structuredContent as { items: { id: string; status: string }[] }).items).toEqual([expect.objectContaining({ id: ch.id, status: 'stopped' })]);
  const day = await c.callTool({ name: 'get_guide_day', arguments: { channel_id: ch.id, date: '2026-03-10' } });
  // 22:30 UTC is already 11 March in Jerusalem (UTC+2): only the news belong to the 10th there.
  expect(day.structuredContent).toMatchObject({ date: '2026-03-10', timezone: 'Asia/Jerusalem', from: '2026-03-09T22:00:00.000Z', to: '2026-03-10T22:00:00.000Z' });
  expect((day.structuredContent as { items: { title: string }[] }).items.map((p) => p.title)).toEqual(['Evening news']);

  // Statistics over the (empty) store.
  const ov = await c.callTool({ name: 'stats_overview', arguments: {} });
  expect(ov.isError).toBeFalsy();
  expect((ov.structuredContent as { current: Record<string, unknown> }).current).toHaveProperty('plays');
  const top = await c.callTool({ name: 'stats_top', arguments: { entity: 'assets' } });
  expect(top.structuredContent).toMatchObject({ entity: 'assets', metric: 'plays', items: [] });
  const badMetric = await c.callTool({ name: 'stats_timeseries', arguments: { metric: 'nonsense' } });
  expect(badMetric.isError).toBe(true);
  expect(JSON.parse(textOf(badMetric))).toMatchObject({ status: 422 });

  // Support request through MCP, then visible in the REST API with via: mcp.
  const sup = await c.callTool({ name: 'open_support_request', arguments: { subject: 'Channel drops', body: 'Sport 1 drops every hour', category: 'live' } });
  const req = sup.structuredContent as { id: string; status: string };
  expect(req.status).toBe('open');
  const rest = await (await s.api('GET', `/v1/support/requests/${req.id}`)).json() as { via: string; messages: { body: string }[] };
  expect(rest).toMatchObject({ via: 'mcp', messages: [{ body: 'Sport 1 drops every hour' }] });
  await c.close();
});

test('isError results for bad arguments, missing scope and unknown tools; every call audited as mcp.tool_call', async () => {
  const viewerKey = await keyFor(s, { role: 'viewer' });
  const c = await connect(s, viewerKey);
  const bad = await c.callTool({ name: 'list_assets', arguments: { limit: 'many' } });
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain('limit');
  const short = await c.callTool({ name: 'search_catchup', arguments: { channel_id: 'x', q: 'a' } });
  expect(short.isError).toBe(true);
  const noScope = await c.callTool({ name: 'create_clip', arguments: { channel_id: 'x', start_at: '2026-01-01T00:00:00Z', end_at: '2026-01-01T00:01:00Z' } });
  expect(noScope.isError).toBe(true);
  expect(JSON.parse(textOf(noScope))).toMatchObject({ status: 403, title: 'insufficient_scope', detail: 'clips:write' });
  const unknown = await c.callTool({ name: 'delete_asset', arguments: {} });
  expect(unknown.isError).toBe(true);
  await c.close();
  type Entry = { action: string; actor: { kind: string; id: string }; target: string; details: { key: string; tool: string; outcome: string; arguments: Record<string, string>; duration_ms: number } };
  // Entries are written in batches (one commit per 100 ms): wait for them.
  const mine = await waitFor('audit entries', async () => {
    const log = await (await s.api('GET', '/v1/audit?action=mcp.tool_call&limit=100')).json() as { items: Entry[] };
    const found = log.items.filter((e) => ['list_assets', 'search_catchup', 'create_clip', 'delete_asset'].includes(e.target) && e.details.outcome !== 'ok');
    return found.length >= 4 ? found : null;
  }, 5000) as Entry[];
  expect(mine.map((e) => `${e.target}:${e.details.outcome}`).sort()).toEqual(['create_clip:error', 'delete_asset:rejected', 'list_assets:rejected', 'search_catchup:rejected']);
  const entry = mine.find((e) => e.target === 'list_assets')!;
  expect(entry.actor.kind).toBe('key');
  expect(entry.details.arguments).toEqual({ limit: 'many' });
  expect(entry.details.duration_ms).toBeGreaterThanOrEqual(0);
});
