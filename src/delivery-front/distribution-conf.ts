/**
 * Pure pieces of the front's nginx configuration for CDN distributions (issue 46; docs/edge.md): one server block per
 * distribution, chosen by Host. An external origin is proxied at the addresses checked when the configuration was made
 * (pinned: DNS cannot swap them afterwards) and cached in the edge cache under `d|<id>|<path and query per the
 * rules>`, with TTL overrides per path pattern, allowed methods, `X-Cache-Status`, the fill log (tag index, purge) and
 * the usage log (`cdn` report). A `delivery` origin passes the tenant's playback paths to the front's own server (gate,
 * grants and cache unchanged) over a private socket that carries the viewer's address. A disabled distribution answers
 * 421; one whose origin no longer resolves to an allowed address answers 502.
 */

/** Cache rules of one distribution (as stored, defaults filled in). */
export interface DistRules {
  ttl_overrides: { path: string; ttl_s: number }[];
  default_ttl_s: number;
  query_string: 'include' | 'ignore' | 'allow_list';
  query_allow: string[];
}

/** An external origin ready to render: its URL's parts and the checked addresses. */
export interface DistUrlOrigin { kind: 'url'; scheme: 'http' | 'https'; host: string; port: number; authority: string; path: string; addresses: string[] }

/** One distribution as the front renders it. */
export interface DistConf {
  id: string; tenant: string; hostnames: string[]; enabled: boolean;
  origin: { kind: 'delivery' } | DistUrlOrigin | { kind: 'unresolved'; why: string };
  rules: DistRules; methods: string[];
  tls: { certificate: string; key: string } | null;
}

/** Everything the distribution servers need from the front. */
export interface DistFront {
  list: DistConf[];
  /** `listen` address of the viewer port (no options: the main server holds them). */
  listen: string;
  /** `listen` address of the TLS port (null: none; distributions with TLS files are then served on the plain port only). */
  tlsListen: string | null;
  /** The usage log (one JSON line per answer; read into the `cdn` report). */
  log: string;
  /** The main server's private socket for delivery-origin distributions. */
  deliverySock: string;
  /** The system CA bundle for https origins (null: origins' certificates are not verified). */
  caBundle: string | null;
  /** Configuration generation: a server named `vsgen-<n>.invalid` answers 204 once this configuration serves. */
  generation: number;
  /** The edge cache's zone and fill log (undefined: cache off, distributions proxy without storing). */
  cache?: { zone: string; fillLog: string };
  problemsBase: string;
}

const HOST = /^[a-z0-9.-]{1,253}$/;
const SAFE = /^[^"\\$\x00-\x1f\x7f;{}\s]*$/;
const PATH = /^\/[A-Za-z0-9._~!*+,=:@%/-]*$/;
const ID = /^[0-9a-f-]{36}$/;

/** Pure: a path pattern (`*` = any characters) as an anchored nginx regular expression. */
export function patternRegex(p: string): string {
  if (!PATH.test(p)) throw new Error(`distribution: unusable path pattern ${JSON.stringify(p)}`);
  return `^${p.replace(/\*/g, '\u0000').replace(/[.+]/g, (c) => `[${c}]`).replace(/\u0000/g, '.*')}$`;
}

/** Pure: the cache key expression of a distribution's rules (the path always; the query whole, none, or allowed names). */
export function cacheKeyOf(id: string, r: DistRules): string {
  const q = r.query_string === 'ignore' ? '' : r.query_string === 'include' ? '$is_args$args'
    : `?${r.query_allow.map((n) => { if (!/^[A-Za-z0-9_]{1,64}$/.test(n)) throw new Error('distribution: bad query name'); return `${n}=\${arg_${n}}`; }).join('&')}`;
  return `d|${id}|$uri${q}`;
}

/** A problem-details body for an nginx `return` (single-quoted; as nginx-conf's own problems). */
function problem(base: string, code: string, status: number, title: string, detail: string): string {
  return `'${JSON.stringify({ type: `${base}/${code}`, title, status, detail }).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The http-level pieces: the usage log's format and each external origin's upstream (its checked addresses). */
export function distributionHttp(f: DistFront): string {
  const out = [`  # CDN distributions: one usage line per answer (cache status from this edge, or from the front for delivery origins).
  log_format vs_cdn escape=json '{"t":$msec,"d":"$vs_dist","ten":"$vs_cten","m":"$request_method","s":$status,"b":$body_bytes_sent,"c":"$upstream_cache_status","ic":"$upstream_http_x_cache_status"}';`];
  if (f.list.some((d) => d.enabled && d.origin.kind === 'delivery')) out.push(`  upstream vs_dist_delivery { server "unix:${f.deliverySock}"; keepalive 16; }`);
  f.list.forEach((d, i) => {
    if (!d.enabled || d.origin.kind !== 'url') return;
    const o = d.origin;
    out.push(`  upstream vs_d_${i} { ${o.addresses.map((a) => `server ${a.includes(':') ? `[${a}]` : a}:${o.port};`).join(' ')} keepalive 8; }`);
  });
  return out.join('\n');
}

/** The location body that proxies an external origin through the cache, with `ttl` the override (null: origin's headers). */
function urlLocation(d: DistConf, i: number, o: DistUrlOrigin, f: DistFront, ttl: number | null): string {
  const base = o.path.replace(/\/+$/, '');
  const cache = !f.cache ? '' : ttl === 0 ? 'proxy_no_cache 1; proxy_cache_bypass 1;' : `proxy_cache ${f.cache.zone}; proxy_cache_key $vs_ckey; proxy_cache_methods GET HEAD;
      proxy_cache_lock on; proxy_cache_revalidate on; proxy_cache_background_update on;${ttl !== null ? `
      proxy_ignore_headers Cache-Control Expires; proxy_cache_valid 200 206 301 302 404 ${ttl}s;` : d.rules.default_ttl_s > 0 ? `
      proxy_cache_valid 200 206 301 302 ${d.rules.default_ttl_s}s;` : ''}
      access_log "${f.cache.fillLog}" vs_fill if=$vs_fill;`;
  const tls = o.scheme === 'https' ? `
      proxy_ssl_server_name on; proxy_ssl_name ${o.host}; ${f.caBundle ? `proxy_ssl_verify on; proxy_ssl_verify_depth 5; proxy_ssl_trusted_certificate "${f.caBundle}";` : ''}` : '';
  return `${methodCheck(d)}
      set $vs_ckey "${cacheKeyOf(d.id, d.rules)}"; set $vs_opath "${base}$request_uri";
      proxy_pass ${o.scheme}://vs_d_${i}$vs_opath; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Host "${o.authority}"; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; proxy_set_header X-Forwarded-Host $host;
      proxy_connect_timeout 10s; proxy_read_timeout 60s;${tls}
      ${cache}
      add_header X-Cache-Status $upstream_cache_status always;
      access_log "${f.log}" vs_cdn buffer=32k flush=250ms;`;
}

/** Methods other than the allowed ones: 405 with `Allow`. */
function methodCheck(d: DistConf): string {
  return `if ($request_method !~ ^(${d.methods.join('|')})$) { return 405; }`;
}

/** Error pages of a distribution server (its own problem answers; an origin's own errors pass as they are). */
function errorPages(d: DistConf, f: DistFront): string {
  return `    error_page 405 /_vs_d/405;
    error_page 502 504 /_vs_d/502;
    location = /_vs_d/405 { internal; default_type application/problem+json; add_header Allow "${d.methods.join(', ')}" always; add_header Cache-Control no-store always; return 405 ${problem(f.problemsBase, 'method_not_allowed', 405, 'Method not allowed', `this distribution allows ${d.methods.join(', ')}`)}; }
    location = /_vs_d/502 { internal; default_type application/problem+json; add_header Cache-Control no-store always; return 502 ${problem(f.problemsBase, 'internal_error', 502, 'Bad Gateway', 'the origin did not answer')}; }`;
}

/** One distribution's server block(s). */
function server(d: DistConf, i: number, f: DistFront): string {
  if (!ID.test(d.id) || !ID.test(d.tenant)) throw new Error('distribution: unusable id');
  for (const h of d.hostnames) if (!HOST.test(h)) throw new Error(`distribution: unusable hostname ${JSON.stringify(h)}`);
  if (d.tls && (!SAFE.test(d.tls.certificate) || !SAFE.test(d.tls.key))) throw new Error('distribution: unusable TLS path');
  const tls = d.tls && f.tlsListen ? `
    listen ${f.tlsListen} ssl; ssl_certificate "${d.tls.certificate}"; ssl_certificate_key "${d.tls.key}";` : '';
  const head = `  server {
    listen ${f.listen};${tls}
    server_name ${d.hostnames.join(' ')};
    merge_slashes off;
    set $vs_dist "${d.id}"; set $vs_cten "${d.tenant}";`;
  if (!d.enabled) {
    return `${head}
    access_log off;
    location / { default_type application/problem+json; add_header Cache-Control no-store always; return 421 ${problem(f.problemsBase, 'not_found', 421, 'Misdirected Request', 'this hostname\'s distribution is disabled')}; }
  }`;
  }
  const o = d.origin;
  if (o.kind === 'unresolved') {
    return `${head}
    access_log "${f.log}" vs_cdn buffer=32k flush=250ms;
    location / { default_type application/problem+json; add_header Cache-Control no-store always; return 502 ${problem(f.problemsBase, 'internal_error', 502, 'Bad Gateway', 'the distribution\'s origin is not usable now')}; }
  }`;
  }
  if (o.kind === 'delivery') {
    const pass = (p: string) => `    location ${p} {
      ${methodCheck(d)}
      proxy_pass http://vs_dist_delivery; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host;
      proxy_set_header X-Vs-Dist-Peer $remote_addr; proxy_read_timeout 120s; proxy_redirect off;
      access_log "${f.log}" vs_cdn buffer=32k flush=250ms;
    }`;
    return `${head}
    access_log off;
${errorPages(d, f)}
${['/t/', '/m/', '/live/'].map(pass).join('\n')}
    location / { default_type application/problem+json; add_header Cache-Control no-store always; return 404 ${problem(f.problemsBase, 'not_found', 404, 'Not Found', 'this hostname serves playback delivery only (/t/, /m/, /live/)')}; }
  }`;
  }
  const overrides = d.rules.ttl_overrides.map((r) => `    location ~ "${patternRegex(r.path)}" {
      ${urlLocation(d, i, o, f, r.ttl_s)}
    }`);
  return `${head}
    access_log off;
    client_max_body_size 1m;
${errorPages(d, f)}
${overrides.join('\n')}
    location / {
      ${urlLocation(d, i, o, f, null)}
    }
  }`;
}

/** The server blocks of every distribution, and the generation marker (a reload is over once it answers). */
export function distributionServers(f: DistFront): string {
  return [...f.list.map((d, i) => server(d, i, f)),
    `  server { listen ${f.listen}; server_name ${generationHost(f.generation)}; set $vs_dist ""; set $vs_cten ""; access_log off; location / { return 204; } }`].join('\n');
}

/** The name the generation marker answers on (see `DistFront.generation`). */
export function generationHost(generation: number): string {
  return `vsgen-${Math.trunc(generation)}.invalid`;
}
