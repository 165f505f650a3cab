import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv } from './live-helpers';
import { at, recordChannel } from './catchup-helpers';
import { defaultTenantId } from './guide-helpers';
import { IdentityService } from '../../src/features/identity/service';

let s: TestServer;
afterAll(async () => { await killPushers(); await s?.stop(); });
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });

type Item = { id: string; title: string; status: string; vod: null | { asset_id: string | null; status: string; trigger: string } };

test('a recorded programme publishes to the library (remux, then the asset lifecycle) and becomes a ready asset', async () => {
  const { ch, pusher, segs } = await recordChannel(s, 'Vod One', 6, 2);
  await pusher.exited;
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(600); return n >= 2 && segs().length === n; }, 20_000);
  const rec = segs();
  const first = rec[0].start_ms, last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;
  const prog = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Evening news', start_at: at(first), end_at: at(last) })).json() as { id: string };
  const empty = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Nothing here', start_at: at(first - 7_200_000), end_at: at(first - 3_600_000) })).json() as { id: string };
  const hidden = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Rerun: old film', start_at: at(first - 3_600_000), end_at: at(first - 1_800_000) })).json() as { id: string };
  await s.api('PUT', '/v1/catchup/exclusions', { rules: [{ field: 'title', pattern: 'rerun:*' }] });

  const editor = new IdentityService(s.ctx.db, s.ctx.keys).createKey(defaultTenantId(s), { role: 'editor' }).key;
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes/${prog.id}/publish-vod`, { publish: true }, { key: editor })).status).toBe(403);
  // A published subtitle track of the recording goes with the programme to the library, on the asset's timeline.
  const track = await s.api('POST', `/v1/channels/${ch.id}/subtitles`, { language: 'en', programme_id: prog.id, content: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nhello from the recording\n' });
  expect(track.status).toBe(201);
  expect((await s.api('POST', `/v1/channels/${ch.id}/subtitles/${((await track.json()) as { id: string }).id}/publish`)).status).toBe(200);
  const r = await s.api('POST', `/v1/channels/${ch.id}/programmes/${prog.id}/publish-vod`, { collection_id: 'news-archive' });
  expect(r.status).toBe(202);
  expect((await r.json()).vod.status).toBe('publishing');
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes/${prog.id}/publish-vod`, {})).status).toBe(409);
  const ex = await s.api('POST', `/v1/channels/${ch.id}/programmes/${hidden.id}/publish-vod`, {});
  expect(ex.status).toBe(422);
  const none = await s.api('POST', `/v1/channels/${ch.id}/programmes/${empty.id}/publish-vod`, {});
  expect(none.status).toBe(422);
  expect(((await none.json()) as { errors: { field: string }[] }).errors[0].field).toBe('start_at');
  const batch = await (await s.api('POST', `/v1/channels/${ch.id}/programmes/publish-vod`, { programme_ids: [empty.id, hidden.id] })).json() as { items: { accepted: boolean; error?: { status: number } }[] };
  expect(batch.items.map((i) => [i.accepted, i.error?.status])).toEqual([[false, 422], [false, 422]]);

  const item = await waitFor('vod published', async () => {
    const list = await (await s.api('GET', `/v1/channels/${ch.id}/catchup?from=${at(first - 60_000)}&to=${at(Date.now())}`)).json() as { items: Item[] };
    const it = list.items.find((i) => i.id === prog.id)!;
    if (it.vod?.status === 'failed') throw new Error(JSON.stringify(it.vod));
    return it.status === 'published' && it;
  }, 80_000, 500) as Item;
  expect(item.vod).toMatchObject({ status: 'published', trigger: 'api' });
  const asset = await (await s.api('GET', `/v1/assets/${item.vod!.asset_id}`)).json() as { status: string; title: string; metadata: Record<string, unknown>; playback: { hls: string } };
  expect(asset).toMatchObject({ status: 'ready', title: 'Evening news' });
  expect(asset.metadata).toMatchObject({ programme_id: prog.id, collection_id: 'news-archive' });
  const master = await fetch(asset.playback.hls);
  expect(master.status).toBe(200);
  expect(await master.text()).toContain('TYPE=SUBTITLES');
  const subs = await (await s.api('GET', `/v1/assets/${item.vod!.asset_id}/subtitles`)).json() as { items: { id: string; language: string; status: string; published: boolean }[] };
  expect(subs.items.map((t) => [t.language, t.status, t.published])).toEqual([['en', 'ready', true]]);
  const vtt = await (await s.api('GET', `/v1/assets/${item.vod!.asset_id}/subtitles/${subs.items[0]!.id}.vtt`)).text();
  expect(vtt).toContain('00:00:01.000 --> 00:00:02.500');
  expect(vtt).toContain('hello from the recording');
}, 90_000);
