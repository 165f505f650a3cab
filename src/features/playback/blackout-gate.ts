import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { blackoutDetail, type BlackoutIndex, type BlackoutSpan } from './blackout-rules';
import type { DeliveryTarget } from './delivery-table';
import { geoOf } from './geo';
import { programmeById } from '../guide/service';

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
  return rule ? new AppError('forbidden', blackoutDetail(rule, country), { headers: { [REFUSAL_HEADER]: 'blackout' } }) : null;
}

/**
 * The refusal the session issuer (and the token API, when it names the viewer) gives a viewer of `country` for a
 * channel, catch-up or start-over target that a blackout covers, or null. A start-over covers its programme's air time.
 */
export function targetBlackout(ctx: AppContext, index: BlackoutIndex, tenantId: string, target: { kind: string; id: string; from?: number; to?: number | null; programme?: string }, country: string | null, headers: Record<string, string> = {}): AppError | null {
  if ((target.kind !== 'channel' && target.kind !== 'catchup' && target.kind !== 'startover') || !index.any(tenantId, target.id)) return null;
  const now = ctx.clock.now();
  let span: BlackoutSpan = { fromMs: now, toMs: now + 1, programme: target.programme ?? null };
  if (target.kind === 'catchup' && target.from !== undefined) span = { fromMs: target.from, toMs: target.to ?? now + 1 };
  if (target.kind === 'startover' && target.programme) {
    const p = programmeById(ctx, tenantId, target.programme);
    if (p) span = { fromMs: p.play_start_ms ?? p.start_ms, toMs: Math.min(p.play_end_ms ?? p.end_ms, now + 1), programme: target.programme };
  }
  const rule = index.refusing(tenantId, target.id, span, country);
  return rule ? new AppError('forbidden', blackoutDetail(rule, country), { headers: { ...headers, [REFUSAL_HEADER]: 'blackout', 'access-control-expose-headers': REFUSAL_HEADER } }) : null;
}
