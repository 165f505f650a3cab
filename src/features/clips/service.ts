import { deliveryPath } from '../playback/delivery-table';
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { channelById, recordedRenditions, segmentsInRange } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { parseTime } from '../guide/service';
import { ClipStore, type ClipRow } from './store';
import { removeClipFiles } from './final-files';
import { remoteMedia } from '../../kernel/media-store';
import type { CreateClip } from './model';

const MAX_CLIP_MS = 6 * 3_600_000;

/** Data of `clip.ready` / `clip.final` events. */
export function clipEventData(c: ClipRow): Record<string, unknown> {
  return { clip: c.id, channel_id: c.channel_id, status: c.status, precision: c.precision, start_at: iso(c.start_ms), end_at: iso(c.end_ms) };
}

/** Clips cut from a channel's recording. Throws AppError. */
export class ClipService {
  readonly store: ClipStore;
  constructor(private ctx: AppContext) { this.store = new ClipStore(ctx.db); }

  get(tenantId: string, id: string): ClipRow {
    const c = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!c) throw notFound('clip');
    return c;
  }

  /** POST /v1/clips: checks the range and the recording; segment clips are ready at once, frame clips queue a cut. */
  create(tenantId: string, b: CreateClip): ClipRow {
    if (b.asset_id !== undefined) throw invalid('asset_id', 'clips from library assets are not implemented');
    const ch: ChannelRow | null = isUuid(b.channel_id) ? channelById(this.ctx, tenantId, b.channel_id) : null;
    if (!ch) throw invalid('channel_id', 'no such channel');
    const s = parseTime('start_at', b.start_at), e = parseTime('end_at', b.end_at);
    if (e <= s) throw invalid('end_at', 'must be after start_at');
    if (e - s > MAX_CLIP_MS) throw invalid('end_at', 'a clip covers at most 6 hours');
    const recorded = recordedRenditions(this.ctx, ch.id);
    const rends = b.renditions ?? recorded;
    const unknown = rends.filter((r) => !recorded.includes(r));
    if (unknown.length) throw invalid('renditions', `not recorded on this channel: ${unknown.join(', ')} (recorded: ${recorded.join(', ') || 'none'})`);
    const segs = rends.length ? segmentsInRange(this.ctx, ch.id, rends[0], s, e) : [];
    if (!segs.length) throw invalid('start_at', 'nothing is recorded in this range');
    const now = this.ctx.clock.now();
    const precision = b.precision ?? 'segment';
    const row: Omit<ClipRow, 'seq'> = {
      id: newId(), tenant_id: tenantId, channel_id: ch.id, title: b.title ?? null, start_ms: s, end_ms: e, precision, renditions: JSON.stringify(rends),
      status: precision === 'segment' ? 'ready' : 'finalizing', expires_at: segs[0].start_ms + ch.retention_hours * 3_600_000, final_dir: null, job_id: null,
      error: null, first_seg_ms: segs[0].start_ms, created_at: now, updated_at: now,
    };
    return tx(this.ctx.db, () => {
      this.store.insert(row);
      const c = this.store.get(tenantId, row.id)!;
      if (precision === 'segment') emitEvent(this.ctx.db, tenantId, 'clip.ready', clipEventData(c), now);
      else this.store.setJob(c.id, enqueueJob(this.ctx.db, { tenantId, type: 'clip.finalize', payload: { clipId: c.id }, subject: { kind: 'clip', id: c.id } }, now));
      return this.store.get(tenantId, row.id)!;
    });
  }

  /** True when retention has removed the recording under a clip that still depends on it. */
  expired(c: ClipRow): boolean {
    if (c.status === 'final') return false;
    if (c.expires_at !== null && this.ctx.clock.now() >= c.expires_at) return true;
    const rend = (JSON.parse(c.renditions) as string[])[0];
    const first = c.first_seg_ms ?? c.start_ms;
    return !segmentsInRange(this.ctx, c.channel_id, rend, first, first + 1).some((x) => x.start_ms === first);
  }

  /**
   * Deletes a clip, then its files: a final clip's directory, or its objects in a bucket media store (a frame clip
   * still finalizing may have uploaded some; its job, finding the clip gone, removes what it adds after this).
   */
  async remove(tenantId: string, id: string): Promise<void> {
    const c = this.get(tenantId, id);
    const files = c.final_dir !== null || c.precision === 'frame';
    if (!files) { this.store.delete(c.id); return; }
    // A bucket: the row goes with a record of its objects to remove (clip_file_deletes), so a bucket that is down
    // now or a stop before the removal leaves them to the sweeper, not behind for good.
    if (remoteMedia(this.ctx)) this.store.deleteWithObjects(c.id, c.tenant_id, this.ctx.clock.now());
    else this.store.delete(c.id);
    await removeClipFiles(this.ctx, c.tenant_id, c.id).catch((e) => {
      this.ctx.log.warn('removing a deleted clip\'s files failed (the sweeper retries)', { clip: c.id, error: String(e) });
    });
  }

  /** The clip as answered. */
  view(c: ClipRow, tenantSlug: string) {
    const expired = this.expired(c);
    return {
      id: c.id, channel_id: c.channel_id, title: c.title, start_at: iso(c.start_ms), end_at: iso(c.end_ms), precision: c.precision,
      renditions: JSON.parse(c.renditions) as string[], status: c.status, expired,
      expires_at: c.expires_at === null ? null : iso(c.expires_at),
      playback: { hls: this.ctx.config.cdnBaseUrl + deliveryPath('clipMaster', { id: c.id }, tenantSlug) },
      ...(c.error ? { error: c.error } : {}),
      created_at: iso(c.created_at), updated_at: iso(c.updated_at),
    };
  }
}

/** Refuses `publish` without clips:publish. */
export function publishRefused(): AppError { return new AppError('insufficient_scope', 'clips:publish'); }

/** A clip by id, any tenant (job handlers outside this feature, such as the cluster's remote finalize). */
export function clipAnyById(ctx: AppContext, id: string): ClipRow | null {
  return new ClipStore(ctx.db).anyById(id);
}
