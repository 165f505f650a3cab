import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv } from './live-helpers';
import { at, playThrough, recordChannel } from './catchup-helpers';
import { connect, keyFor } from './mcp-helpers';

let s: TestServer;
afterAll(async () => { await killPushers(); await s?.stop(); });
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });

type Clip = { id: string; status: string; channel_id: string; playback: { hls: string } };

test('an editor key cuts a clip through MCP (official SDK client): structured result, resource link, the clip plays; channel shows live; audit', async () => {
  const { ch, pusher, segs } = await recordChannel(s, 'MCP Clips', 6, 2);
  const editor = await connect(s, await keyFor(s, { role: 'editor' }));
  // While the feed runs the channel tool reports it live with its input.
  const live = await waitFor('channel live through MCP', async () => {
    const r = await editor.callTool({ name: 'list_channels', arguments: {} });
    const c = (r.structuredContent as { items: { id: string; status: string; feed: string }[] }).items.find((x) => x.id === ch.id);
    return c?.status === 'live' && c;
  }, 20_000);
  expect(live).toMatchObject({ status: 'live', feed: 'primary' });
  await pusher.exited;
  await waitFor('recording indexed', async () => { const n = segs().length; await Bun.sleep(600); return n >= 2 && segs().length === n; }, 20_000);
  const rec = segs();
  const first = rec[0].start_ms, last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;

  const r = await editor.callTool({ name: 'create_clip', arguments: { channel_id: ch.id, start_at: at(first + 300), end_at: at(last - 300), title: 'Goal' } });
  expect(r.isError).toBeFalsy();
  const clip = r.structuredContent as Clip;
  expect(clip).toMatchObject({ status: 'ready', channel_id: ch.id });
  expect(clip.playback.hls).toContain(`/m/clips/${clip.id}/master.m3u8`);
  const link = (r.content as { type: string; uri?: string; mimeType?: string }[]).find((c) => c.type === 'resource_link');
  expect(link).toMatchObject({ uri: clip.playback.hls, mimeType: 'application/vnd.apple.mpegurl' });
  const played = await playThrough(link!.uri!);
  expect(played.segments).toBeGreaterThan(0);
  expect(played.codes.every((c) => c === 200)).toBe(true);
  expect(played.variant).toContain('#EXT-X-ENDLIST');
  // Same clip through REST.
  expect(((await (await s.api('GET', `/v1/clips/${clip.id}`)).json()) as Clip).id).toBe(clip.id);

  // Nothing recorded in the range: isError with the validation problem on start_at.
  const empty = await editor.callTool({ name: 'create_clip', arguments: { channel_id: ch.id, start_at: at(first - 3_600_000), end_at: at(first - 3_000_000) } });
  expect(empty.isError).toBe(true);
  const problem = JSON.parse((empty.content as { text: string }[])[0].text) as { status: number; errors: { field: string }[] };
  expect(problem.status).toBe(422);
  expect(problem.errors[0].field).toBe('start_at');

  // Catch-up list through MCP sees the recording window (no guide: no programmes, but the window and retention).
  const cu = await editor.callTool({ name: 'list_catchup', arguments: { channel_id: ch.id } });
  expect(cu.isError).toBeFalsy();
  expect(cu.structuredContent).toMatchObject({ items: [], excluded_hidden: 0 });

  // Every call is in the audit log as mcp.tool_call with tool, outcome and duration.
  const clipCalls = await waitFor('audit batch written', async () => {
    const log = await (await s.api('GET', '/v1/audit?action=mcp.tool_call&limit=50')).json() as { items: { target: string; details: { tool: string; outcome: string; duration_ms: number } }[] };
    const found = log.items.filter((e) => e.details.tool === 'create_clip').map((e) => e.details.outcome).sort();
    return found.length >= 2 ? found : null;
  }, 5000) as string[];
  expect(clipCalls).toEqual(['error', 'ok']);
  await editor.close();
}, 120_000);
