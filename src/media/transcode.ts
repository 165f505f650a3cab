import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOWNLOAD_FILE, encodeArgs, SEG, TILES_FILE, type Stills } from './args/encode';
import { downloadArgs, posterArgs, spriteArgs } from './args/images';
import type { H264Encoder } from './encoders';
import { MediaError } from './errors';
import { joinRepresentation } from './fmp4';
import { writeIframePlaylists } from './iframe-playlist';
import type { Plan, Rendition } from './ladder';
import type { FfmpegTools } from './locate';
import { finishMaster, finishMedia, segmentCount, spriteLayout, thumbsVtt } from './package';
import { sheetFromTiles } from './sprite-sheet';
import type { MediaInfo } from './probe-parse';
import { readable } from './probe';
import { runTool, type RunResult } from './process';
import { byFrames, foldProgress, progressOf, type ProgressState } from './progress';

/** Inputs of one asset transcode (media/ never sees config or the database). */
export interface TranscodeOptions {
  tools: FfmpegTools; source: string; workDir: string; info: MediaInfo; plan: Plan; encoder: H264Encoder;
  signal?: AbortSignal;
  /** Kill ffmpeg when it reports no progress for this long (ms). */
  stallMs?: number;
  /** CPU niceness of the encode and packaging runs (RunOptions.nice). */
  nice?: number;
  /** Percent (0-100 over the whole transcode) and ETA seconds. */
  onProgress?(pct: number, etaS: number | null): void;
  onStage?(stage: 'encoding' | 'packaging'): void;
  /** A GPU encoder failed; the run continues with libx264. */
  onFallback?(from: H264Encoder, reason: string): void;
  /** Every rendition has its first segment: the work dir's master playlist is playable (as an EVENT playlist). */
  onFirstPlayable?(): void;
  /** Forensic watermark variant A's mark (args/watermark.ts `markFilter`), drawn before the renditions are scaled. */
  mark?: string;
}

/** What a finished transcode produced (all files inside workDir). */
export interface TranscodeResult {
  encoder: H264Encoder; fallbackFrom: H264Encoder | null; renditions: Rendition[]; audio: boolean;
  files: { hls: string; dash: string; poster: string; poster_webp: string; sprite: string; thumbs_vtt: string; download: string };
  thumb: { w: number; h: number; intervalS: number };
}

const ENCODE_SHARE = 97;

function failure(what: string, r: RunResult): MediaError {
  if (r.aborted) return new MediaError('aborted', false);
  if (r.stalled) return new MediaError(`${what}: ffmpeg made no progress and was stopped`, false);
  if (r.timedOut) return new MediaError(`${what}: timed out`, false);
  // Killed by a signal (OOM killer, operator): worth a retry. A plain non-zero exit: the input is at fault.
  if (r.signal) return new MediaError(`${what}: ffmpeg killed by ${r.signal}`, false);
  return new MediaError(`${what} failed: ${readable(r.stderrTail)}`, true);
}

function clearDir(dir: string): void {
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { recursive: true, force: true });
}

async function encodeOnce(o: TranscodeOptions, encoder: H264Encoder): Promise<RunResult> {
  const started = Date.now();
  let st: ProgressState = { outTimeS: 0, speed: null, ended: false };
  const n = o.plan.renditions.length;
  let firstSent = false;
  const watch = setInterval(() => {
    if (firstSent || !existsSync(join(o.workDir, SEG.master))) return;
    try {
      for (let i = 0; i < n; i++) if (segmentCount(readFileSync(join(o.workDir, `media_${i}.m3u8`), 'utf8')) < 1) return;
    } catch { return; }
    firstSent = true;
    o.onFirstPlayable?.();
  }, 250);
  const args = encodeArgs(o.tools.ffmpeg, { source: o.source, outDir: o.workDir, plan: o.plan, encoder, audio: !!o.info.audio, stills: stillsOf(o).stills, download: true, mark: o.mark });
  const r = await runTool(args, {
    signal: o.signal, stallMs: o.stallMs ?? 60_000, nice: o.nice,
    onStdoutLine: (l) => {
      st = foldProgress(st, l);
      const p = progressOf(byFrames(st, o.plan.fps), o.info.durationS, (Date.now() - started) / 1000);
      o.onProgress?.((p.pct * ENCODE_SHARE) / 100, p.etaS);
    },
  }).done;
  clearInterval(watch);
  if (r.code === 0 && !firstSent) { firstSent = true; o.onFirstPlayable?.(); }
  return r;
}

/** Encodes the ladder in one ffmpeg run (GPU encoder falls back to libx264 on failure), then packages extras. */
export async function transcode(o: TranscodeOptions): Promise<TranscodeResult> {
  o.onStage?.('encoding');
  let encoder = o.encoder;
  let fallbackFrom: H264Encoder | null = null;
  let r = await encodeOnce(o, encoder);
  if (r.code !== 0 && !r.aborted && encoder !== 'libx264') {
    fallbackFrom = encoder;
    o.onFallback?.(encoder, readable(r.stderrTail));
    clearDir(o.workDir);
    encoder = 'libx264';
    r = await encodeOnce(o, encoder);
  }
  if (r.code !== 0) throw failure('encoding', r);
  o.onStage?.('packaging');
  return { ...(await packageExtras(o)), encoder, fallbackFrom };
}

async function step(o: TranscodeOptions, what: string, argv: string[], pct: number): Promise<void> {
  const r = await runTool(argv, { signal: o.signal, stallMs: 0, timeoutMs: 10 * 60_000, nice: o.nice }).done;
  if (r.code !== 0) throw failure(what, r);
  o.onProgress?.(pct, null);
}

/** Still geometry for a plan: poster at 10% (at most 10 s) at most 1280 wide; sprite tiles from the lowest rung's aspect. */
function stillsOf(o: Pick<TranscodeOptions, 'plan' | 'info'>): { stills: Stills; sprite: { intervalS: number; w: number; h: number; cols: number; rows: number }; layout: ReturnType<typeof spriteLayout> } {
  const top = o.plan.renditions[0], low = o.plan.renditions[o.plan.renditions.length - 1];
  const dur = o.info.durationS;
  const tw = low.height > low.width ? 90 : 160;
  const th = Math.max(2, Math.round((tw * low.height) / low.width / 2) * 2);
  const layout = spriteLayout(dur);
  const sprite = { intervalS: layout.intervalS, w: tw, h: th, cols: layout.cols, rows: layout.rows };
  // The encode's tiles are the sheet's tiles: one interval and size for both.
  return { layout, sprite, stills: { posterAtS: Math.min(dur * 0.1, 10), posterWidth: Math.min(top.width, 1280) & ~1, tiles: sprite } };
}

/**
 * After the encode: playlists finished as VOD; the sprite sheet laid out from the tiles the encode wrote; the
 * thumbnail track. The encode wrote the progressive download (tee) and the poster (from its own decode) too; whatever
 * of those is missing is made here from our renditions: the download remuxed from the joined top rendition and audio,
 * the poster cut from the top rendition, the sprite cut from the lowest.
 */
async function packageExtras(o: TranscodeOptions): Promise<Omit<TranscodeResult, 'encoder' | 'fallbackFrom'>> {
  const dir = o.workDir, ff = o.tools.ffmpeg, n = o.plan.renditions.length, audio = !!o.info.audio;
  const { stills, sprite, layout } = stillsOf(o);
  const tmpV = join(dir, '.top-video.mp4'), tmpA = join(dir, '.audio.mp4'), tmpLo = join(dir, '.low-video.mp4'), tiles = join(dir, TILES_FILE);
  let topJoined: Promise<void> | null = null;
  const joinTop = () => (topJoined ??= joinRepresentation(dir, 0, tmpV));
  const steps: Promise<void>[] = [];
  if (!existsSync(join(dir, DOWNLOAD_FILE))) {
    steps.push(Promise.all([joinTop(), audio ? joinRepresentation(dir, n, tmpA) : null])
      .then(() => step(o, 'download remux', downloadArgs(ff, tmpV, audio ? tmpA : null, join(dir, DOWNLOAD_FILE)), 99)));
  }
  if (!existsSync(join(dir, 'poster.jpg')) || !existsSync(join(dir, 'poster.webp'))) steps.push(joinTop().then(() => step(o, 'poster', posterArgs(ff, tmpV, 0, dir, stills.posterWidth), 98)));
  const cut = () => (n > 1 ? joinRepresentation(dir, n - 1, tmpLo) : joinTop()).then(() => step(o, 'sprite', spriteArgs(ff, n > 1 ? tmpLo : tmpV, join(dir, 'sprite.jpg'), sprite), 99));
  steps.push(existsSync(tiles) ? sheetFromTiles(tiles, join(dir, 'sprite.jpg'), sprite).catch(cut) : cut());
  await Promise.all(steps);
  const master = join(dir, SEG.master);
  writeFileSync(master, finishMaster(readFileSync(master, 'utf8')));
  for (let i = 0; i < n + (audio ? 1 : 0); i++) {
    const p = join(dir, `media_${i}.m3u8`);
    writeFileSync(p, finishMedia(readFileSync(p, 'utf8'), true));
  }
  if (o.plan.iframes) await writeIframePlaylists(dir, n, SEG.master);
  writeFileSync(join(dir, 'thumbs.vtt'), thumbsVtt(o.info.durationS, layout, sprite.w, sprite.h));
  for (const t of [tmpV, tmpA, tmpLo, tiles]) rmSync(t, { force: true });
  return {
    renditions: o.plan.renditions, audio,
    files: { hls: SEG.master, dash: SEG.mpd, poster: 'poster.jpg', poster_webp: 'poster.webp', sprite: 'sprite.jpg', thumbs_vtt: 'thumbs.vtt', download: DOWNLOAD_FILE },
    thumb: { w: sprite.w, h: sprite.h, intervalS: layout.intervalS },
  };
}
