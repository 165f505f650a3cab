import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, parseMedia, push, type Pusher } from './live-helpers';

let s: TestServer;
let pusher: Pusher | null = null;
beforeAll(async () => { s = await startTestServer({ env: await liveEnv() }); });
afterAll(async () => { pusher?.kill(); await killPushers(); await s?.stop(); });

test('a channel token plays the live playlists and segments; unsigned is refused under require_token; revocation bites', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Locked Live' })).json() as { id: string; slug: string };
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  pusher = push(ing.srt.primary.url, { seconds: 40 });
  const unsigned = `${s.url}/live/default/${ch.slug}/master.m3u8`;
  await waitFor('live master', async () => (await fetch(unsigned)).status === 200, 30_000);

  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'live-locked', require_token: true })).json() as { id: string };
  expect((await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'channel', target_id: ch.slug })).status).toBe(200);
  expect((await fetch(unsigned)).status).toBe(403);
  expect((await fetch(`${s.url}/live/default/${ch.slug}/src/index.m3u8`)).status).toBe(403);

  const tok = await (await s.api('POST', '/v1/playback/tokens', { channel: ch.slug, ttl_s: 300 })).json() as { src: string; sid: string; protected: boolean };
  expect(tok.protected).toBe(true);
  expect(tok.src).toContain(`/live/default/${ch.slug}/master.m3u8`);
  const master = await (await fetch(tok.src)).text();
  const variant = new URL(master.trim().split('\n').pop()!, tok.src);
  const media = await waitFor('2 segments', async () => { const t = await (await fetch(variant)).text(); return parseMedia(t).length >= 2 ? t : ''; }, 25_000);
  const segs = parseMedia(media);
  const init = await fetch(new URL(segs[0].map, variant));
  expect(init.status).toBe(200);
  const seg = await fetch(new URL(segs[segs.length - 1].uri, variant));
  expect(seg.status).toBe(200);
  expect((await seg.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  // The channel token opens neither another channel nor catch-up of this one.
  expect((await fetch(tok.src.replace(`/${ch.slug}/`, '/other-channel/'))).status).toBe(403);
  // Unknown channel slug for a token: 404.
  expect((await s.api('POST', '/v1/playback/tokens', { channel: 'no-such-channel' })).status).toBe(404);

  expect((await s.api('POST', '/v1/security/revocations', { sid: tok.sid })).status).toBe(201);
  expect((await fetch(variant)).status).toBe(403);
}, 90_000);
