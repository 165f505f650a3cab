import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, push, pushForever } from './live-helpers';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { await killPushers(); await s?.stop(); });

const get = async (id: string) => (await s.api('GET', `/v1/channels/${id}`)).json();

test('RTMP push with its stream key goes live; an unknown key and a rotated key are refused at publish time', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Studio RTMP', slug: 'studio', ingest: { protocol: 'rtmp' } })).json();
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const unknown = push(`${ing.rtmp.primary.url}/live_not_a_key`, { seconds: 5 });
  expect(await unknown.exited).not.toBe(0);
  const p = pushForever(`${ing.rtmp.primary.url}/${ing.rtmp.primary.stream_key}`);
  const live = await waitFor('live', async () => { const c = await get(ch.id); return c.status === 'live' && c; }, 25_000);
  expect(live.feed).toBe('primary');
  expect(live.input.video_codec).toBe('h264');
  const text = await waitFor('2 segments', async () => { const t = await (await fetch(`${s.url}/live/default/studio/src/index.m3u8`)).text(); return parseMedia(t).length >= 2 && t; }, 20_000);
  expect(text).toContain('#EXT-X-PROGRAM-DATE-TIME');
  await p.stop();

  // Rotation: the old key is refused at once, the new one works.
  const rotated = await (await s.api('POST', `/v1/channels/${ch.id}/ingest/rotate`, {})).json();
  expect(rotated.rtmp.primary.stream_key).not.toBe(ing.rtmp.primary.stream_key);
  expect(rotated.srt.primary.passphrase).not.toBe(ing.srt.primary.passphrase);
  const old = push(`${ing.rtmp.primary.url}/${ing.rtmp.primary.stream_key}`, { seconds: 5 });
  expect(await old.exited).not.toBe(0);
  const audio = push(`${rotated.rtmp.primary.url}/${rotated.rtmp.primary.stream_key}`, { seconds: 20, audioOnly: true });
  const a = await waitFor('audio-only feed live', async () => { const c = await get(ch.id); return c.status === 'live' && c.input.audio_codec === 'aac' && c; }, 25_000);
  expect(a.input.video_codec).toBeNull();
  audio.kill();
}, 120_000);

test('channels API: validation, scopes, slugs, cursor list, 404 for other ids', async () => {
  expect((await s.api('POST', '/v1/channels', { name: 'x', bogus: 1 })).status).toBe(400);
  expect((await s.api('POST', '/v1/channels', { name: 'x', slug: 'Bad Slug' })).status).toBe(422);
  expect((await s.api('POST', '/v1/channels', { name: 'x', timezone: 'Mars/Base' })).status).toBe(422);
  expect((await s.api('POST', '/v1/channels', { name: 'Dup', slug: 'dup' })).status).toBe(201);
  expect((await s.api('POST', '/v1/channels', { name: 'Dup', slug: 'dup' })).status).toBe(409);
  const viewer = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json();
  expect((await s.api('GET', '/v1/channels', undefined, { key: viewer.key })).status).toBe(200);
  expect((await s.api('POST', '/v1/channels', { name: 'v' }, { key: viewer.key })).status).toBe(403);
  const list = await (await s.api('GET', '/v1/channels', undefined, { key: viewer.key })).json();
  expect(list.items.length).toBeGreaterThanOrEqual(2);
  expect(JSON.stringify(list)).not.toMatch(/passphrase|stream_key|live_[A-Za-z0-9]{20}/);
  expect((await s.api('GET', `/v1/channels/${list.items[0].id}/ingest`, undefined, { key: viewer.key })).status).toBe(403);
  const page = await (await s.api('GET', '/v1/channels?limit=1')).json();
  expect(page.items.length).toBe(1);
  expect(page.next_cursor).toBeString();
  expect((await s.api('GET', '/v1/channels/0190a0a0-0000-7000-8000-000000000000')).status).toBe(404);
  const patched = await (await s.api('PATCH', `/v1/channels/${list.items[0].id}`, { dvr_window_s: 120, recording: { retention_hours: 2 } })).json();
  expect(patched.dvr_window_s).toBe(120);
  expect(patched.recording_settings.retention_hours).toBe(2);
  expect((await s.api('DELETE', `/v1/channels/${list.items[0].id}`)).status).toBe(204);
  expect((await fetch(`${s.url}/live/default/nope/master.m3u8`)).status).toBe(404);
});
