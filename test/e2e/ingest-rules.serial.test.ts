/**
 * The ingest rule with real ffmpeg pushes: a channel listens to one protocol; a push it is not listening for, or with a
 * wrong stream key, is refused at connect with a reason the encoder prints (and the server logs), and the channel shows
 * its last refused push; a protocol change on a running channel applies at once (the ingest restarts).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, push, type Pusher } from './live-helpers';

type Json = Record<string, any>;
let s: TestServer;
const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
beforeAll(async () => {
  s = await startTestServer({ env: await liveEnv() });
  // The server log as an operator reads it: every warning, kept besides being written.
  const warn = s.ctx.log.warn;
  s.ctx.log.warn = (msg, fields) => { warnings.push({ msg, fields }); warn(msg, fields); };
}, 60_000);
afterAll(async () => { await killPushers(); await s?.stop(); });

const json = async (r: Response) => await r.json() as Json;
const get = async (id: string) => json(await s.api('GET', `/v1/channels/${id}`));

/** Waits for a push to end; its exit code and how long it ran (ms). */
async function ended(p: Pusher, limitMs: number): Promise<{ code: number | null; ms: number }> {
  const t0 = Date.now();
  const code = await Promise.race([p.exited, Bun.sleep(limitMs).then(() => 'running' as const)]);
  if (code === 'running') { p.kill(); throw new Error(`the push was not refused within ${limitMs} ms (still running): ${p.stderr()}`); }
  return { code, ms: Date.now() - t0 };
}

test('RTMP push to an SRT channel and a wrong key are refused at connect with a reason; after switching to RTMP the right key goes on air', async () => {
  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Rules', slug: 'rules' }));
  expect(ch.ingest.protocol).toBe('srt');
  expect(ch.ingest.last_refused).toBeNull();
  const ing = await json(await s.api('GET', `/v1/channels/${ch.id}/ingest`));
  expect((await s.api('POST', `/v1/channels/${ch.id}/start`)).status).toBe(200);
  const rtmpUrl = `${ing.rtmp.primary.url}/${ing.rtmp.primary.stream_key}`;

  // Wrong protocol: the SRT channel refuses the RTMP publish; ffmpeg prints the reason and exits non-zero at once.
  const wrongProto = push(rtmpUrl, { seconds: 30 });
  const a = await ended(wrongProto, 8000);
  expect(a.code).not.toBe(0);
  expect(wrongProto.stderr()).toContain('takes SRT, not RTMP');
  const refused = (await get(ch.id)).ingest.last_refused;
  expect(refused).toMatchObject({ protocol: 'rtmp', code: 'wrong_protocol' });
  expect(refused.reason).toContain('takes SRT, not RTMP');
  expect(Date.now() - Date.parse(refused.at)).toBeLessThan(30_000);
  expect(warnings.some((w) => w.msg === 'rtmp publish refused' && String(w.fields?.reason).includes('takes SRT'))).toBe(true);
  expect((await get(ch.id)).status).toBe('waiting'); // nothing went on air

  // A wrong SRT passphrase is refused by the SRT handshake itself: the caller fails at connect.
  const badSecret = push(ing.srt.primary.url.replace(/passphrase=[^&]+/, 'passphrase=not-the-passphrase-123'), { seconds: 30 });
  expect((await ended(badSecret, 10_000)).code).not.toBe(0);
  expect((await get(ch.id)).status).toBe('waiting');

  // Switch to RTMP on the running channel: the ingest restarts and the right key goes on air.
  const patched = await json(await s.api('PATCH', `/v1/channels/${ch.id}`, { ingest: { protocol: 'rtmp' } }));
  expect(patched.ingest.protocol).toBe('rtmp');
  expect(patched.started).toBe(true);
  expect(patched.ingest.last_refused).toBeNull(); // the channel takes RTMP now: that refusal no longer applies

  // Wrong key: refused at connect with its reason (not tied to any channel, so only logged).
  const wrongKey = push(`${ing.rtmp.primary.url}/live_not_the_key`, { seconds: 30 });
  const b = await ended(wrongKey, 8000);
  expect(b.code).not.toBe(0);
  expect(wrongKey.stderr()).toContain('unknown stream key');
  expect(warnings.some((w) => w.msg === 'rtmp publish refused' && String(w.fields?.reason).includes('unknown stream key'))).toBe(true);

  const right = push(rtmpUrl, { seconds: 60 });
  const live = (await waitFor('on air over RTMP', async () => { const c = await get(ch.id); return c.status === 'live' ? c : null; }, 30_000, 200))!;
  expect(live.feed).toBe('primary');
  expect(live.input.video_codec).toBe('h264');
  right.kill();

  // And now the SRT address is not listened to: an SRT push fails at connect instead of being swallowed.
  const srt = push(ing.srt.primary.url, { seconds: 30 });
  expect((await ended(srt, 15_000)).code).not.toBe(0);
}, 120_000);

test('a stopped RTMP channel refuses a push with its reason; an unknown protocol answers 422', async () => {
  const ch = await json(await s.api('POST', '/v1/channels', { name: 'Rules stopped', slug: 'rules-stopped', ingest: { protocol: 'rtmp' } }));
  const ing = await json(await s.api('GET', `/v1/channels/${ch.id}/ingest`));
  const p = push(`${ing.rtmp.backup.url}/${ing.rtmp.backup.stream_key}`, { seconds: 30 });
  expect((await ended(p, 8000)).code).not.toBe(0);
  expect(p.stderr()).toContain('is stopped');
  expect((await get(ch.id)).ingest.last_refused).toMatchObject({ code: 'stopped', protocol: 'rtmp' });
  // Bad input to the protocol answers 422, never a 500.
  expect((await s.api('PATCH', `/v1/channels/${ch.id}`, { ingest: { protocol: 'udp' } })).status).toBe(422);
}, 60_000);
