import { isIP } from 'node:net';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { slotKey } from '../../kernel/slots';
import { pruneMarkedSessions } from '../watermark/sessions';
import { PlaybackStore } from './store';

/**
 * Limits of the public player-session issuer (POST /v1/playback/session, no key): the default number of sessions one
 * client address may open per minute when the target's policy sets none (`sessions_per_ip_per_min: 0`), how long an
 * expired session row is kept (beacons of a player that just stopped still find it), and how the sweeper deletes.
 */
export const SESSION_LIMITS = { defaultPerIpPerMin: 120, keepExpiredMs: 10 * 60_000, sweepEveryMs: 60_000, sweepBatch: 5000, maxAddresses: 100_000 } as const;

/**
 * The key one client address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one as its IPv4), an
 * IPv6 address by its /64 (one subscriber's whole prefix), `?` when the address is unknown (counted together).
 */
export function addressKey(ip: string | null): string {
  if (!ip) return '?';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) !== 6) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t] : h;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Per-address counts of opened sessions in fixed one-minute windows (bounded: stale windows are dropped). */
export class SessionRate {
  private byAddress = new Map<string, { minute: number; n: number }>();

  /**
   * Counts one session for `ip` in `bucket` (a policy's own limit, or the shared default) at `nowMs` under `perMin`;
   * throws 429 (Retry-After: seconds to the next minute) past it.
   */
  take(bucket: string, ip: string | null, perMin: number, nowMs: number): void {
    const key = `${bucket}|${addressKey(ip)}`;
    const minute = Math.floor(nowMs / 60_000);
    const c = this.byAddress.get(key);
    if (c && c.minute === minute && c.n >= perMin) {
      const wait = Math.max(1, Math.ceil(((minute + 1) * 60_000 - nowMs) / 1000));
      throw new AppError('rate_limited', `too many playback sessions from this address (at most ${perMin} a minute); retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
    }
    if (c && c.minute === minute) { c.n++; return; }
    if (!c && this.byAddress.size >= SESSION_LIMITS.maxAddresses) this.drop(minute);
    this.byAddress.set(key, { minute, n: 1 });
  }

  /** Forgets every address whose window is over (all of them when that frees nothing). */
  private drop(minute: number): void {
    for (const [k, v] of this.byAddress) if (v.minute !== minute) this.byAddress.delete(k);
    if (this.byAddress.size >= SESSION_LIMITS.maxAddresses) this.byAddress.clear();
  }
}

const RATE = slotKey<SessionRate>('playback.session-rate');
const SWEPT = slotKey<{ at: number }>('playback.session-swept');

/** The session counter of an app (one per application context). */
export function sessionRate(ctx: AppContext): SessionRate {
  return ctx.slots.get(RATE, () => new SessionRate());
}

/**
 * Deletes session rows that expired more than `SESSION_LIMITS.keepExpiredMs` ago, in batches (each its own short
 * statement, so the writer lock is never held long). Returns how many rows went.
 */
export function sweepExpiredSessions(ctx: AppContext): number {
  const store = new PlaybackStore(ctx.db);
  const before = ctx.clock.now() - SESSION_LIMITS.keepExpiredMs;
  let total = 0;
  for (;;) {
    const n = store.deleteExpiredSessions(before, SESSION_LIMITS.sweepBatch);
    total += n;
    if (n < SESSION_LIMITS.sweepBatch) break;
  }
  // Marked sessions (A/B watermark trace candidates) outlive their session rows; they go past the trace retention.
  pruneMarkedSessions(ctx);
  ctx.slots.get(SWEPT, () => ({ at: 0 })).at = ctx.clock.now();
  return total;
}

/**
 * Sweeps when the last sweep is older than `SESSION_LIMITS.sweepEveryMs` (by the app's clock): called by the issuer
 * after it wrote a row, so the table stays bounded by what the last minutes issued even between timer runs.
 */
export function sweepIfDue(ctx: AppContext): void {
  const last = ctx.slots.get(SWEPT, () => ({ at: 0 })).at;
  if (ctx.clock.now() - last >= SESSION_LIMITS.sweepEveryMs) sweepExpiredSessions(ctx);
}

/** Starts the expired-session sweeper of the main process (at start, then every `sweepEveryMs`). */
export function startPlaybackSessionSweeper(ctx: AppContext): void {
  const run = () => {
    try {
      const n = sweepExpiredSessions(ctx);
      if (n) ctx.log.info('expired playback sessions swept', { sessions: n });
    } catch (e) { ctx.log.warn('playback session sweep failed', { error: String(e) }); }
  };
  run();
  const timer = setInterval(run, SESSION_LIMITS.sweepEveryMs);
  ctx.onStop(() => clearInterval(timer));
}
