/**
 * Interop matrix helpers: independent clients (GStreamer playbin/playbin3, ffmpeg, hls.js, Shaka and dash.js in
 * headless Chromium) play a URL; strict playlist/MPD parsing; a client × feature table for the test output.
 */
import * as HLS from 'hls-parser';
import { Parser as M3u8Parser } from 'm3u8-parser';
import { parse as parseMpd } from 'mpd-parser';
import { SaxesParser } from 'saxes';
import { chromium, type Browser } from 'playwright-core';

/** One cell of the matrix: passed, with a short note (play time, decoded duration, reason of failure). */
export interface Cell { ok: boolean; note: string }

/** The client × feature table of one test file, printed once at the end. */
export class Matrix {
  private cells = new Map<string, Map<string, Cell>>();
  /** Records a result. */
  set(client: string, feature: string, cell: Cell): Cell {
    if (!this.cells.has(client)) this.cells.set(client, new Map());
    this.cells.get(client)!.set(feature, cell);
    return cell;
  }
  /** The table as text (`ok`/`FAIL` with the note; `-` where a client does not apply). */
  render(title: string): string {
    const features = [...new Set([...this.cells.values()].flatMap((m) => [...m.keys()]))];
    const rows = [...this.cells.entries()].map(([c, m]) => [c, ...features.map((f) => { const x = m.get(f); return x ? `${x.ok ? 'ok' : 'FAIL'} ${x.note}` : '-'; })]);
    const all = [['client', ...features], ...rows];
    const w = all[0].map((_, i) => Math.max(...all.map((r) => r[i].length)));
    return [`interop matrix: ${title}`, ...all.map((r) => r.map((x, i) => x.padEnd(w[i])).join(' | '))].join('\n');
  }
}

// ---------------------------------------------------------------------------------------------- strict parsing

/** Parses one playlist with hls-parser (strict mode) and m3u8-parser (no warnings allowed); throws with the reason. */
export function strictPlaylist(text: string, where: string): HLS.types.Playlist {
  HLS.setOptions({ strictMode: true });
  let pl: HLS.types.Playlist;
  try { pl = HLS.parse(text); } catch (e) { throw new Error(`hls-parser (strict) refused ${where}: ${(e as Error).message}`); }
  const p = new M3u8Parser();
  const warnings: string[] = [];
  p.on('warn', (w) => warnings.push(w.message));
  p.push(text);
  p.end();
  if (warnings.length) throw new Error(`m3u8-parser warned on ${where}: ${warnings.join('; ')}`);
  return pl;
}

/** Fetches a master playlist and every media playlist it names, each parsed strictly; returns the first variant's duration. */
export async function checkHlsTree(masterUrl: string): Promise<{ durationS: number; playlists: number; ended: boolean }> {
  const get = async (u: string) => { const r = await fetch(u); if (r.status !== 200) throw new Error(`${u}: ${r.status}`); return r.text(); };
  const top = strictPlaylist(await get(masterUrl), masterUrl);
  if (!top.isMasterPlaylist) throw new Error(`${masterUrl} is not a master playlist`);
  const master = top as HLS.types.MasterPlaylist;
  const uris = new Set([...master.variants.map((v: HLS.types.Variant) => v.uri), ...master.variants.flatMap((v: HLS.types.Variant) => [...v.audio, ...v.video].map((r) => r.uri).filter((u): u is string => !!u))]);
  let durationS = -1, ended = false;
  for (const uri of uris) {
    const url = new URL(uri, masterUrl).href;
    const media = strictPlaylist(await get(url), url) as HLS.types.MediaPlaylist;
    if (durationS < 0 && uri === master.variants[0].uri) { durationS = media.segments.reduce((a, s) => a + s.duration, 0); ended = media.endlist; }
  }
  return { durationS, playlists: uris.size + 1, ended };
}

/** Fetches an MPD, checks it is well-formed XML (saxes) and parses with mpd-parser; returns its duration. */
export async function checkMpd(url: string): Promise<{ durationS: number; representations: number }> {
  const text = await (await fetch(url)).text();
  const sax = new SaxesParser({ xmlns: true });
  sax.on('error', (e) => { throw new Error(`MPD is not well-formed XML: ${e.message}`); });
  sax.write(text).close();
  const m = parseMpd(text, { manifestUri: url });
  const reps = (m.playlists?.length ?? 0) + Object.values(m.mediaGroups?.AUDIO ?? {}).flatMap((g) => Object.values(g as Record<string, { playlists?: unknown[] }>)).reduce((a, x) => a + (x.playlists?.length ?? 0), 0);
  if (!reps) throw new Error('mpd-parser found no representation');
  return { durationS: m.duration ?? -1, representations: reps };
}

// ------------------------------------------------------------------------------------------------ GStreamer

/** Reads a child's output line by line, calling `each(line, arrivalMs)`; resolves with the whole text. */
async function lines(stream: ReadableStream<Uint8Array>, each: (line: string, at: number) => void): Promise<string> {
  const dec = new TextDecoder();
  let all = '', rest = '';
  const reader = stream.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    const at = Date.now();
    const text = rest + dec.decode(chunk, { stream: true });
    const parts = text.split('\n');
    rest = parts.pop()!;
    for (const l of parts) { each(l, at); all = (all + l + '\n').slice(-20_000); }
  }
  return all + rest;
}

const PTS = /pts: (\d+):(\d+):(\d+\.\d+)/;

/**
 * Plays `uri` with playbin or playbin3 into clock-synchronised fake sinks (real-time pace) until EOS. The video sink
 * reports every buffer (-v, silent=false): play time runs from the first video buffer to EOS (start-up buffering
 * excluded), and the presentation span of those buffers must match it (position advances 1 s per second).
 */
export async function gstPlay(uri: string, element: 'playbin' | 'playbin3', expectS: number): Promise<Cell & { playS: number | null }> {
  const argv = ['gst-launch-1.0', '-v', element, `uri=${uri}`, 'video-sink=fakesink name=vsink sync=true silent=false', 'audio-sink=fakesink sync=true'];
  const p = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, GST_DEBUG: '0' } });
  // gst-launch spins instead of exiting on a crash: the deadline kills it.
  const timer = setTimeout(() => p.kill('SIGKILL'), (expectS + 25) * 1000);
  let firstAt: number | null = null, eosAt: number | null = null, firstPts: number | null = null, lastPts = 0;
  const [out, err, code] = await Promise.all([
    lines(p.stdout, (l, at) => {
      if (l.includes('vsink') && l.includes('chain')) {
        const m = PTS.exec(l);
        const pts = m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : null;
        if (pts !== null) { firstPts ??= pts; lastPts = pts; }
        firstAt ??= at;
      }
      if (l.startsWith('Got EOS')) eosAt = at;
      if (l.includes('Caught SIG')) p.kill('SIGKILL');
    }),
    // gst-launch spins on a crash ("Caught SIGSEGV ... Spinning"): end it at once.
    lines(p.stderr, (l) => { if (l.includes('Caught SIG')) p.kill('SIGKILL'); }), p.exited]);
  clearTimeout(timer);
  const text = out + err;
  // The element path of a GStreamer error is long; its message (after the last ': ') and debug line say what broke.
  const errLine = /^ERROR: .*(?:\n.*){0,2}$/m.exec(text)?.[0].replace(/\/Gst\S+:/g, '').replace(/\s+/g, ' ');
  const error = errLine ?? (/Caught SIG\w+/.test(text) ? `crashed (${/Caught SIG\w+/.exec(text)![0]})` : null);
  if (error || code !== 0 || firstAt === null || eosAt === null) return { ok: false, note: (error ?? `exit ${code}${eosAt ? '' : ', no EOS'}`).slice(0, 300), playS: null };
  const playS = (eosAt - firstAt) / 1000, spanS = lastPts - (firstPts ?? 0);
  const ok = Math.abs(playS - expectS) <= 1 && Math.abs(spanS - playS) <= 1;
  return { ok, note: `${playS.toFixed(1)} s`, playS };
}

/**
 * Plays a growing stream (EVENT playlist) with playbin or playbin3 for `seconds`, then stops it: ok when no error came
 * and the video buffers' presentation time advanced ~1 s per wall-clock second over at least 2 s.
 */
export async function gstPlayFor(uri: string, element: 'playbin' | 'playbin3', seconds: number): Promise<Cell> {
  const p = Bun.spawn(['gst-launch-1.0', '-v', element, `uri=${uri}`, 'video-sink=fakesink name=vsink sync=true silent=false', 'audio-sink=fakesink sync=true'], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, GST_DEBUG: '0' } });
  const kill = setTimeout(() => p.kill('SIGKILL'), (seconds + 20) * 1000);
  let first: { pts: number; at: number } | null = null, last: { pts: number; at: number } | null = null;
  const [out, err] = await Promise.all([
    lines(p.stdout, (l, at) => {
      const m = l.includes('vsink') && l.includes('chain') ? PTS.exec(l) : null;
      if (!m) return;
      const pts = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
      first ??= { pts, at };
      last = { pts, at };
      if (at - first.at >= seconds * 1000) p.kill('SIGKILL');
    }),
    new Response(p.stderr).text(), p.exited]);
  clearTimeout(kill);
  const text = out + err;
  const error = /^ERROR: .*$/m.exec(text)?.[0] ?? /Caught SIG\w+/.exec(text)?.[0];
  if (error) return { ok: false, note: error.slice(0, 120) };
  const f = first as { pts: number; at: number } | null, l = last as { pts: number; at: number } | null;
  if (!f || !l || l.at - f.at < 2000) return { ok: false, note: 'no video for 2 s' };
  const rate = (l.pts - f.pts) / ((l.at - f.at) / 1000);
  return { ok: rate > 0.8 && rate < 1.25, note: `rate ${rate.toFixed(2)}` };
}

// ---------------------------------------------------------------------------------------------------- ffmpeg

/** Decoded video frames of a URL (ffmpeg to framecrc): count, timestamps (s) and the longest gap between frames. */
export async function ffmpegFrames(url: string): Promise<{ code: number; err: string; pts: number[]; maxGapS: number; spanS: number }> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-v', 'error', '-i', url, '-map', '0:v:0', '-f', 'framecrc', '-'], { stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const tb = /#tb 0: (\d+)\/(\d+)/.exec(out);
  const unit = tb ? Number(tb[1]) / Number(tb[2]) : 1;
  const rows = out.split('\n').filter((l) => /^0,/.test(l)).map((l) => l.split(',').map((x) => x.trim()));
  const pts = rows.map((r) => Number(r[2]) * unit);
  const dur = rows.length ? Number(rows[rows.length - 1][3]) * unit : 0;
  let maxGapS = 0;
  for (let i = 1; i < pts.length; i++) maxGapS = Math.max(maxGapS, pts[i] - pts[i - 1]);
  return { code, err: err.trim(), pts, maxGapS, spanS: pts.length ? pts[pts.length - 1] - pts[0] + dur : 0 };
}

/** ffmpeg decodes every frame without an error; the decoded span matches `expectS` (±1 s) with no hole over 0.5 s. */
export async function ffmpegPlay(url: string, expectS: number): Promise<Cell & { frames: number; spanS: number }> {
  const f = await ffmpegFrames(url);
  if (f.code !== 0 || f.err) return { ok: false, note: (f.err || `exit ${f.code}`).split('\n')[0].slice(0, 120), frames: f.pts.length, spanS: f.spanS };
  const ok = f.pts.length > 0 && Math.abs(f.spanS - expectS) <= 1 && f.maxGapS < 0.5;
  return { ok, note: `${f.spanS.toFixed(2)} s, ${f.pts.length} fr${f.maxGapS >= 0.5 ? `, hole ${f.maxGapS.toFixed(2)} s` : ''}`, frames: f.pts.length, spanS: f.spanS };
}

/** ffmpeg reads a growing (EVENT) playlist for `seconds` of output: ok when it decodes that much without an error. */
export async function ffmpegPlayFor(url: string, seconds: number): Promise<Cell> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-v', 'error', '-i', url, '-map', '0:v:0', '-t', String(seconds), '-f', 'framecrc', '-'], { stdout: 'pipe', stderr: 'pipe' });
  const kill = setTimeout(() => p.kill('SIGKILL'), (seconds + 30) * 1000);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(kill);
  const frames = out.split('\n').filter((l) => /^0,/.test(l)).length;
  if (code !== 0 || err.trim()) return { ok: false, note: (err.trim() || `exit ${code}`).split('\n')[0].slice(0, 120) };
  return { ok: frames >= seconds * 25 * 0.9, note: `${frames} fr` };
}

// --------------------------------------------------------------------------------------------------- browser

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage',
  '--autoplay-policy=no-user-gesture-required', '--disable-component-update', '--no-first-run'];
const ENGINES = {
  'hls.js': 'node_modules/hls.js/dist/hls.min.js',
  shaka: 'node_modules/shaka-player/dist/shaka-player.compiled.js',
  'dash.js': 'node_modules/dashjs/dist/modern/umd/dash.all.min.js',
} as const;
/** A browser player engine. */
export type Engine = keyof typeof ENGINES;

// The page a customer would build with each engine; progress and errors are recorded on window.st for the test.
const PAGE = (engine: Engine, src: string) => `<!doctype html><video id="v" muted playsinline></video><script src="/engine.js?engine=${encodeURIComponent(engine)}"></script><script>
const v = document.getElementById('v'); const st = window.st = { t: 0, err: null, playingAt: null, endedAt: null, dur: null, stalledMs: 0, waitingAt: null };
const fail = (m) => { if (!st.err) st.err = String(m).slice(0, 160); };
// Time spent re-buffering after the start (a slow machine) is not play time; a hole in the timeline still shows.
v.addEventListener('waiting', () => { if (st.playingAt !== null && st.waitingAt === null) st.waitingAt = performance.now(); });
v.addEventListener('playing', () => {
  if (st.playingAt === null) st.playingAt = performance.now();
  if (st.waitingAt !== null) { st.stalledMs += performance.now() - st.waitingAt; st.waitingAt = null; }
});
v.addEventListener('ended', () => { st.endedAt = performance.now(); });
v.addEventListener('error', () => fail('video: ' + (v.error && v.error.message)));
v.addEventListener('timeupdate', () => { st.t = v.currentTime; st.dur = v.duration; });
const src = ${JSON.stringify(src)}, engine = ${JSON.stringify(engine)};
(async () => {
  if (engine === 'hls.js') {
    // A hole in the media timeline is an error here even though hls.js jumps it (bufferSeekOverHole).
    const h = new Hls(); h.on(Hls.Events.ERROR, (_e, d) => { if (d.fatal || d.details === 'bufferSeekOverHole') fail(d.type + ':' + d.details); });
    h.loadSource(src); h.attachMedia(v);
  } else if (engine === 'shaka') {
    shaka.polyfill.installAll(); const p = new shaka.Player(); await p.attach(v);
    p.addEventListener('error', (e) => fail('shaka ' + e.detail.code)); await p.load(src);
  } else {
    const p = dashjs.MediaPlayer().create(); p.on('error', (e) => fail('dash.js ' + JSON.stringify(e.error || e).slice(0, 120))); p.initialize(v, src, false);
  }
  await v.play();
})().catch((e) => fail(e && (e.code ? 'code ' + e.code : e.message || e)));
</script>`;

/** Headless Chromium with a page server for the player engines. */
export interface Browsers { browser: Browser; page: (engine: Engine, src: string) => string; close(): Promise<void> }

/** Starts Chromium (Debian's) and a local page server. */
export async function startBrowsers(): Promise<Browsers> {
  const srv = Bun.serve({
    hostname: '127.0.0.1', port: 0,
    fetch(req) {
      const u = new URL(req.url);
      const engine = u.searchParams.get('engine') as Engine;
      if (u.pathname === '/engine.js') return new Response(Bun.file(ENGINES[engine]), { headers: { 'content-type': 'text/javascript' } });
      return new Response(PAGE(engine, u.searchParams.get('src')!), { headers: { 'content-type': 'text/html' } });
    },
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS, timeout: 30_000 });
  return {
    browser,
    page: (engine, src) => `http://127.0.0.1:${srv.port}/?engine=${encodeURIComponent(engine)}&src=${encodeURIComponent(src)}`,
    async close() { await browser.close(); srv.stop(true); },
  };
}

type St = { t: number; err: string | null; playingAt: number | null; endedAt: number | null; dur: number | null; stalledMs: number };

/**
 * Plays `src` in a new tab with `engine`. VOD (`expectS`): waits for `ended`; ok when the position advanced ~1 s per
 * second and the play time from `playing` to `ended` is the duration ±1 s. Growing (`forS`): plays that long and
 * checks the advance rate only.
 */
export async function browserPlay(b: Browsers, engine: Engine, src: string, o: { expectS?: number; forS?: number }): Promise<Cell> {
  const tab = await b.browser.newPage();
  try {
    await tab.goto(b.page(engine, src), { timeout: 20_000 });
    const st = () => tab.evaluate(() => (window as unknown as { st: St }).st);
    const end = Date.now() + ((o.expectS ?? o.forS ?? 10) + 25) * 1000;
    // Position samples (test clock): the advance rate is measured over the whole run, from the first sample past 0.3 s.
    let first: { t: number; at: number } | null = null, last: { t: number; at: number } | null = null, s: St;
    for (;;) {
      s = await st();
      if (s.err) return { ok: false, note: s.err };
      const now = Date.now();
      if (s.playingAt !== null && s.t > 0.3 && s.endedAt === null) { first ??= { t: s.t, at: now }; last = { t: s.t, at: now }; }
      if (o.expectS === undefined && first && now - first.at >= o.forS! * 1000) break;
      if (o.expectS !== undefined && s.endedAt !== null) break;
      if (now > end) return { ok: false, note: `stalled at ${s.t.toFixed(1)} s` };
      await Bun.sleep(200);
    }
    const span = first && last ? (last.at - first.at) / 1000 : 0;
    const rate = span >= 1.5 ? (last!.t - first!.t) / span : NaN;
    const rateOk = rate > 0.8 && rate < 1.25;
    if (o.expectS === undefined) return { ok: rateOk, note: `rate ${rate.toFixed(2)}` };
    // Play time from the first frame to `ended`, re-buffering excluded: the duration means the position advanced
    // 1 s per second over the whole run (a hole jumped or waited out would shorten or lengthen it).
    const playS = (s.endedAt! - s.playingAt! - s.stalledMs) / 1000;
    const stall = s.stalledMs > 50 ? ` (+${(s.stalledMs / 1000).toFixed(1)} s stalled)` : '';
    const ok = Math.abs(playS - o.expectS) <= 1;
    return { ok, note: `${playS.toFixed(1)} s${stall}` };
  } finally { await tab.close(); }
}

// ------------------------------------------------------------------------------------------- frame matching

/** Every decoded video frame of a URL as small grey pictures (decode order = presentation order, none dropped). */
export async function greyFrames(url: string, w = 64, h = 36): Promise<Uint8Array[]> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-v', 'error', '-i', url, '-map', '0:v:0', '-fps_mode', 'passthrough',
    '-vf', `scale=${w}:${h}:flags=area,format=gray`, '-f', 'rawvideo', '-'], { stdout: 'pipe', stderr: 'pipe' });
  const [buf, code] = await Promise.all([new Response(p.stdout).arrayBuffer(), p.exited]);
  if (code !== 0) throw new Error(`ffmpeg could not decode ${url}`);
  const all = new Uint8Array(buf), n = Math.floor(all.length / (w * h));
  return Array.from({ length: n }, (_, i) => all.subarray(i * w * h, (i + 1) * w * h));
}

/** Index of the frame in `pool` closest to `f` (mean squared difference). */
export function closest(f: Uint8Array, pool: Uint8Array[]): number {
  let best = -1, bestD = Infinity;
  pool.forEach((g, i) => {
    let d = 0;
    for (let k = 0; k < f.length; k++) { const x = f[k] - g[k]; d += x * x; }
    if (d < bestD) { bestD = d; best = i; }
  });
  return best;
}

// -------------------------------------------------------------------------------------------------- HTTP

const SAME = ['content-length', 'content-type', 'etag', 'last-modified', 'accept-ranges', 'cache-control', 'content-disposition', 'access-control-allow-origin'];

/**
 * Compares HEAD with GET on one URL and tries If-None-Match / If-Modified-Since: the list of differences
 * (empty when HEAD answers exactly the GET headers with the body's length and both validators give 304).
 */
export async function headProblems(url: string): Promise<string[]> {
  const g = await fetch(url);
  const len = (await g.arrayBuffer()).byteLength;
  const h = await fetch(url, { method: 'HEAD' });
  const out: string[] = [];
  if (g.status !== 200 || h.status !== 200) out.push(`status GET ${g.status} HEAD ${h.status}`);
  for (const k of SAME) if (g.headers.get(k) !== h.headers.get(k)) out.push(`${k}: GET ${g.headers.get(k)} HEAD ${h.headers.get(k)}`);
  if (Number(g.headers.get('content-length') ?? -1) !== len) out.push(`GET content-length ${g.headers.get('content-length')} for ${len} bytes`);
  const etag = g.headers.get('etag'), lm = g.headers.get('last-modified');
  if (!etag) out.push('no ETag');
  else { const r = await fetch(url, { headers: { 'if-none-match': etag } }); await r.arrayBuffer(); if (r.status !== 304) out.push(`If-None-Match: ${r.status}`); }
  if (lm) { const r = await fetch(url, { headers: { 'if-modified-since': lm } }); await r.arrayBuffer(); if (r.status !== 304) out.push(`If-Modified-Since: ${r.status}`); }
  return out;
}
