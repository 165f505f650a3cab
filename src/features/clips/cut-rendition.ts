/**
 * The frame-exact cut of one rendition, wherever it runs (the control node over its recording, or a worker machine
 * over the pieces it was sent): segments wholly inside are copied with their init segments, the one or two cut by
 * the range's ends are re-encoded for their inside part only (edgeCutArgs), and every piece's decode times are moved
 * onto one continuous timeline from 0 (timeline.ts). Writes `<dir>/<i>.m4s`, the init files and `index.m3u8`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PermanentJobError } from '../../jobs/errors';
import { runShort, type FfmpegTools } from '../../media/locate';
import { runTool } from '../../media/process';
import { codecsOf } from '../../live/playlist';
import { edgeCutArgs, streamStartsArgs } from '../../media/args/cut';
import { videoLeadS, type Piece } from './cut-plan';
import { pieceTiming, planTimeline, shiftPiece } from './timeline';

/** One materialised piece: its init file name in the clip dir, media bytes (patched later) and discontinuity. */
interface Made { initName: string; init: Uint8Array; seg: Uint8Array; disc: boolean }

/** Reads a piece's init segment and media segment (throws PermanentJobError when retention removed them). */
export interface PieceReader { init(p: Piece): Uint8Array; seg(p: Piece): Uint8Array }

/** Cuts one rendition's planned pieces into `dir`; returns the variant's measured bandwidth and codecs. */
export async function cutPieces(tools: FfmpegTools, rendition: string, pieces: Piece[], read: PieceReader, dir: string, work: string, signal: AbortSignal) {
  const { ffmpeg, ffprobe } = tools;
  if (!pieces.length) throw new PermanentJobError('nothing is recorded in the clip range any more');
  mkdirSync(dir, { recursive: true });
  mkdirSync(work, { recursive: true });
  const made: Made[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    // A new init (edge or feed change) starts a discontinuity: encoding parameters differ across it.
    const disc = i > 0 && (p.discontinuity || p.kind === 'cut' || pieces[i - 1]!.kind === 'cut');
    if (p.kind === 'copy') {
      const initName = `init-${p.initMs}.mp4`;
      const init = read.init(p);
      if (!existsSync(join(dir, initName))) writeFileSync(join(dir, initName), init);
      made.push({ initName, init, seg: read.seg(p), disc });
      continue;
    }
    const input = join(work, `in-${rendition}-${i}.mp4`);
    writeFileSync(input, Buffer.concat([read.init(p), read.seg(p)]));
    const out = join(work, `p-${rendition}-${i}`);
    mkdirSync(out, { recursive: true });
    const starts = await runShort(streamStartsArgs(ffprobe, input), 30_000);
    const lead = starts.code === 0 ? videoLeadS(starts.stdout) : 0;
    const run = runTool(edgeCutArgs({ ffmpeg, input, offsetS: lead + (p.fromMs - p.segStartMs) / 1000, durationS: (p.toMs - p.fromMs) / 1000, outDir: out }), { timeoutMs: 120_000, stallMs: 60_000, stderrIsProgress: true, signal });
    const r = await run.done;
    if (r.code !== 0 || !existsSync(join(out, 's0.m4s'))) throw new Error(`edge cut failed: ${r.stderrTail.slice(-3).join(' | ') || `exit ${r.code}`}`);
    const initName = `init-e${i}.mp4`;
    renameSync(join(out, 'init.mp4'), join(dir, initName));
    made.push({ initName, init: readFileSync(join(dir, initName)), seg: readFileSync(join(out, 's0.m4s')), disc });
  }
  // One continuous timeline: each piece's decode times moved to start where the previous piece ends.
  const timed = made.map((m) => {
    const timing = pieceTiming(m.init, m.seg);
    if (!timing) throw new PermanentJobError('a piece of the clip has no readable track fragment');
    return { seg: m.seg, timing };
  });
  const plan = planTimeline(timed);
  const lines: string[] = [];
  let bytes = 0, total = 0, mapped = '', target = 1, codecs: string | null = null;
  made.forEach((m, i) => {
    shiftPiece(m.seg, timed[i]!.timing, plan[i]!.shift);
    writeFileSync(join(dir, `${i}.m4s`), m.seg);
    if (m.disc) lines.push('#EXT-X-DISCONTINUITY');
    if (m.initName !== mapped) { lines.push(`#EXT-X-MAP:URI="${m.initName}"`); mapped = m.initName; }
    const d = plan[i]!.durationS;
    lines.push(`#EXTINF:${d.toFixed(5)},`, `${i}.m4s`);
    bytes += m.seg.length; total += d; target = Math.max(target, Math.round(d));
    codecs ??= codecsOf(m.init);
  });
  const head = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-INDEPENDENT-SEGMENTS'];
  writeFileSync(join(dir, 'index.m3u8'), [...head, ...lines, '#EXT-X-ENDLIST'].join('\n') + '\n');
  return { bandwidth: total ? (bytes * 8) / total : 1_000_000, codecs };
}
