import type { AppContext } from '../../kernel/context';
import type { Db } from '../../kernel/db/sqlite';
import { slotKey } from '../../kernel/slots';
import { exclusionMatcher } from '../guide/exclusions';
import { exclusionRules } from '../guide/service';
import { recordedRenditions, recordedSpansInRange } from '../channels/service';

/** A public video (a ready, published, untrashed asset). */
export interface VideoRec { id: string; title: string; description: string; tags: string[]; duration_s: number | null; published_at: number; output: string | null; poster: boolean; /** The programme it was published from (live-to-VOD), for its article. */ programme_id: string | null }
/** A guide programme with what availability needs. */
export interface ProgRec {
  id: string; channel_id: string; title: string; description: string | null; series: string | null; episode: string | null; images: string;
  start_ms: number; end_ms: number; play_start_ms: number | null; play_end_ms: number | null; excluded: boolean;
}
/** A channel. */
export interface ChannelRec { id: string; slug: string; name: string; retention_ms: number; retention_from: number; first_recorded: number | null; rendition: string | null }
/** A ready or final clip. */
export interface ClipRec { id: string; channel_id: string; title: string | null; start_ms: number; end_ms: number; status: string; created_at: number }

/** The public catalogue of one tenant as one snapshot (reloaded only when the tables changed; checked at most once a second). */
export interface Catalogue {
  tenantId: string; loadedAt: number; checkedAt: number; recordedAt: number; fingerprint: string;
  videos: VideoRec[]; videoById: Map<string, VideoRec>;
  programmes: ProgRec[]; progById: Map<string, ProgRec>;
  channels: ChannelRec[]; channelById: Map<string, ChannelRec>; channelBySlug: Map<string, ChannelRec>;
  clips: ClipRec[]; clipById: Map<string, ClipRec>;
}

const CATALOGUES = slotKey<Map<string, Catalogue>>('sites.catalogues');
/** The slot's first value (one function, not a closure per call: `catalogue` runs on the fast lane's path). */
const newCatalogues = () => new Map<string, Catalogue>();

/**
 * The tenant's catalogue change counter (migration 0236: triggers on every table the catalogue reads bump it), so the
 * once-a-second check is one primary-key read however large the catalogue is and whatever else is written.
 */
function fingerprint(db: Db, tenantId: string): string {
  const r = db.query<{ n: number }, [string]>('SELECT n FROM sites_changes WHERE tenant_id = ?').get(tenantId);
  return String(r?.n ?? 0);
}

function load(ctx: AppContext, tenantId: string, fp: string, now: number): Catalogue {
  const db = ctx.db;
  const videos = db.query<{ id: string; title: string; metadata: string; duration_s: number | null; published_at: number | null; updated_at: number; output: string | null }, [string]>(
    "SELECT id, title, metadata, duration_s, published_at, updated_at, output FROM assets WHERE tenant_id = ? AND status = 'ready' AND published = 1 AND deleted_at IS NULL ORDER BY seq DESC",
  ).all(tenantId).map((a): VideoRec => {
    let m: { description?: unknown; tags?: unknown; programme_id?: unknown } = {};
    try { m = JSON.parse(a.metadata) as typeof m; } catch { /* kept empty */ }
    return {
      id: a.id, title: a.title, description: typeof m.description === 'string' ? m.description : '', tags: Array.isArray(m.tags) ? m.tags.filter((x): x is string => typeof x === 'string') : [],
      duration_s: a.duration_s, published_at: a.published_at ?? a.updated_at, output: a.output, poster: !!a.output,
      programme_id: typeof m.programme_id === 'string' ? m.programme_id : null,
    };
  });
  const chRows = db.query<{ id: string; slug: string; name: string; recording_enabled: number; retention_hours: number; dvr_window_s: number }, [string]>(
    'SELECT id, slug, name, recording_enabled, retention_hours, dvr_window_s FROM channels WHERE tenant_id = ? ORDER BY seq',
  ).all(tenantId);
  const channels = chRows.map((c): ChannelRec => recording(ctx, { id: c.id, slug: c.slug, name: c.name, retention_from: 0, first_recorded: null, rendition: null, retention_ms: c.recording_enabled ? c.retention_hours * 3_600_000 : c.dvr_window_s * 1000 }, now));
  const oldest = Math.min(now, ...channels.map((c) => c.retention_from));
  const excluded = exclusionMatcher(exclusionRules(ctx, tenantId));
  const programmes = db.query<Omit<ProgRec, 'excluded'>, [string, number]>(
    'SELECT id, channel_id, title, description, series, episode, images, start_ms, end_ms, play_start_ms, play_end_ms FROM programmes WHERE tenant_id = ? AND end_ms >= ? ORDER BY start_ms DESC',
  ).all(tenantId, oldest).map((p) => ({ ...p, excluded: excluded(p) }));
  const clips = db.query<ClipRec, [string]>("SELECT id, channel_id, title, start_ms, end_ms, status, created_at FROM clips WHERE tenant_id = ? AND status IN ('ready', 'final') ORDER BY seq DESC").all(tenantId);
  return {
    tenantId, loadedAt: now, checkedAt: now, recordedAt: now, fingerprint: fp,
    videos, videoById: new Map(videos.map((v) => [v.id, v])),
    programmes, progById: new Map(programmes.map((p) => [p.id, p])),
    channels, channelById: new Map(channels.map((c) => [c.id, c])), channelBySlug: new Map(channels.map((c) => [c.slug, c])),
    clips, clipById: new Map(clips.map((c) => [c.id, c])),
  };
}

/** Fills a channel's recording facts in place: retention start, first recorded instant inside it, rendition. */
function recording(ctx: AppContext, c: ChannelRec, now: number): ChannelRec {
  c.retention_from = now - c.retention_ms;
  const r = recordedRenditions(ctx, c.id);
  c.rendition = r.includes('src') ? 'src' : r[0] ?? null;
  const spans = c.rendition ? recordedSpansInRange(ctx, c.id, c.rendition, c.retention_from, now + 1) : [];
  c.first_recorded = spans.length ? spans[0]! : null;
  return c;
}

/** The tenant's catalogue snapshot: tables checked for changes at most once a second, reloaded only when they changed. */
export function catalogue(ctx: AppContext, tenantId: string): Catalogue {
  const m = ctx.slots.get(CATALOGUES, newCatalogues);
  const now = ctx.clock.now();
  const cur = m.get(tenantId);
  if (cur && now - cur.checkedAt < 1000 && now >= cur.checkedAt) return cur;
  const fp = fingerprint(ctx.db, tenantId);
  if (cur && cur.fingerprint === fp) {
    // Unchanged tables: the same snapshot (and search index); recording facts refreshed in place every 10 s.
    if (now - cur.recordedAt >= 10_000) { for (const c of cur.channels) recording(ctx, c, now); cur.recordedAt = now; }
    cur.checkedAt = now;
    return cur;
  }
  const next = load(ctx, tenantId, fp, now);
  m.set(tenantId, next);
  return next;
}

/**
 * Catch-up availability (the seed's rule): the programme ended, began inside the channel's retention and after its
 * first recorded minute, and is not excluded.
 */
export function offersCatchup(p: ProgRec, ch: ChannelRec | undefined, now: number): boolean {
  if (!ch || p.excluded || p.end_ms > now) return false;
  return p.start_ms >= ch.retention_from && ch.first_recorded !== null && p.start_ms >= ch.first_recorded - 60_000;
}

/** Start-over availability: the programme airs now and its start was recorded. */
export function offersStartOver(ctx: AppContext, p: ProgRec, ch: ChannelRec | undefined, now: number): boolean {
  if (!ch || !ch.rendition || p.excluded || !(p.start_ms <= now && now < p.end_ms)) return false;
  const spans = recordedSpansInRange(ctx, ch.id, ch.rendition, p.start_ms, p.start_ms + 10_000);
  return spans.length > 0 && spans[0]! <= p.start_ms + 10_000;
}
