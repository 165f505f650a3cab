/** Subtitle interop helpers: the cues hls.js or Shaka (in Chromium) and GStreamer expose for a stream. */
import { expect } from 'bun:test';
import { launch } from './player-helpers';
import { ff } from './transcode-helpers';

/** A cue as a client exposes it (seconds). */
export type Shown = { start: number; end: number; text: string };
/** WebVTT cue text as shown: `cue.text` of a native VTTCue is the raw payload (hls.js), whose escapes the renderer decodes. */
const shownText = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
/** Cues as a client exposes them: times rounded to 0.1 s, U+200F (RTL line marks) and CR dropped, in time order, repeats once. */
export const norm = (cues: Shown[]) => [...new Map(cues.map((c) => {
  const x = { start: Math.round(c.start * 10) / 10, end: Math.round(c.end * 10) / 10, text: shownText(c.text).replace(/[\u200f\r]/g, '').trim() };
  return [JSON.stringify(x), x] as const;
})).values()].sort((a, b) => a.start - b.start);

const ENGINE_FILES = { 'hls.js': 'node_modules/hls.js/dist/hls.min.js', shaka: 'node_modules/shaka-player/dist/shaka-player.compiled.js', 'dash.js': 'node_modules/dashjs/dist/modern/umd/dash.all.min.js' } as const;
/** A page that plays `src` muted to its end with one engine, the `lang` text track shown; cues collected from video.textTracks
 * (dash.js: its text track of `lang`, which it may keep `hidden` and draw itself). */
const PAGE = (engine: keyof typeof ENGINE_FILES, src: string, lang: string) => `<!doctype html><video id="v" muted playsinline></video><script src="/engine.js?engine=${engine}"></script><script>
const v = document.getElementById('v'); const st = window.st = { err: null, ended: false };
const fail = (m) => { if (!st.err) st.err = String(m).slice(0, 200); };
v.addEventListener('ended', () => { st.ended = true; });
// dash.js 5 in a loaded headless Chromium sometimes pauses itself within half a second of the end with the whole
// duration buffered and never fires 'ended' (seen at 5.5 of 6.01 s): paused there counts as the end; every cue is loaded.
setInterval(() => { if (v.paused && v.currentTime > 0 && v.currentTime >= v.duration - 0.6 && v.buffered.length && v.buffered.end(v.buffered.length - 1) >= v.duration - 0.1) st.ended = true; }, 250);
window.cues = () => Array.from(v.textTracks).filter((t) => t.mode === 'showing' || (${JSON.stringify(engine)} === 'dash.js' && t.language === ${JSON.stringify(lang)} && t.mode !== 'disabled')).flatMap((t) => Array.from(t.cues || []).map((c) => ({ start: c.startTime, end: c.endTime, text: c.text })));
(async () => {
  const src = ${JSON.stringify(src)}, lang = ${JSON.stringify(lang)};
  if (${JSON.stringify(engine)} === 'hls.js') {
    const h = new Hls(); h.on(Hls.Events.ERROR, (_e, d) => { if (d.fatal) fail(d.type + ':' + d.details); });
    // As our player's captions menu does: the chosen language's TextTrack is set showing; hls.js follows the track mode.
    h.subtitleDisplay = true;
    v.textTracks.addEventListener('addtrack', (e) => { if (e.track.language === lang) e.track.mode = 'showing'; });
    h.attachMedia(v); h.loadSource(src);
  } else if (${JSON.stringify(engine)} === 'dash.js') {
    // dash.js 5: the text track of the language chosen before start, text shown; the MPD's sidecar .vtt is the track.
    const p = dashjs.MediaPlayer().create();
    p.initialize(v, null, false);
    p.updateSettings({ streaming: { text: { defaultEnabled: true } } });
    p.setInitialMediaSettingsFor('text', { lang });
    p.on('error', (e) => fail('dash.js ' + JSON.stringify(e.error || e).slice(0, 160)));
    p.on('streamInitialized', () => { if (!p.getTracksFor('text').some((t) => t.lang === lang)) fail('no ' + lang + ' text track: ' + JSON.stringify(p.getTracksFor('text').map((t) => t.lang))); });
    p.attachSource(src);
  } else {
    shaka.polyfill.installAll(); const p = new shaka.Player(); await p.attach(v);
    p.addEventListener('error', (e) => fail('shaka ' + e.detail.code)); await p.load(src);
    const tt = p.getTextTracks().find((t) => t.language === lang); if (!tt) fail('no ' + lang + ' text track: ' + JSON.stringify(p.getTextTracks().map((t) => t.language))); else { p.selectTextTrack(tt); /* Shaka 5: a selected text track is shown */ }
  }
  await v.play();
})().catch((e) => fail(e && (e.code ? 'code ' + e.code : e.message || e)));
</script>`;

/** Plays `src` to its end in headless Chromium with hls.js or Shaka, the `lang` text track shown: the cues it exposed (nothing ran from cue text). */
export async function browserCues(engine: keyof typeof ENGINE_FILES, src: string, lang: string): Promise<Shown[]> {
  const srv = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => {
    const u = new URL(req.url);
    if (u.pathname === '/engine.js') return new Response(Bun.file(ENGINE_FILES[u.searchParams.get('engine') as keyof typeof ENGINE_FILES]), { headers: { 'content-type': 'text/javascript' } });
    return new Response(PAGE(engine, src, lang), { headers: { 'content-type': 'text/html' } });
  } });
  const browser = await launch();
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${srv.port}/`);
    const end = Date.now() + 40_000;
    for (;;) {
      const st = await tab.evaluate(() => (window as unknown as { st: { err: string | null; ended: boolean } }).st);
      if (st.err) throw new Error(`${engine}: ${st.err}`);
      if (st.ended) break;
      if (Date.now() > end) {
        const at = await tab.evaluate(() => { const v = document.getElementById('v') as HTMLVideoElement; const r = (b: TimeRanges) => Array.from({ length: b.length }, (_, i) => [b.start(i), b.end(i)]); return { t: v.currentTime, d: v.duration, rs: v.readyState, ns: v.networkState, paused: v.paused, buffered: r(v.buffered) }; });
        throw new Error(`${engine}: did not reach the end: ${JSON.stringify(at)}`);
      }
      await Bun.sleep(200);
    }
    const pwned = await tab.evaluate(() => (window as unknown as { pwned?: number }).pwned);
    expect(pwned).toBeUndefined();
    return await tab.evaluate(() => (window as unknown as { cues: () => Shown[] }).cues());
  } finally { await browser.close(); srv.stop(true); }
}

/**
 * GStreamer: `pipeline` ends in a dumping fake sink named tsink (-v prints each text buffer's pts and duration, dump its
 * bytes): each text buffer's time and text.
 */
export async function gstCues(pipeline: string[]): Promise<Shown[]> {
  const p = Bun.spawn(['gst-launch-1.0', '-v', ...pipeline], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, GST_DEBUG: '0' } });
  const timer = setTimeout(() => p.kill('SIGKILL'), 40_000);
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  const ts = (x: string) => { const m = /(\d+):(\d+):(\d+\.\d+)/.exec(x)!; return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]); };
  // Buffer messages (bus) and dumps (streaming thread) interleave in any order, each in buffer order: paired by order.
  // Times relative to the first video buffer where the pipeline has a video sink named vsink (the demuxer's own base).
  const v0 = /vsink.*chain.*pts: ([\d:.]+)/.exec(out);
  const base = v0 ? ts(v0[1]) : 0;
  const times = [...out.matchAll(/tsink.*chain.*pts: ([\d:.]+), duration: ([\d:.]+)/g)].map((m) => ({ start: ts(m[1]) - base, end: ts(m[1]) + ts(m[2]) - base }));
  const dumps: number[][] = [];
  for (const l of out.split('\n')) {
    const m = /^([0-9a-f]{8}) \(0x[0-9a-f]+\): (.{0,48})/.exec(l);
    if (!m) continue;
    if (m[1] === '00000000') dumps.push([]);
    for (const h of m[2].trim().split(/\s+/)) if (/^[0-9a-f]{2}$/.test(h)) dumps[dumps.length - 1].push(parseInt(h, 16));
  }
  // The buffers are Pango markup: tags dropped, its escapes decoded (subparse passes WebVTT's own escapes on as text).
  const pango = (b: number[]) => Buffer.from(b).toString('utf8').replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const cues: Shown[] = times.map((t, i) => ({ ...t, text: pango(dumps[i] ?? []) })).filter((c) => c.text.trim());
  if (!cues.length) throw new Error(`GStreamer showed no cue: ${(out + err).slice(-1500)}`);
  return cues;
}


/** Debian's recorded test speech (pocketsphinx-testdata), with reference transcripts. */
export const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

/**
 * A speech video at `out`: librivox 0880 ("he was not an ill disposed young man"), 1 s of silence, 0930 ("he might
 * even have been made amiable himself") under a small test picture — about 7.3 s. `picture` is the lavfi source.
 */
export async function makeSpeechVideo(out: string, picture = 'testsrc=size=320x240:rate=10'): Promise<string> {
  await ff(['-f', 'lavfi', '-i', picture, '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0880.wav`,
    '-f', 'lavfi', '-t', '1', '-i', 'anullsrc=r=16000:cl=mono', '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0930.wav`,
    '-filter_complex', '[1:a][2:a][3:a]concat=n=3:v=0:a=1[a]', '-map', '0:v', '-map', '[a]', '-shortest',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ar', '44100', '-ac', '2', out]);
  return out;
}
