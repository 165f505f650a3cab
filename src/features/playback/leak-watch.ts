import { createHmac, randomBytes } from 'node:crypto';
import type { LeakRules } from './policy';
import { addressKey } from './session-limits';

/** Where one session was seen from: one viewer address (an IPv6 one by its /64). */
interface Sighting { hash: string; country: string | null; asn: number | null; first: number; last: number; requests: number; uas: Set<string> }

/** The evidence kept with a leak suspicion (addresses only as keyed hashes). */
export interface LeakEvidence {
  window_s: number;
  limits: { max_addresses: number; max_networks: number; max_countries: number };
  counts: { addresses: number; networks: number; countries: number; requests: number };
  addresses: { hash: string; country: string | null; asn: number | null; first_seen: string; last_seen: string; requests: number; user_agents: string[] }[];
  asns: number[]; countries: string[]; user_agents: string[];
}

/** A session over its limits: why, and the evidence. */
export interface LeakFinding { reason: string; evidence: LeakEvidence; counts: LeakEvidence['counts'] }

const MAX_SESSIONS = 200_000;
const MAX_ADDRESSES_PER_SESSION = 64;
const MAX_UAS = 8;

/**
 * Pure bookkeeping of where each playback session is seen from, within its policy's sliding window: distinct
 * addresses, networks (ASNs) and countries. `see` returns a finding when a session goes over a limit, and again
 * whenever its counts grow past what was last reported (the evidence is then updated). Addresses are hashed with a
 * key that lives only in this process (comparable within a run, never reversible); memory is bounded (sessions,
 * addresses per session, user agents per address).
 */
export class LeakWatch {
  private bySid = new Map<string, { seen: Map<string, Sighting>; reported: number }>();
  private readonly key = randomBytes(32);

  /** Records one request of `sid` from `ip` at `nowMs` under `rules`; a finding when over a limit (and grown). */
  see(sid: string, ip: string, ua: string | null, net: () => { country: string | null; asn: number | null }, rules: LeakRules, nowMs: number): LeakFinding | null {
    let e = this.bySid.get(sid);
    if (!e) {
      if (this.bySid.size >= MAX_SESSIONS) this.drop(nowMs, rules.window_s);
      e = { seen: new Map(), reported: 0 };
      this.bySid.set(sid, e);
    }
    const since = nowMs - rules.window_s * 1000;
    for (const [k, s] of e.seen) if (s.last < since) e.seen.delete(k);
    const k = addressKey(ip);
    let s = e.seen.get(k);
    if (!s) {
      if (e.seen.size >= MAX_ADDRESSES_PER_SESSION) return null; // already far over any limit: the evidence is kept as it is
      s = { hash: createHmac('sha256', this.key).update(k).digest('hex').slice(0, 16), ...net(), first: nowMs, last: nowMs, requests: 0, uas: new Set() };
      e.seen.set(k, s);
    }
    s.last = nowMs; s.requests++;
    if (ua && s.uas.size < MAX_UAS) s.uas.add(ua.slice(0, 200));
    const all = [...e.seen.values()];
    const asns = [...new Set(all.flatMap((x) => (x.asn === null ? [] : [x.asn])))];
    const countries = [...new Set(all.flatMap((x) => (x.country === null ? [] : [x.country])))];
    const counts = { addresses: all.length, networks: asns.length, countries: countries.length, requests: all.reduce((n, x) => n + x.requests, 0) };
    const over = [
      rules.max_addresses && counts.addresses > rules.max_addresses ? `${counts.addresses} addresses (policy allows ${rules.max_addresses})` : '',
      rules.max_networks && counts.networks > rules.max_networks ? `${counts.networks} networks (policy allows ${rules.max_networks})` : '',
      rules.max_countries && counts.countries > rules.max_countries ? `${counts.countries} countries (policy allows ${rules.max_countries})` : '',
    ].filter(Boolean);
    const size = counts.addresses + counts.networks + counts.countries;
    if (!over.length || size <= e.reported) return null;
    e.reported = size;
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      reason: `session seen from ${over.join(', ')} within ${rules.window_s} s`,
      counts,
      evidence: {
        window_s: rules.window_s,
        limits: { max_addresses: rules.max_addresses, max_networks: rules.max_networks, max_countries: rules.max_countries },
        counts,
        addresses: all.map((x) => ({ hash: x.hash, country: x.country, asn: x.asn, first_seen: iso(x.first), last_seen: iso(x.last), requests: x.requests, user_agents: [...x.uas] })),
        asns, countries, user_agents: [...new Set(all.flatMap((x) => [...x.uas]))].slice(0, 32),
      },
    };
  }

  /** Forgets a session (revoked: nothing more to watch). */
  forget(sid: string): void { this.bySid.delete(sid); }

  /** Drops sessions not seen within the window (all of them when that frees nothing). */
  private drop(nowMs: number, windowS: number): void {
    const since = nowMs - windowS * 1000;
    for (const [sid, e] of this.bySid) if (![...e.seen.values()].some((s) => s.last >= since)) this.bySid.delete(sid);
    if (this.bySid.size >= MAX_SESSIONS) this.bySid.clear();
  }
}
