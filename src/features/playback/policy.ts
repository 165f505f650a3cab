/** Rules of a playback policy (stored as JSON; every field optional on input, defaults below). */
export interface PolicyRules {
  /** Unsigned delivery paths of attached targets answer 403; playback needs a token. */
  require_token: boolean;
  /** VOD is delivered only as AES-128 HLS (`.../aes/master.m3u8`); clear HLS, DASH and the MP4 download are refused. */
  require_encryption: boolean;
  /** TTL used when a token request says `ttl_s: 0` (seconds, 1-604800). */
  default_ttl_s: number;
  /** Bind tokens to the viewer IP (from `viewer_ip`, or the caller's address for player sessions). */
  bind_viewer_ip: boolean;
  /** Page origins allowed to open player sessions (`https://news.example.com`, `*.example.com`); empty = any. */
  referrers: string[];
  /** ISO country codes: allow-list (empty = all) and deny-list; needs a country for the viewer. */
  countries: { allow: string[]; deny: string[] };
  /** Refused autonomous system numbers. */
  asn_deny: number[];
  /** Refuse well-known hosting/datacenter networks (by ASN). */
  block_datacenters: boolean;
  /** Player sessions per viewer address per minute (0 = the default, `SESSION_LIMITS.defaultPerIpPerMin`). */
  sessions_per_ip_per_min: number;
  /** Leak detection (leak-watch.ts): limits of one playback session within a sliding window; 0 = no limit. */
  leaks: LeakRules;
  /** A/B forensic watermark (features/watermark): `ab` encodes a second variant and serves each session its own sequence. */
  watermark: WatermarkRules;
}

/** Watermark setting of a policy: off (default) or session-based A/B marking of VOD segments. */
export interface WatermarkRules { mode: 'off' | 'ab' }

/** How many addresses, networks (ASNs) and countries one session may be seen from within `window_s`. */
export interface LeakRules { max_addresses: number; max_networks: number; max_countries: number; window_s: number; auto_revoke: boolean }

/** Leak rules when a policy sets none: no limits (detection off). */
export const DEFAULT_LEAK_RULES: LeakRules = { max_addresses: 0, max_networks: 0, max_countries: 0, window_s: 300, auto_revoke: false };

/** Rules that apply when no policy is attached: open playback, one-hour tokens. */
export const DEFAULT_RULES: PolicyRules = {
  require_token: false, require_encryption: false, default_ttl_s: 3600, bind_viewer_ip: false, referrers: [],
  countries: { allow: [], deny: [] }, asn_deny: [], block_datacenters: false, sessions_per_ip_per_min: 0,
  leaks: DEFAULT_LEAK_RULES, watermark: { mode: 'off' },
};

/** ASNs of large hosting providers (AWS, Google Cloud, Azure, DigitalOcean, OVH, Hetzner, Linode, Oracle). */
export const DATACENTER_ASNS = new Set([16509, 14618, 15169, 396982, 8075, 14061, 16276, 24940, 63949, 31898]);

/** Policy rules as accepted on input (every field optional). */
export type RulesInput = Partial<Omit<PolicyRules, 'countries' | 'leaks' | 'watermark'>> & { countries?: { allow?: string[]; deny?: string[] }; leaks?: Partial<LeakRules>; watermark?: Partial<WatermarkRules> };

/** Merges partial input over defaults. */
export function normalizeRules(input: RulesInput, base: PolicyRules = DEFAULT_RULES): PolicyRules {
  return {
    ...base, ...input,
    countries: { allow: (input.countries?.allow ?? base.countries.allow).map((c) => c.toUpperCase()), deny: (input.countries?.deny ?? base.countries.deny).map((c) => c.toUpperCase()) },
    referrers: input.referrers ?? base.referrers,
    asn_deny: input.asn_deny ?? base.asn_deny,
    leaks: { ...DEFAULT_LEAK_RULES, ...base.leaks, ...input.leaks },
    watermark: { ...DEFAULT_RULES.watermark, ...base.watermark, ...input.watermark },
  };
}

/** True when `origin` (a page origin or URL) matches one of the allowed referrer patterns. */
export function referrerAllowed(rules: PolicyRules, origin: string | null): boolean {
  if (!rules.referrers.length) return true;
  if (!origin) return false;
  let host: string, full: string;
  try { const u = new URL(origin); host = u.hostname.toLowerCase(); full = `${u.protocol}//${u.host}`.toLowerCase(); } catch { return false; }
  return rules.referrers.some((r) => {
    const p = r.toLowerCase().replace(/\/+$/, '');
    if (p.startsWith('*.')) return host.endsWith(p.slice(1)) && host.length > p.length - 1;
    if (p.includes('://')) return full === p;
    return host === p;
  });
}

/** Why a viewer is refused by network rules, or null when allowed. `country`/`asn` may be unknown (null). */
export function networkRefusal(rules: PolicyRules, viewer: { country: string | null; asn: number | null }): string | null {
  const c = viewer.country?.toUpperCase() ?? null;
  if (rules.countries.allow.length && (!c || !rules.countries.allow.includes(c))) return c ? `country ${c} is not allowed` : 'viewer country unknown and the policy allows only listed countries';
  if (c && rules.countries.deny.includes(c)) return `country ${c} is blocked`;
  if (viewer.asn !== null && rules.asn_deny.includes(viewer.asn)) return `network AS${viewer.asn} is blocked`;
  if (viewer.asn !== null && rules.block_datacenters && DATACENTER_ASNS.has(viewer.asn)) return `datacenter network AS${viewer.asn} is blocked`;
  return null;
}
