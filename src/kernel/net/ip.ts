/**
 * IP address parsing and classification for the safe fetcher: every IPv4 spelling inet_aton accepts
 * (decimal, octal, hex, 1-4 parts), IPv6 (with `::`, embedded dotted IPv4, zone ids), CIDR matching, and the
 * table of address ranges that must never be reached from a customer-supplied URL.
 */

/** A parsed address: family and its value as an unsigned integer (32 or 128 bits). */
export interface Ip { v: 4 | 6; n: bigint }

const V4_PART = /^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i;

/** Parses IPv4 in any inet_aton spelling ("127.1", "0x7f.0.0.1", "017700000001", "2130706433"); null if not one. */
export function parseIpv4(s: string): bigint | null {
  if (!s || s.length > 64) return null;
  const parts = s.replace(/\.$/, '').split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: bigint[] = [];
  for (const p of parts) {
    if (!V4_PART.test(p)) return null;
    let n: bigint;
    if (/^0x/i.test(p)) n = p.length === 2 ? 0n : BigInt(p);
    else if (p.length > 1 && p[0] === '0') n = BigInt('0o' + p.slice(1));
    else n = BigInt(p);
    nums.push(n);
  }
  const last = nums.pop()!;
  for (const n of nums) if (n > 255n) return null;
  if (last >= 1n << BigInt(8 * (4 - nums.length))) return null;
  let v = 0n;
  nums.forEach((n, i) => { v |= n << BigInt(8 * (3 - i)); });
  return v | last;
}

/** Parses IPv6 text (brackets, `::`, trailing dotted IPv4 and `%zone` allowed); null if not IPv6. */
export function parseIpv6(s: string): bigint | null {
  let t = s.startsWith('[') && s.endsWith(']') ? s.slice(1, -1) : s;
  const pct = t.indexOf('%');
  if (pct >= 0) t = t.slice(0, pct);
  if (!t.includes(':') || t.length > 64) return null;
  const lastColon = t.lastIndexOf(':');
  const maybeV4 = t.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(maybeV4)) return null;
    const q = maybeV4.split('.').map(Number);
    if (q.some((x) => x > 255)) return null;
    t = t.slice(0, lastColon + 1) + ((q[0] << 8) | q[1]).toString(16) + ':' + ((q[2] << 8) | q[3]).toString(16);
  }
  const dbl = t.split('::');
  if (dbl.length > 2) return null;
  const group = (x: string) => (x === '' ? [] : x.split(':'));
  const head = group(dbl[0]);
  const rest = dbl.length === 2 ? group(dbl[1]) : [];
  const hex = (g: string) => (/^[0-9a-f]{1,4}$/i.test(g) ? BigInt('0x' + g) : null);
  const hs = head.map(hex), rs = rest.map(hex);
  if (hs.includes(null) || rs.includes(null)) return null;
  const total = hs.length + rs.length;
  if (dbl.length === 1 ? total !== 8 : total > 7) return null;
  const groups = [...(hs as bigint[]), ...Array(8 - total).fill(0n), ...(rs as bigint[])];
  return groups.reduce((acc: bigint, g: bigint) => (acc << 16n) | g, 0n);
}

/** Parses an IPv4 (any spelling) or IPv6 literal; null for a host name. */
export function parseIp(s: string): Ip | null {
  const v6 = parseIpv6(s);
  if (v6 !== null) return { v: 6, n: v6 };
  const v4 = parseIpv4(s);
  return v4 !== null ? { v: 4, n: v4 } : null;
}

/** Canonical text of an address (dotted quad or compressed-less full IPv6), for logs and connecting. */
export function formatIp(ip: Ip): string {
  if (ip.v === 4) return [24n, 16n, 8n, 0n].map((s) => String((ip.n >> s) & 255n)).join('.');
  const g: string[] = [];
  for (let i = 7; i >= 0; i--) g.push(((ip.n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return g.join(':');
}

/** A CIDR block. */
export interface Cidr { v: 4 | 6; net: bigint; bits: number }

/** Parses "10.0.0.0/8", "fd00::/8" or a bare address (a /32 or /128); throws on malformed text. */
export function parseCidr(s: string): Cidr {
  const [addr, len] = s.trim().split('/');
  const ip = parseIp(addr);
  if (!ip) throw new Error(`invalid CIDR "${s}"`);
  const max = ip.v === 4 ? 32 : 128;
  const bits = len === undefined ? max : Number(len);
  if (!Number.isInteger(bits) || bits < 0 || bits > max) throw new Error(`invalid CIDR prefix "${s}"`);
  return { v: ip.v, net: ip.n & mask(ip.v, bits), bits };
}

function mask(v: 4 | 6, bits: number): bigint {
  const max = v === 4 ? 32 : 128;
  return bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(max - bits);
}

/** True when `ip` lies inside `c`. */
export function inCidr(ip: Ip, c: Cidr): boolean {
  return ip.v === c.v && (ip.n & mask(c.v, c.bits)) === c.net;
}

const BLOCKED_V4: [string, string][] = [
  ['0.0.0.0/8', 'unspecified / this network'], ['10.0.0.0/8', 'private'], ['100.64.0.0/10', 'CGNAT shared space'],
  ['127.0.0.0/8', 'loopback'], ['169.254.0.0/16', 'link-local'], ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'], ['192.0.2.0/24', 'documentation'], ['192.88.99.0/24', '6to4 relay'],
  ['192.168.0.0/16', 'private'], ['198.18.0.0/15', 'benchmarking'], ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'], ['224.0.0.0/4', 'multicast'], ['240.0.0.0/4', 'reserved / broadcast'],
];
const BLOCKED_V6: [string, string][] = [
  ['::/128', 'unspecified'], ['::1/128', 'loopback'], ['::/96', 'IPv4-compatible (deprecated)'],
  ['100::/64', 'discard'], ['64:ff9b:1::/48', 'local NAT64'], ['2001::/32', 'Teredo'], ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'unique local (private)'], ['fe80::/10', 'link-local'], ['fec0::/10', 'site-local'], ['ff00::/8', 'multicast'],
];
/** IPv6 ranges that embed an IPv4 address: mapped, translated, NAT64 (low 32 bits) and 6to4 (bits 16-48). */
const EMBEDS: { c: Cidr; name: string; shift: bigint }[] = [
  { c: parseCidr('::ffff:0:0/96'), name: 'IPv4-mapped', shift: 0n },
  { c: parseCidr('::ffff:0:0:0/96'), name: 'IPv4-translated', shift: 0n },
  { c: parseCidr('64:ff9b::/96'), name: 'NAT64', shift: 0n },
  { c: parseCidr('2002::/16'), name: '6to4', shift: 80n },
];
const V4_TABLE = BLOCKED_V4.map(([c, why]) => ({ c: parseCidr(c), why }));
const V6_TABLE = BLOCKED_V6.map(([c, why]) => ({ c: parseCidr(c), why }));

/**
 * Why an address must not be contacted (e.g. "loopback", "IPv4-mapped loopback"), or null when it is public
 * or inside `allow` (the operator's exempt CIDRs). Embedded IPv4 forms are judged by the IPv4 they carry.
 */
export function blockedReason(ip: Ip, allow: Cidr[] = []): string | null {
  if (allow.some((c) => inCidr(ip, c))) return null;
  if (ip.v === 4) return V4_TABLE.find((r) => inCidr(ip, r.c))?.why ?? null;
  for (const e of EMBEDS) {
    if (!inCidr(ip, e.c)) continue;
    const inner: Ip = { v: 4, n: (ip.n >> e.shift) & 0xffffffffn };
    const why = blockedReason(inner, allow);
    return why ? `${e.name} ${why}` : null;
  }
  return V6_TABLE.find((r) => inCidr(ip, r.c))?.why ?? null;
}
