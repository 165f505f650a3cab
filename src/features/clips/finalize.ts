/**
 * `clip.finalize`: makes a frame-precision clip independent of the recording. Per rendition, segments wholly
 * inside the range are copied with their init segments; the one or two segments cut by the range's ends are
 * re-encoded for their inside part only (edgeCutArgs). Every piece's decode times are then moved onto one
 * continuous timeline from 0 (timeline.ts), so the clip plays in exactly its duration in every player; EXTINF is
 * each piece's measured duration. The clip's own HLS (one EXT-X-MAP per init, DISCONTINUITY at edges, gaps and
 * feed changes) is made in a work directory and put in place whole (final-files.ts: renamed to
 * DATA/media/<tenant>/clips/<id>/, or uploaded to a bucket media store under the same path), then the clip turns
 * `final` with `clip.ready` and `clip.final` in one transaction.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRow, JobRun } from '../../jobs/types';
import { locateFfmpeg } from '../../media/locate';
import { masterPlaylist } from '../../live/playlist';
import { channelById, holdSegments, initFile, segmentFile, segmentsInRange } from '../channels/service';
import type { ChannelRow, SegmentRow } from '../channels/store';
import { planPieces, type Piece } from './cut-plan';
import { cutPieces } from './cut-rendition';
import { clipEventData } from './service';
import { clearClipWork, clipDir, placeFinalClip, removeClipFiles } from './final-files';
import { isUuid } from '../../kernel/ids';
import { ClipStore } from './store';

function mustRead(path: string): Buffer {
  if (!existsSync(path)) throw new PermanentJobError('a recorded segment under the clip was removed by retention before the cut');
  return readFileSync(path);
}

/** Cuts one rendition of the recording into `dir` on this node (the pieces' bytes read from the channel's own files). */
async function cutRendition(ctx: AppContext, ch: ChannelRow, rendition: string, from: number, to: number, dir: string, work: string, signal: AbortSignal) {
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) throw new PermanentJobError('ffmpeg not found');
  const segs: SegmentRow[] = segmentsInRange(ctx, ch.id, rendition, from, to);
  const pieces = planPieces(segs, from, to);
  if (!pieces.length) throw new PermanentJobError('nothing is recorded in the clip range any more');
  // Copies from a bucket are held until the cut is done: it reads them one after another, between edge encodes.
  const release = await holdPieces(ctx, ch, rendition, pieces, segs);
  try {
    return await cutPieces(tools, rendition, pieces, {
      init: (p) => mustRead(initFile(ctx, ch, rendition, p.initMs)),
      seg: (p) => mustRead(segmentFile(ctx, segs.find((s) => s.start_ms === (p.kind === 'copy' ? p.startMs : p.segStartMs))!)),
    }, dir, work, signal);
  } finally { release(); }
}

/** The recorded segments and inits under the pieces, copied back from a bucket media store where their hour moved, held until released. */
function holdPieces(ctx: AppContext, ch: ChannelRow, rendition: string, pieces: Piece[], segs: SegmentRow[]): Promise<() => void> {
  const starts = new Set(pieces.map((p) => (p.kind === 'copy' ? p.startMs : p.segStartMs)));
  return holdSegments(ctx, ch, rendition, segs.filter((s) => starts.has(s.start_ms)), pieces.map((p) => p.initMs));
}

/**
 * Pieces of one rendition planned here for a cut elsewhere (a worker machine): each with its init and segment file,
 * readable until `release()` (copies from a bucket are held until then).
 */
export async function clipPiecesOf(ctx: AppContext, ch: ChannelRow, rendition: string, from: number, to: number): Promise<{ pieces: { piece: Piece; init: string; seg: string }[]; release: () => void }> {
  const segs: SegmentRow[] = segmentsInRange(ctx, ch.id, rendition, from, to);
  const pieces = planPieces(segs, from, to);
  if (!pieces.length) throw new PermanentJobError('nothing is recorded in the clip range any more');
  const release = await holdPieces(ctx, ch, rendition, pieces, segs);
  try {
    return {
      release,
      pieces: pieces.map((p) => {
        const init = initFile(ctx, ch, rendition, p.initMs);
        const seg = segmentFile(ctx, segs.find((s) => s.start_ms === (p.kind === 'copy' ? p.startMs : p.segStartMs))!);
        if (!existsSync(init) || !existsSync(seg)) throw new PermanentJobError('a recorded segment under the clip was removed by retention before the cut');
        return { piece: p, init, seg };
      }),
    };
  } catch (e) { release(); throw e; }
}

async function finalizeClip(ctx: AppContext, job: JobRun<'clip.finalize'>): Promise<void> {
  const store = new ClipStore(ctx.db);
  const id = String(job.payload?.clipId ?? '');
  const c = store.anyById(id);
  if (!c) { if (isUuid(id)) await dropClipLeftovers(ctx, job.tenantId, id); return; } // deleted: what a killed attempt left goes
  if (c.status !== 'finalizing') return; // done already
  const ch = channelById(ctx, c.tenant_id, c.channel_id);
  if (!ch) throw new PermanentJobError('the channel was deleted');
  const final = clipDir(ctx.config.dataDir, c.tenant_id, c.id);
  clearClipWork(ctx.config.dataDir, c.tenant_id, c.id); // earlier attempts killed mid-way
  const tmp = `${final}.work-${job.attempt}`;
  const work = join(tmp, '.work');
  mkdirSync(work, { recursive: true });
  let placed: string;
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
    placed = await placeFinalClip(ctx, c.tenant_id, c.id, tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  await finishFinalClip(ctx, c.id, c.tenant_id, placed);
}

/** A clip deleted before its cut ended: its work directories and whatever an attempt put in a bucket go. */
export async function dropClipLeftovers(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  clearClipWork(ctx.config.dataDir, tenantId, id);
  await removeClipFiles(ctx, tenantId, id);
}

/**
 * The clip turns `final` over its own files in `final` (its directory; in a bucket, the objects under the same path)
 * with `clip.ready` and `clip.final` in one transaction. A clip deleted meanwhile: its files go.
 */
export async function finishFinalClip(ctx: AppContext, clipId: string, tenantId: string, final: string): Promise<void> {
  const store = new ClipStore(ctx.db);
  const now = ctx.clock.now();
  const done = tx(ctx.db, () => {
    const cur = store.anyById(clipId);
    if (!cur) return false;
    store.finish(clipId, final, now);
    const row = store.anyById(clipId)!;
    emitEvent(ctx.db, tenantId, 'clip.ready', clipEventData(row), now);
    emitEvent(ctx.db, tenantId, 'clip.final', clipEventData(row), now);
    return true;
  });
  if (!done) await removeClipFiles(ctx, tenantId, clipId);
}

/** Job handlers of the clips feature. */
export const clipJobHandlers: FeatureHandlers<'clip.finalize'> = { 'clip.finalize': finalizeClip };

/** A finalize job that failed for good leaves its clip `finalizing` with `error` set (it still plays over the recording). */
export function failClipOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.subject_kind !== 'clip' || !job.subject_id) return;
  new ClipStore(ctx.db).fail(job.subject_id, error, ctx.clock.now());
}
