/**
 * Channels service. Read API for other features (catch-up, clips, delivery) — call only these:
 *  - `channelBySlug(ctx, tenantId, slug)` → ChannelRow | null (a channel of a tenant by its slug)
 *  - `channelById(ctx, tenantId, id)` → ChannelRow | null
 *  - `segmentsInRange(ctx, channelId, rendition, fromMs, toMs)` → SegmentRow[] overlapping [fromMs, toMs), oldest
 *    first: {start_ms, duration_ms, bytes, path (relative to `recRoot(ctx)`), discontinuity, init_ms, seq}
 *  - `segmentTimesInRange(ctx, channelId, rendition, fromMs, toMs)` → SegTimes (typed arrays start/dur/disc/init of
 *    the same segments; no rows, no paths: `seg/<start_ms>.m4s`) — for playlists over long ranges
 *  - `recordedSpansInRange(ctx, channelId, rendition, fromMs, toMs)` → flat [from, to, ...] recorded spans (coverage)
 *  - `recordedRenditions(ctx, channelId)` → string[] (today `['src']` for passthrough)
 *  - `segmentFile(ctx, seg)` / `initFile(ctx, channel, rendition, initMs)` → absolute paths of a segment and of
 *    the CMAF init segment (`#EXT-X-MAP`) it needs; `await fetchSegments(ctx, ch, rendition, segs, inits)` first
 *    where hours may be in a bucket media store (the paths then name local copies); `holdSegments` (same arguments)
 *    keeps those copies until the function it returns is called, for a reader that takes its time.
 * The index keeps one summary row per rendition-hour; rows of an hour not read since startup are derived from its
 * directory listing on the first `segmentsInRange` that touches it (~30-50 ms per hour, once).
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { liveControl } from '../../live/registry';
import { SegmentIndex } from '../../live/segment-index';
import { recordedSpans, segmentTimes } from '../../live/lean-read';
import { newTimes, type SegTimes } from '../../live/seg-times';
import { initPath, recRoot, segmentAbsPath } from '../../live/paths';
import { ChannelStore, type ChannelRow, type SegmentRow } from './store';
import { holdRecorded, localRecordingPath, servableRecordingPath } from './recording-files';
import type { CreateChannel, PatchChannel } from './model';
import { srtCallerUrl } from './view';
import { SettingsService } from '../settings/service';

export { recRoot };
export type { SegTimes };

/** A channel of a tenant by slug. */
export function channelBySlug(ctx: AppContext, tenantId: string, slug: string): ChannelRow | null {
  return new ChannelStore(ctx.db).bySlug(tenantId, slug);
}
/** A channel of a tenant by id. */
export function channelById(ctx: AppContext, tenantId: string, id: string): ChannelRow | null {
  return new ChannelStore(ctx.db).byId(tenantId, id);
}
/** Indexed recording segments overlapping [fromMs, toMs), oldest first. */
export function segmentsInRange(ctx: AppContext, channelId: string, rendition: string, fromMs: number, toMs: number): SegmentRow[] {
  const ch = new ChannelStore(ctx.db).anyById(channelId);
  return ch ? new SegmentIndex(ctx.db, ctx.config.dataDir).segmentsInRange(ch, rendition, fromMs, toMs) : [];
}
/** Timings of the indexed segments overlapping [fromMs, toMs) as typed arrays (closed hours decode a compact list). */
export function segmentTimesInRange(ctx: AppContext, channelId: string, rendition: string, fromMs: number, toMs: number): SegTimes {
  const ch = new ChannelStore(ctx.db).anyById(channelId);
  return ch ? segmentTimes(new SegmentIndex(ctx.db, ctx.config.dataDir), ch, rendition, fromMs, toMs) : newTimes();
}
/** Recorded spans (flat [from, to, ...]) overlapping [fromMs, toMs), from hour summaries where they suffice. */
export function recordedSpansInRange(ctx: AppContext, channelId: string, rendition: string, fromMs: number, toMs: number): number[] {
  const ch = new ChannelStore(ctx.db).anyById(channelId);
  return ch ? recordedSpans(new SegmentIndex(ctx.db, ctx.config.dataDir), ch, rendition, fromMs, toMs) : [];
}
/** Renditions with recorded segments. */
export function recordedRenditions(ctx: AppContext, channelId: string): string[] {
  return new SegmentIndex(ctx.db, ctx.config.dataDir).renditions(channelId);
}
/** Absolute path of an indexed segment (its fetched copy when its hour moved to the bucket: `fetchSegments` first). */
export function segmentFile(ctx: AppContext, seg: SegmentRow): string {
  return localRecordingPath(ctx, segmentAbsPath(ctx.config.dataDir, seg.path));
}
/** Absolute path of the init segment a segment needs (its fetched copy when only the bucket has it). */
export function initFile(ctx: AppContext, ch: ChannelRow, rendition: string, initMs: number): string {
  return localRecordingPath(ctx, initPath(ctx.config.dataDir, ch.tenant_id, ch.id, rendition, initMs));
}
/**
 * Makes these segments and init segments readable through `segmentFile` / `initFile`: those whose hour moved to a
 * bucket media store are copied into a local spool first (nothing to do on a single box).
 */
export async function fetchSegments(ctx: AppContext, ch: ChannelRow, rendition: string, segs: (SegmentRow | null | undefined)[], initMs: number[] = []): Promise<void> {
  (await holdSegments(ctx, ch, rendition, segs, initMs))();
}
/** `fetchSegments`, with the copies held until the returned function is called (a reader that takes its time: a clip cut). */
export function holdSegments(ctx: AppContext, ch: ChannelRow, rendition: string, segs: (SegmentRow | null | undefined)[], initMs: number[] = []): Promise<() => void> {
  const d = ctx.config.dataDir;
  return holdRecorded(ctx, [...segs.map((s) => s && segmentAbsPath(d, s.path)), ...[...new Set(initMs)].map((ms) => initPath(d, ch.tenant_id, ch.id, rendition, ms))]);
}
/** `path` when it may be served as a recording file (under the recording tree, or a fetched copy of one), else null. */
export function servableRecording(ctx: AppContext, path: string): string | null {
  return servableRecordingPath(ctx, path);
}

const secret = (n: number) => randomBytes(n).toString('base64url').replace(/[-_]/g, 'x');
const slugify = (s: string) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 63);

/** Channel management: CRUD, ingest secrets, start/stop. Throws AppError. */
export class ChannelService {
  readonly store: ChannelStore;
  constructor(private ctx: AppContext) { this.store = new ChannelStore(ctx.db); }

  get(tenantId: string, id: string): ChannelRow {
    const r = this.store.byId(tenantId, id);
    if (!r) throw notFound('channel');
    return r;
  }

  private freePorts(): [number, number] {
    const used = this.store.usedPorts();
    const out: number[] = [];
    for (let p = this.ctx.config.srtPorts.start; p <= this.ctx.config.srtPorts.end && out.length < 2; p++) if (!used.has(p)) out.push(p);
    if (out.length < 2) throw new AppError('conflict', 'no free SRT port left in VS_SRT_PORTS for a new channel');
    return [out[0], out[1]];
  }

  create(tenantId: string, b: CreateChannel): ChannelRow {
    const slug = b.slug ?? slugify(b.name);
    if (!slug) throw invalid('slug', 'cannot be derived from the name; give a slug');
    if (b.timezone) checkTz(b.timezone);
    return tx(this.ctx.db, () => {
      if (this.store.bySlug(tenantId, slug)) throw new AppError('conflict', `a channel with slug "${slug}" exists`);
      const [p1, p2] = this.freePorts();
      const now = this.ctx.clock.now();
      const row: Omit<ChannelRow, 'seq'> = {
        id: newId(), tenant_id: tenantId, slug, name: b.name, protocol: b.ingest?.protocol ?? 'srt',
        srt_port_primary: p1, srt_port_backup: p2, srt_passphrase: secret(24), srt_latency_ms: b.ingest?.latency_ms ?? 120,
        rtmp_key_primary: `live_${secret(24)}`, rtmp_key_backup: `live_${secret(24)}`, ladder: storeLadder(b.ladder),
        segment_s: b.segment_s ?? 2, failover_s: b.ingest?.failover_s ?? 3, recording_enabled: b.recording?.enabled === false ? 0 : 1,
        retention_hours: b.recording?.retention_hours ?? 168, dvr_window_s: b.dvr_window_s ?? 3600, timezone: b.timezone ?? new SettingsService(this.ctx).get(tenantId).time_zone,
        desired: 'stopped', status: 'stopped', feed: 'none', recording: 'off', feed_info: '{}', created_at: now, updated_at: now,
      };
      this.store.insert(row);
      return this.store.byId(tenantId, row.id)!;
    });
  }

  async patch(tenantId: string, id: string, b: PatchChannel): Promise<ChannelRow> {
    const cur = this.get(tenantId, id);
    if (b.timezone) checkTz(b.timezone);
    const p: Record<string, unknown> = {};
    if (b.name !== undefined) p.name = b.name;
    if (b.ingest?.protocol) p.protocol = b.ingest.protocol;
    if (b.ingest?.latency_ms !== undefined) p.srt_latency_ms = b.ingest.latency_ms;
    if (b.ingest?.failover_s !== undefined) p.failover_s = b.ingest.failover_s;
    if (b.ladder) p.ladder = storeLadder(b.ladder);
    if (b.segment_s !== undefined) p.segment_s = b.segment_s;
    if (b.recording?.enabled !== undefined) p.recording_enabled = b.recording.enabled ? 1 : 0;
    if (b.recording?.retention_hours !== undefined) p.retention_hours = b.recording.retention_hours;
    if (b.dvr_window_s !== undefined) p.dvr_window_s = b.dvr_window_s;
    if (b.timezone) p.timezone = b.timezone;
    this.store.update(id, p, this.ctx.clock.now());
    // The protocol decides which listener the ingest opens (SRT port or a pull from the RTMP listener): it restarts too.
    const restart = ['protocol', 'srt_latency_ms', 'segment_s', 'ladder', 'recording_enabled'].some((k) => k in p && p[k] !== (cur as unknown as Record<string, unknown>)[k]);
    if (restart && cur.desired === 'started') await liveControl(this.ctx.db)?.start(id);
    return this.get(tenantId, id);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    this.get(tenantId, id);
    await liveControl(this.ctx.db)?.stop(id);
    this.store.delete(id);
  }

  /** Ingest endpoints with their secrets (scope channels:operate). */
  ingest(tenantId: string, id: string) {
    const r = this.get(tenantId, id);
    const host = new URL(this.ctx.config.baseUrl).hostname;
    const srt = (port: number) => ({ url: srtCallerUrl({ host, port, passphrase: r.srt_passphrase, latencyMs: r.srt_latency_ms, pbkeylen: 16 }), port, passphrase: r.srt_passphrase });
    const rtmpUrl = `rtmp://${host}:${this.ctx.config.rtmpPort}/live`;
    return {
      srt: { primary: srt(r.srt_port_primary), backup: srt(r.srt_port_backup), latency_ms: r.srt_latency_ms, pbkeylen: 16 },
      rtmp: { primary: { url: rtmpUrl, stream_key: r.rtmp_key_primary }, backup: { url: rtmpUrl, stream_key: r.rtmp_key_backup } },
    };
  }

  /** New SRT passphrase and/or RTMP keys; the old ones are refused from now on (running listeners restart). */
  async rotate(tenantId: string, id: string, what: { srt?: boolean; rtmp?: boolean }) {
    const r = this.get(tenantId, id);
    const p: Record<string, string> = {};
    if (what.srt !== false) p.srt_passphrase = secret(24);
    if (what.rtmp !== false) { p.rtmp_key_primary = `live_${secret(24)}`; p.rtmp_key_backup = `live_${secret(24)}`; }
    this.store.update(id, p, this.ctx.clock.now());
    if (r.desired === 'started') await liveControl(this.ctx.db)?.start(id);
    return this.ingest(tenantId, id);
  }

  async start(tenantId: string, id: string): Promise<ChannelRow> {
    const r = this.get(tenantId, id);
    const live = liveControl(this.ctx.db);
    if (!live) throw new AppError('not_ready', 'the live engine is not running');
    if (r.desired !== 'started' || r.status === 'failed' || r.status === 'stopped') {
      this.store.update(id, { desired: 'started', status: 'waiting', feed: 'none', recording: 'off' }, this.ctx.clock.now());
      await live.start(id);
    }
    return this.get(tenantId, id);
  }

  async stop(tenantId: string, id: string): Promise<ChannelRow> {
    this.get(tenantId, id);
    await liveControl(this.ctx.db)?.stop(id);
    this.store.update(id, { desired: 'stopped', status: 'stopped', feed: 'none', recording: 'off' }, this.ctx.clock.now());
    return this.get(tenantId, id);
  }
}

/** The ladder column: `passthrough`, `abr`, or the caller's rungs as JSON. */
function storeLadder(l: CreateChannel['ladder']): string {
  return l === undefined ? 'passthrough' : typeof l === 'string' ? l : JSON.stringify(l);
}

function checkTz(tz: string): void {
  try { new Intl.DateTimeFormat('en', { timeZone: tz }); } catch { throw invalid('timezone', 'unknown IANA time zone'); }
}
