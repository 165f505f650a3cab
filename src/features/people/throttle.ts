import { AppError } from '../../kernel/errors';
import { slotKey, type Slots } from '../../kernel/slots';

/** The one answer to a password that was not accepted, whatever route checked it and whatever the reason. */
export const WRONG_CREDENTIALS = 'wrong e-mail address or password';

/** The generic 401 of a refused password (sign-in, invitation acceptance): never says whether the account exists. */
export function wrongCredentials(): AppError {
  return new AppError('invalid_credentials', WRONG_CREDENTIALS);
}

/** Who is attempting: the account (normalised e-mail), the client address, and other keys (an invitation). */
export interface AttemptKeys { account: string; ip: string | null; also?: string[] }

/** One reserved attempt; `settle` it once the password was (or could not be) checked. */
export interface Attempt {
  /** true: the password was right (the account's failures are forgiven); false: the reservation stays counted. */
  settle(ok: boolean): void;
  /** Runs `check` under this reservation: a truthy result settles it as a success, anything else (or a throw) as a failure. */
  run<T>(check: () => Promise<T | null>): Promise<T | null>;
}

interface Ticket { overlapped: boolean }

/**
 * The shared password throttle: every route that checks a password reserves an attempt here BEFORE the slow hash
 * is verified, per account, per client address (IPv6 by its /64) and per extra key (an invitation). A reservation
 * counts at once, so N parallel attempts can never verify more than the limit; past it every attempt, the right
 * password included, is refused with 429 and `Retry-After` until the oldest counted attempt leaves the window.
 * A right password forgives the account's counted attempts, except while other attempts on the account were in
 * flight alongside it (a burst is never a person signing in: it keeps everything counted).
 */
export class PasswordThrottle {
  private hits = new Map<string, number[]>();
  private inflight = new Map<string, Set<Ticket>>();
  constructor(private now: () => number, readonly perAccount = 5, readonly perIp = 20, readonly windowMs = 15 * 60_000, private maxKeys = 100_000) {}

  private recent(key: string): number[] {
    const t = this.now();
    const list = (this.hits.get(key) ?? []).filter((at) => at > t - this.windowMs);
    if (list.length) this.hits.set(key, list); else this.hits.delete(key);
    return list;
  }

  private waitFor(key: string, max: number): number {
    const list = this.recent(key);
    return list.length >= max ? Math.max(1, Math.ceil((list[list.length - max] + this.windowMs - this.now()) / 1000)) : 0;
  }

  /** Seconds until an attempt for these keys would be allowed; 0 when it would be now. */
  wait(who: AttemptKeys): number {
    return Math.max(0, ...this.limits(who).map(([k, max]) => this.waitFor(k, max)));
  }

  private limits(who: AttemptKeys): [string, number][] {
    const out: [string, number][] = [[`a:${who.account}`, this.perAccount]];
    if (who.ip) out.push([`i:${ipKey(who.ip)}`, this.perIp]);
    for (const k of who.also ?? []) out.push([`x:${k}`, this.perAccount]);
    return out;
  }

  /** Reserves (counts) one attempt, or throws 429 `rate_limited` with `Retry-After` when any of its keys is at its limit. */
  reserve(who: AttemptKeys): Attempt {
    const limits = this.limits(who);
    const wait = Math.max(0, ...limits.map(([k, max]) => this.waitFor(k, max)));
    if (wait > 0) throw new AppError('rate_limited', `too many password attempts; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
    const at = this.now();
    for (const [k] of limits) this.hits.set(k, [...this.recent(k), at]);
    this.bound();
    const ticket: Ticket = { overlapped: false };
    const peers = this.inflight.get(who.account) ?? new Set<Ticket>();
    if (peers.size) { ticket.overlapped = true; for (const p of peers) p.overlapped = true; }
    peers.add(ticket);
    this.inflight.set(who.account, peers);
    let settled = false;
    const settle = (ok: boolean) => {
      if (settled) return;
      settled = true;
      peers.delete(ticket);
      if (!peers.size && this.inflight.get(who.account) === peers) this.inflight.delete(who.account);
      if (!ok || ticket.overlapped) return;
      for (const [k] of limits) {
        if (k.startsWith('i:')) {
          const list = this.hits.get(k);
          const i = list?.lastIndexOf(at) ?? -1;
          if (list && i >= 0) { list.splice(i, 1); if (!list.length) this.hits.delete(k); }
        } else this.hits.delete(k);
      }
    };
    return {
      settle,
      async run(check) {
        let out: Awaited<ReturnType<typeof check>> = null;
        try { out = await check(); } finally { settle(!!out); }
        return out;
      },
    };
  }

  /** Forgives an account's counted attempts (a password reset proved the mailbox). */
  forgive(account: string): void { this.hits.delete(`a:${account}`); }

  /** Keeps memory bounded: expired lists go first, then the oldest keys. */
  private bound(): void {
    if (this.hits.size <= this.maxKeys) return;
    for (const k of [...this.hits.keys()]) this.recent(k);
    for (const k of this.hits.keys()) { if (this.hits.size <= this.maxKeys) break; this.hits.delete(k); }
  }
}

/** The client address as a throttle key: an IPv6 address by its /64 (one subscriber's whole prefix), IPv4 as is. */
export function ipKey(ip: string): string {
  if (!ip.includes(':') || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, '');
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const full = [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  return `${full.slice(0, 4).map((x) => x.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const THROTTLE = slotKey<PasswordThrottle>('people.password-throttle');

/** The one password throttle of an appliance (a slot of its context: every route and service of one app shares it). */
export function passwordThrottle(ctx: { slots: Slots; clock: { now(): number } }): PasswordThrottle {
  return ctx.slots.get(THROTTLE, () => new PasswordThrottle(() => ctx.clock.now()));
}
