/**
 * `clip.finalize`: makes a frame-precision clip independent of the recording. Per rendition, segments wholly
 * inside the range are copied with their init segments; the one or two segments cut by the range's ends are
 * re-encoded for their inside part only (edgeCutArgs). Every piece's decode times are then moved onto one
 * continuous timeline from 0 (timeline.ts), so the clip plays in exactly its duration in every player; EXTINF is
 * each piece's measured duration. The clip's own HLS (one EXT-X-MAP per init, DISCONTINUITY at edges, gaps and
 * feed changes) goes to DATA/media/<tenant>/clips/<id>/ (work
 * directory renamed into place), then the clip turns `final` with `clip.ready` and `clip.final` in one transaction.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRow, JobRun } from '../../jobs/types';
import { locateFfmpeg, runShort } from '../../media/locate';
import { runTool } from '../../media/process';
import { codecsOf, masterPlaylist } from '../../live/playlist';
import { channelById, initFile, segmentFile, segmentsInRange } from '../channels/service';
import type { ChannelRow, SegmentRow } from '../channels/store';
import { edgeCutArgs, streamStartsArgs } from '../../media/args/cut';
import { planPieces, videoLeadS } from './cut-plan';
import { pieceTiming, planTimeline, shiftPiece } from './timeline';
import { clipDir, clipEventData } from './service';
import { ClipStore } from './store';

function mustRead(path: string): Buffer {
  if (!existsSync(path)) throw new PermanentJobError('a recorded segment under the clip was removed by retention before the cut');
  return readFileSync(path);
}

/** One materialised piece: its init file name in the clip dir, media bytes (patched later) and discontinuity. */
interface Made { initName: string; init: Uint8Array; seg: Uint8Array; disc: boolean }

/** Cuts one rendition into `dir`; returns the variant's measured bandwidth and codecs. */
async function cutRendition(ctx: AppContext, ch: ChannelRow, rendition: string, from: number, to: number, dir: string, work: string, signal: AbortSignal) {
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) throw new PermanentJobError('ffmpeg not found');
  const { ffmpeg, ffprobe } = tools;
  const segs: SegmentRow[] = segmentsInRange(ctx, ch.id, rendition, from, to);
  const pieces = planPieces(segs, from, to);
  if (!pieces.length) throw new PermanentJobError('nothing is recorded in the clip range any more');
  mkdirSync(dir, { recursive: true });
  const made: Made[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    // A new init (edge or feed change) starts a discontinuity: encoding parameters differ across it.
    const disc = i > 0 && (p.discontinuity || p.kind === 'cut' || pieces[i - 1].kind === 'cut');
    if (p.kind === 'copy') {
      const initName = `init-${p.initMs}.mp4`;
      const init = mustRead(initFile(ctx, ch, rendition, p.initMs));
      if (!existsSync(join(dir, initName))) writeFileSync(join(dir, initName), init);
      const seg = segs.find((s) => s.start_ms === p.startMs)!;
      made.push({ initName, init, seg: mustRead(segmentFile(ctx, seg)), disc });
      continue;
    }
    const seg = segs.find((s) => s.start_ms === p.segStartMs)!;
    const input = join(work, `in-${rendition}-${i}.mp4`);
    writeFileSync(input, Buffer.concat([mustRead(initFile(ctx, ch, rendition, p.initMs)), mustRead(segmentFile(ctx, seg))]));
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
    shiftPiece(m.seg, timed[i].timing, plan[i].shift);
    writeFileSync(join(dir, `${i}.m4s`), m.seg);
    if (m.disc) lines.push('#EXT-X-DISCONTINUITY');
    if (m.initName !== mapped) { lines.push(`#EXT-X-MAP:URI="${m.initName}"`); mapped = m.initName; }
    const d = plan[i].durationS;
    lines.push(`#EXTINF:${d.toFixed(5)},`, `${i}.m4s`);
    bytes += m.seg.length; total += d; target = Math.max(target, Math.round(d));
    codecs ??= codecsOf(m.init);
  });
  const head = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD', '#EXT-X-INDEPENDENT-SEGMENTS'];
  writeFileSync(join(dir, 'index.m3u8'), [...head, ...lines, '#EXT-X-ENDLIST'].join('\n') + '\n');
  return { bandwidth: total ? (bytes * 8) / total : 1_000_000, codecs };
}

async function finalizeClip(ctx: AppContext, job: JobRun<'clip.finalize'>): Promise<void> {
  const store = new ClipStore(ctx.db);
  const c = store.anyById(String(job.payload?.clipId ?? ''));
  if (!c || c.status !== 'finalizing') return; // deleted or done already
  const ch = channelById(ctx, c.tenant_id, c.channel_id);
  if (!ch) throw new PermanentJobError('the channel was deleted');
  const final = clipDir(ctx.config.dataDir, c.tenant_id, c.id);
  const tmp = `${final}.work-${job.attempt}`;
  rmSync(tmp, { recursive: true, force: true });
  const work = join(tmp, '.work');
  mkdirSync(work, { recursive: true });
  try {
    const variants = [];
    const rends = JSON.parse(c.renditions) as string[];
    for (const r of rends) {
      const v = await cutRendition(ctx, ch, r, c.start_ms, c.end_ms, join(tmp, r), work, job.signal);
      const info = JSON.parse(ch.feed_info || '{}') as { resolution?: string };
      variants.push({ uri: `${r}/index.m3u8`, bandwidth: v.bandwidth * 1.1, resolution: info.resolution ?? null, codecs: v.codecs });
      job.progress(((variants.length) / rends.length) * 95);
    }
    writeFileSync(join(tmp, 'master.m3u8'), masterPlaylist(variants));
    rmSync(work, { recursive: true, force: true });
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  const now = ctx.clock.now();
  tx(ctx.db, () => {
    const cur = store.anyById(c.id);
    if (!cur) { rmSync(final, { recursive: true, force: true }); return; }
    store.finish(c.id, final, now);
    const done = store.anyById(c.id)!;
    emitEvent(ctx.db, c.tenant_id, 'clip.ready', clipEventData(done), now);
    emitEvent(ctx.db, c.tenant_id, 'clip.final', clipEventData(done), now);
  });
}

/** Job handlers of the clips feature. */
export const clipJobHandlers: FeatureHandlers<'clip.finalize'> = { 'clip.finalize': finalizeClip };

/** A finalize job that failed for good leaves its clip `finalizing` with `error` set (it still plays over the recording). */
export function failClipOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.subject_kind !== 'clip' || !job.subject_id) return;
  new ClipStore(ctx.db).fail(job.subject_id, error, ctx.clock.now());
}
