import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { blackoutDetail, type BlackoutIndex, type BlackoutRule, type BlackoutSpan } from './blackout-rules';
import type { DeliveryTarget } from './delivery-table';
import { geoOf } from './geo';
import { programmeById } from '../guide/service';
import { slotKey } from '../../kernel/slots';

/** The 403 a blackout gives a viewer of `country` (`x-vs-refusal: blackout`, plus `headers`). */
function refusal(rule: BlackoutRule, country: string | null, headers: Record<string, string> = {}): AppError {
  return new AppError('forbidden', blackoutDetail(rule, country), { headers: { ...headers, [REFUSAL_HEADER]: 'blackout' } });
}

/** A recording's media segment file: named by its wall-clock start (epoch ms). */
const SEG_MS = /^([0-9]{10,14})\.m4s$/;

/** Header on every blackout refusal (the player shows its slate on it). */
export const REFUSAL_HEADER = 'x-vs-refusal';

/**
 * What a channel delivery request covers of the channel's air time: a media segment its own start; a live playlist
 * or init segment now; a catch-up playlist or init segment its whole range (to now while it grows); a start-over
 * playlist now and its programme.
 */
export function requestSpan(target: DeliveryTarget, file: string | undefined, nowMs: number): BlackoutSpan {
  const seg = file ? SEG_MS.exec(file) : null;
  if (seg) return { fromMs: Number(seg[1]), toMs: Number(seg[1]) + 1, programme: target.programme ?? null };
  if (target.kind === 'catchup' && target.from !== undefined) return { fromMs: target.from, toMs: target.to ?? nowMs + 1 };
  return { fromMs: nowMs, toMs: nowMs + 1, programme: target.programme ?? null };
}

/** The refusal (403 problem, `x-vs-refusal: blackout`) of a channel-family delivery request a blackout covers, or null. */
export function blackoutRefusal(ctx: AppContext, index: BlackoutIndex, tenantId: string, target: DeliveryTarget, file: string | undefined, ip: string | null): AppError | null {
  const country = geoOf(ctx).lookup(ip).country;
  const rule = index.refusing(tenantId, target.id, requestSpan(target, file, ctx.clock.now()), country);
  return rule ? refusal(rule, country) : null;
}

/** What a clip or a live-to-VOD asset was made from: the channel (slug, as blackouts name it) and its air time. */
export interface SourceWindow { channel: string; span: BlackoutSpan }

const SOURCES = slotKey<Map<string, SourceWindow | null>>('playback.blackout.sources');
/** Most source windows remembered (then forgotten all at once). */
const SOURCES_MAX = 20_000;

/** A clip's window of its channel's recording (read-only SQL over the clips and channels tables). */
function clipWindow(ctx: AppContext, tenantId: string, id: string): SourceWindow | null | undefined {
  const r = ctx.db.query<{ start_ms: number; end_ms: number; slug: string | null }, [string, string]>(
    'SELECT c.start_ms, c.end_ms, ch.slug FROM clips c LEFT JOIN channels ch ON ch.id = c.channel_id WHERE c.tenant_id = ? AND c.id = ?').get(tenantId, id);
  if (!r) return undefined;
  return r.slug ? { channel: r.slug, span: { fromMs: r.start_ms, toMs: r.end_ms } } : null;
}

/**
 * A live-to-VOD asset's window (source `{kind: 'live', channel_id, programme_id}` and metadata `recorded_from` /
 * `recorded_to`, as the `vod.publish` job writes them); without a readable window its programme's air time, else all
 * of the channel's time (refused under any of its blackouts rather than played). Null for any other asset.
 */
function assetWindow(ctx: AppContext, tenantId: string, id: string): SourceWindow | null | undefined {
  const r = ctx.db.query<{ source: string; metadata: string }, [string, string]>('SELECT source, metadata FROM assets WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  if (!r) return undefined;
  let src: { kind?: unknown; channel_id?: unknown; programme_id?: unknown }, meta: { recorded_from?: unknown; recorded_to?: unknown };
  try { src = JSON.parse(r.source); meta = JSON.parse(r.metadata); } catch { return null; }
  if (src.kind !== 'live' || typeof src.channel_id !== 'string') return null;
  const slug = ctx.db.query<{ slug: string }, [string, string]>('SELECT slug FROM channels WHERE tenant_id = ? AND id = ?').get(tenantId, src.channel_id)?.slug;
  if (!slug) return null;
  const programme = typeof src.programme_id === 'string' ? src.programme_id : null;
  const from = typeof meta.recorded_from === 'string' ? Date.parse(meta.recorded_from) : NaN, to = typeof meta.recorded_to === 'string' ? Date.parse(meta.recorded_to) : NaN;
  if (Number.isFinite(from) && Number.isFinite(to) && to > from) return { channel: slug, span: { fromMs: from, toMs: to, programme } };
  const p = programme ? programmeById(ctx, tenantId, programme) : null;
  if (p) return { channel: slug, span: { fromMs: p.play_start_ms ?? p.start_ms, toMs: p.play_end_ms ?? p.end_ms, programme } };
  return { channel: slug, span: { fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, programme } };
}

/**
 * The channel air time a clip or an asset recorded from a channel (live-to-VOD) was made from, or null (anything else,
 * or not found). A clip's window and an asset's source never change: remembered per target once found.
 */
export function sourceWindow(ctx: AppContext, tenantId: string, kind: string, id: string): SourceWindow | null {
  if (kind !== 'clip' && kind !== 'asset') return null;
  const memo = ctx.slots.get(SOURCES, () => new Map<string, SourceWindow | null>());
  const k = `${tenantId}|${kind}|${id}`;
  const known = memo.get(k);
  if (known !== undefined) return known;
  const v = kind === 'clip' ? clipWindow(ctx, tenantId, id) : assetWindow(ctx, tenantId, id);
  if (v === undefined) return null; // not (yet) there: asked again next time
  if (memo.size >= SOURCES_MAX) memo.clear();
  memo.set(k, v);
  return v;
}

/**
 * The refusal (403 problem, `x-vs-refusal: blackout`) of a clip or asset delivery request when what it was made from
 * aired inside a blackout of its channel that refuses the viewer's country, or null. The first test is one set lookup:
 * tenants without blackouts pay nothing more.
 */
export function sourceBlackoutRefusal(ctx: AppContext, index: BlackoutIndex, tenantId: string, target: DeliveryTarget, ip: string | null): AppError | null {
  if (!index.anyOf(tenantId)) return null;
  const w = sourceWindow(ctx, tenantId, target.kind, target.id);
  if (!w || !index.any(tenantId, w.channel)) return null;
  const country = geoOf(ctx).lookup(ip).country;
  const rule = index.refusing(tenantId, w.channel, w.span, country);
  return rule ? refusal(rule, country) : null;
}

/** True when a blackout may apply to the target's source (the front must then ask for every request: no grant). */
export function sourceBlackedOut(ctx: AppContext, index: BlackoutIndex, tenantId: string, target: DeliveryTarget): boolean {
  if (!index.anyOf(tenantId)) return false;
  const w = sourceWindow(ctx, tenantId, target.kind, target.id);
  return w !== null && index.any(tenantId, w.channel);
}

/**
 * The refusal the session issuer (and the token API, when it names the viewer) gives a viewer of `country` for a
 * channel, catch-up or start-over target that a blackout covers, or null. A start-over covers its programme's air time.
 * A clip or a live-to-VOD asset covers the air time it was made from (`sourceWindow`).
 */
export function targetBlackout(ctx: AppContext, index: BlackoutIndex, tenantId: string, target: { kind: string; id: string; from?: number; to?: number | null; programme?: string }, country: string | null, headers: Record<string, string> = {}): AppError | null {
  if ((target.kind === 'clip' || target.kind === 'asset') && index.anyOf(tenantId)) {
    const w = sourceWindow(ctx, tenantId, target.kind, target.id);
    const rule = w && index.refusing(tenantId, w.channel, w.span, country);
    return rule ? refusal(rule, country, { ...headers, 'access-control-expose-headers': REFUSAL_HEADER }) : null;
  }
  if ((target.kind !== 'channel' && target.kind !== 'catchup' && target.kind !== 'startover') || !index.any(tenantId, target.id)) return null;
  const now = ctx.clock.now();
  let span: BlackoutSpan = { fromMs: now, toMs: now + 1, programme: target.programme ?? null };
  if (target.kind === 'catchup' && target.from !== undefined) span = { fromMs: target.from, toMs: target.to ?? now + 1 };
  if (target.kind === 'startover' && target.programme) {
    const p = programmeById(ctx, tenantId, target.programme);
    if (p) span = { fromMs: p.play_start_ms ?? p.start_ms, toMs: Math.min(p.play_end_ms ?? p.end_ms, now + 1), programme: target.programme };
  }
  const rule = index.refusing(tenantId, target.id, span, country);
  return rule ? refusal(rule, country, { ...headers, 'access-control-expose-headers': REFUSAL_HEADER }) : null;
}
