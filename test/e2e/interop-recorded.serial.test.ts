/**
 * Interop matrix, recorded part: one short SRT push recorded, then a start-over (growing, while on air), a
 * catch-up window and a frame-precision clip over the recording, each played by GStreamer playbin and playbin3,
 * ffmpeg, hls.js and Shaka; playlists parsed strictly; the clip starts and ends on the requested frames.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { killPushers, liveEnv, type Pusher } from './live-helpers';
import { at, recordChannel, type Seg } from './catchup-helpers';
import { browserPlay, checkHlsTree, closest, ffmpegPlay, ffmpegPlayFor, greyFrames, gstPlay, gstPlayFor, headProblems, Matrix, startBrowsers, type Browsers, type Cell } from './interop-helpers';

let s: TestServer, b: Browsers;
let ch: { id: string; slug: string }, pusher: Pusher, segs: () => Seg[];
let startover = '';
const matrix = new Matrix();
type Item = { id: string; title: string; playback: { hls: string; startover?: string } };

beforeAll(async () => {
  s = await startTestServer({ env: await liveEnv() });
  [b, { ch, pusher, segs }] = await Promise.all([startBrowsers(), recordChannel(s, 'Interop', 12, 2)]);
  const t0 = Date.now();
  const onAir = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'On air', start_at: at(t0 - 30_000), end_at: at(t0 + 600_000) })).json() as { id: string };
  const list = await (await s.api('GET', `/v1/channels/${ch.id}/catchup`)).json() as { items: Item[] };
  startover = list.items.find((i) => i.id === onAir.id)!.playback.startover!;
}, 90_000);
afterAll(async () => {
  process.stdout.write(`\n${matrix.render('recorded (SRT push)')}\n`);
  await killPushers();
  await b?.close();
  await s?.stop();
});

/** Runs every client on one feature at once; asserts each cell. */
async function row(feature: string, runs: Record<string, () => Promise<Cell>>): Promise<void> {
  const names = Object.keys(runs);
  const cells = await Promise.all(names.map((n) => runs[n]().catch((e) => ({ ok: false, note: String(e).slice(0, 300) }))));
  names.forEach((n, i) => matrix.set(n, feature, cells[i]));
  expect(names.flatMap((n, i) => (cells[i].ok ? [] : [`${n}: ${cells[i].note}`]))).toEqual([]);
}

test('start-over while on air: strict EVENT playlists; position advances ~1 s per second in every client', async () => {
  const tree = await checkHlsTree(startover);
  expect(tree.ended).toBe(false);
  await row('start-over', {
    playbin: () => gstPlayFor(startover, 'playbin', 3),
    playbin3: () => gstPlayFor(startover, 'playbin3', 3),
    ffmpeg: () => ffmpegPlayFor(startover, 3),
    'hls.js': () => browserPlay(b, 'hls.js', startover, { forS: 3 }),
    shaka: () => browserPlay(b, 'shaka', startover, { forS: 3 }),
  });
}, 60_000);

test('catch-up window and frame-precision clip play straight through in every client; the clip starts and ends on the requested frames', async () => {
  await pusher.exited;
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(700); return n >= 4 && segs().length === n; }, 20_000);
  const rec = segs();
  const first = rec[0].start_ms, last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;
  const prog = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Window', start_at: at(first), end_at: at(last) })).json() as { id: string };
  const from = first + 1300, to = last - 1100;
  const clip = await (await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(from), end_at: at(to), precision: 'frame' })).json() as { id: string };
  const window = (await (await s.api('GET', `/v1/channels/${ch.id}/catchup`)).json() as { items: Item[] }).items.find((i) => i.id === prog.id)!.playback.hls;

  const win = await checkHlsTree(window);
  expect(win.ended).toBe(true);
  await row('catch-up', {
    playbin: () => gstPlay(window, 'playbin', win.durationS),
    playbin3: () => gstPlay(window, 'playbin3', win.durationS),
    ffmpeg: () => ffmpegPlay(window, win.durationS),
    'hls.js': () => browserPlay(b, 'hls.js', window, { expectS: win.durationS }),
    shaka: () => browserPlay(b, 'shaka', window, { expectS: win.durationS }),
  });

  type Clip = { status: string; playback: { hls: string } };
  const done = await waitFor<Clip | null>('frame clip final', async () => {
    const c = await (await s.api('GET', `/v1/clips/${clip.id}`)).json() as Clip;
    return c.status === 'final' ? c : null;
  }, 60_000, 200) as Clip;
  const src = done.playback.hls;
  const tree = await checkHlsTree(src);
  // EXTINF are measured piece durations: the whole frames inside [from, to) at 25 fps, within one frame.
  expect(Math.abs(tree.durationS - (to - from) / 1000)).toBeLessThanOrEqual(0.041);
  const f = await ffmpegPlay(src, tree.durationS);
  await row('frame clip', {
    playbin: () => gstPlay(src, 'playbin', tree.durationS),
    playbin3: () => gstPlay(src, 'playbin3', tree.durationS),
    ffmpeg: async () => f,
    'hls.js': () => browserPlay(b, 'hls.js', src, { expectS: tree.durationS }),
    shaka: () => browserPlay(b, 'shaka', src, { expectS: tree.durationS }),
  });
  // One continuous timeline: decoded span equals the playlist duration (no hole at the edges).
  expect(Math.abs(f.spanS - tree.durationS)).toBeLessThanOrEqual(0.041);
  // First and last frames are the recording's frames at `from` and just before `to` (25 fps from `first`).
  const [clipFrames, recFrames] = await Promise.all([greyFrames(src), greyFrames(window)]);
  const k0 = Math.ceil((from - first) / 40), k1 = Math.ceil((to - first) / 40) - 1;
  expect([closest(clipFrames[0], recFrames), closest(clipFrames[clipFrames.length - 1], recFrames), clipFrames.length]).toEqual([k0, k1, k1 - k0 + 1]);

  // HEAD answers the GET headers on the recorded delivery files (clip and catch-up: playlists, init, segments).
  const files = async (master: string) => {
    const media = new URL((await (await fetch(master)).text()).split('\n').find((l) => l && !l.startsWith('#'))!, master).href;
    const text = await (await fetch(media)).text();
    return [master, media, new URL(/URI="([^"]+)"/.exec(text)![1], media).href, new URL(text.split('\n').find((l) => l && !l.startsWith('#'))!, media).href];
  };
  const report: Record<string, string[]> = {};
  for (const u of [...await files(src), ...await files(window)]) { const p = await headProblems(u); if (p.length) report[new URL(u).pathname] = p; }
  if (Object.keys(report).length) process.stdout.write(`HEAD/304 differences:\n${JSON.stringify(report, null, 1)}\n`);
  // Files (serveFile) must be exact; playlists must at least answer HEAD with the GET length and type (their
  // ETag/304 come once the delivery routes answer them through serveText).
  const hard = Object.entries(report).flatMap(([u, p]) => (u.endsWith('.m3u8') ? p.filter((x) => !/ETag|If-None-Match/.test(x)) : p).map((x) => `${u}: ${x}`));
  expect(hard).toEqual([]);
}, 150_000);
