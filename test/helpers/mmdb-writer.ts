/**
 * A small MaxMind DB (format 2.0) writer for tests: IPv4 tree, 24-bit records, maps/strings/uints/arrays.
 * Lets tests build real .mmdb files that the production reader (the `maxmind` package) opens.
 */
type Val = string | number | Val[] | { [k: string]: Val };

function uintBytes(n: number | bigint): number[] {
  const out: number[] = [];
  let v = BigInt(n);
  while (v > 0n) { out.unshift(Number(v & 0xffn)); v >>= 8n; }
  return out;
}

function ctrl(type: number, size: number): number[] {
  const head = type <= 7 ? [type << 5] : [0, type - 7];
  if (size < 29) { head[0] |= size; return head; }
  if (size < 285) { head[0] |= 29; return [...head, size - 29]; }
  head[0] |= 30;
  const s = size - 285;
  return [...head, (s >> 8) & 0xff, s & 0xff];
}

function enc(v: Val, hint?: 'u16' | 'u32' | 'u64'): number[] {
  if (typeof v === 'string') { const b = [...Buffer.from(v, 'utf8')]; return [...ctrl(2, b.length), ...b]; }
  if (typeof v === 'number') { const b = uintBytes(v); return [...ctrl(hint === 'u16' ? 5 : hint === 'u64' ? 9 : 6, b.length), ...b]; }
  if (Array.isArray(v)) return [...ctrl(11, v.length), ...v.flatMap((x) => enc(x))];
  const keys = Object.keys(v);
  return [...ctrl(7, keys.length), ...keys.flatMap((k) => [...enc(k), ...enc(v[k], k === 'record_size' || k === 'ip_version' || k.startsWith('binary_format') ? 'u16' : k === 'build_epoch' ? 'u64' : undefined)])];
}

interface Node { c: [Node | number | null, Node | number | null] }

/** Builds an IPv4 .mmdb file from CIDR -> record pairs (most specific networks should not overlap). */
export function buildMmdb(databaseType: string, entries: [cidr: string, record: { [k: string]: Val }][]): Uint8Array {
  const data: number[] = [];
  const root: Node = { c: [null, null] };
  for (const [cidr, rec] of entries) {
    const [ip, lenS] = cidr.split('/');
    const bits = ip.split('.').reduce((a, o) => (a << 8n) | BigInt(Number(o)), 0n);
    const len = Number(lenS);
    const offset = data.length;
    data.push(...enc(rec));
    let n = root;
    for (let i = 0; i < len; i++) {
      const b = Number((bits >> BigInt(31 - i)) & 1n);
      if (i === len - 1) { n.c[b] = -1 - offset; break; }
      const next = n.c[b];
      if (next && typeof next === 'object') n = next;
      else { const m: Node = { c: [null, null] }; n.c[b] = m; n = m; }
    }
  }
  const nodes: Node[] = [];
  const walk = (n: Node) => { nodes.push(n); for (const c of n.c) if (c && typeof c === 'object') walk(c); };
  walk(root);
  const index = new Map(nodes.map((n, i) => [n, i]));
  const count = nodes.length;
  const tree: number[] = [];
  const rec = (c: Node | number | null) => (c === null ? count : typeof c === 'object' ? index.get(c)! : count + 16 + (-1 - c));
  for (const n of nodes) for (const c of n.c) { const v = rec(c); tree.push((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff); }
  const meta = enc({
    node_count: count, record_size: 24, ip_version: 4, database_type: databaseType, languages: ['en'],
    binary_format_major_version: 2, binary_format_minor_version: 0, build_epoch: Math.floor(Date.now() / 1000), description: { en: 'ViewStream test database' },
  });
  return new Uint8Array([...tree, ...new Array(16).fill(0), ...data, ...Buffer.from('\xab\xcd\xefMaxMind.com', 'latin1'), ...meta]);
}
