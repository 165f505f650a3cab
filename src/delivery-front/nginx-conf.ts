import { ACCEL_RANGE, ACCEL_WHOLE } from '../kernel/http/accel';
import { GRANT_CHUNK } from './grants';
import { cacheAlignMaps } from './cache-align';
import { CACHE_ZONE, cachedFileLocation, cachedPlaylistLocation, edgeAppLocations, edgeHttp, edgeOrigin, fileKeyMaps, playlistKeyMaps, type EdgeAppConf, type EdgeCacheConf } from './edge-conf';
import { distributionHttp, distributionServers, type DistFront } from './distribution-conf';

/** What the front's nginx configuration is made of. */
export interface FrontConf {
  /** Address and port the front listens on (the appliance's host: 0.0.0.0 / :: for every address). */
  host: string; port: number;
  /** nginx worker processes (one per core). */
  workers: number;
  /** The appliance's private Unix socket for the front (its decisions come from there). */
  sock: string;
  /** The data directory: the only tree the front sends files from. */
  dataDir: string;
  /** The front's private directory: pid file and nginx's temporary paths. */
  runDir: string;
  /** Problem type base (`config.problemsBase`) for the front's own refusals. */
  problemsBase: string;
  /** Worker user: set only when the appliance runs as root (nginx would otherwise drop to `nobody`). */
  user?: string;
  /**
   * Grants (`FrontGrants`): the directory nginx checks for a token's grant before it sends one of its VOD files on
   * its own, and the spool file its request log lines for those answers go to (read back into the origin log).
   */
  grants?: { dir: string; spool: string };
  /**
   * The request id prefix of the answers nginx sends on its own (random per start, like the appliance's own process
   * prefix): their ids are this plus nginx's worker pid, connection serial and request number on the connection.
   */
  ridPrefix?: string;
  /** Send buffer of each viewer connection (nginx size, e.g. `256k`); unset: the kernel's autotuning. */
  sndbuf?: string;
  /** The edge cache (issue 46): file answers and public cacheable answers go through nginx's proxy_cache. */
  cache?: EdgeCacheConf;
  /** The front's own file origin socket (the cache fills from it); required with `cache`. */
  originSock?: string;
  /** The front holds the public port: everything that is not delivery goes to the appliance's whole-app socket. */
  app?: EdgeAppConf;
  /** CDN distributions (distribution-conf.ts): their servers on the viewer port (and the TLS port, when given). */
  distributions?: Omit<DistFront, 'listen' | 'tlsListen' | 'cache' | 'problemsBase'> & { tlsPort: number | null };
}

// A path nginx reads verbatim inside double quotes: no quote, backslash, variable sign or control character.
const SAFE_PATH = /^\/[^"\\$\x00-\x1f\x7f;{}]*$/;

/** A size as nginx reads it on `listen` (`sndbuf=`): 1-8 digits, then k, m or nothing (bytes); the digits and unit captured. */
export const NGINX_SIZE = /^(\d{1,8})([km]?)$/;

/** True when `p` can stand in the front's configuration as a quoted path. */
export function safeConfPath(p: string): boolean {
  return SAFE_PATH.test(p);
}

/** The `listen` target for the appliance's host (every address for 0.0.0.0 and ::). */
function listenOn(host: string, port: number): string {
  if (host === '' || host === '0.0.0.0') return String(port);
  if (host === '::') return `[::]:${port} ipv6only=off`;
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * A problem-details body nginx returns itself (its own refusals: not delivery, malformed, appliance down), as an nginx
 * single-quoted string: nginx reads `\\` as one backslash and `\'` as a quote, so the JSON's own escapes survive.
 */
function problem(base: string, code: string, status: number, title: string, detail: string): string {
  return `'${JSON.stringify({ type: `${base}/${code}`, title, status, detail }).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Pure: the nginx configuration of the delivery front. nginx answers GET/HEAD delivery paths (/t/, /m/, /live/) by
 * asking the appliance over its private socket, with the viewer's address in `x-vs-peer`; the appliance decides and
 * either answers itself (playlists, keys, refusals: passed through as they are) or names a file of the data
 * directory with `X-Accel-Redirect`, which nginx then sends with sendfile and `tcp_nopush` (the header leaves corked
 * with the file's first bytes). The file locations are internal (no client reaches them), send exactly what the
 * appliance decided (the whole file with ranges off, or the request's single range) and leave conditional requests
 * to the appliance (its validators are added to the answer from its headers). Every other path is a 404 problem.
 *
 * The forwarding rule: nginx matches a location on its normalised URI (percent-decoded, dot segments resolved) but
 * proxies the raw target, which the appliance's HTTP layer would normalise again, differently (`\` is a separator to
 * it, not to nginx). So a request is proxied only when its raw path is byte for byte the URI its location matched and
 * holds no backslash or `#` (`EXACT`): whatever reaches the appliance is exactly what the location was chosen for.
 * Anything else is the front's own 400 problem (no delivery URL is ever percent-encoded or has a dot segment).
 */
export function renderFrontConf(c: FrontConf): string {
  if (c.sndbuf !== undefined && !NGINX_SIZE.test(c.sndbuf)) throw new Error(`delivery front: unusable send buffer size ${JSON.stringify(c.sndbuf)}`);
  // Files through the cache (`cache.files`): filled from the front's own file origin.
  const files = c.cache?.files ? c.cache : undefined;
  if (files && !c.originSock) throw new Error('delivery front: a cache of files needs its file origin socket');
  for (const p of [c.sock, c.dataDir, c.runDir, c.grants?.dir ?? '/', c.grants?.spool ?? '/', c.cache?.dir ?? '/', c.cache?.log ?? '/', c.originSock ?? '/', c.app?.sock ?? '/', c.distributions?.log ?? '/', c.distributions?.deliverySock ?? '/']) if (!safeConfPath(p)) throw new Error(`delivery front: path not usable in nginx's configuration: ${JSON.stringify(p)}`);
  const copy = ['ETag', 'Access-Control-Allow-Origin', 'X-Request-Id', 'Timing-Allow-Origin']
    .map((h) => `add_header ${h} $upstream_http_${h.toLowerCase().replace(/-/g, '_')} always;`).join(' ');
  const file = (prefix: string, ranges: boolean) => files ? cachedFileLocation(prefix, ranges ? 'range' : 'whole', files) :
    `    location ^~ ${prefix} { internal; alias "${c.dataDir}/"; ${ranges ? '' : 'max_ranges 0; '}etag off; if_modified_since off; ${copy} }`;
  const origin = files ? edgeOrigin(c.originSock!, c.dataDir) : null;
  // Prefix locations (no regular expression: a decoded NUL in a URI made PCRE's match fail with a 500).
  // The appliance asked for a request; `uri` set: for that URI instead of the one being processed.
  const proxy = (uri = '') => `proxy_pass http://vs_appliance${uri}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host; proxy_set_header x-vs-peer $remote_addr; proxy_read_timeout 120s; proxy_redirect off;`;
  // The raw target must be exactly the URI the location was matched on (see rawPathMap): otherwise 400, never proxied.
  // /s/v1/: the public Sites Delivery API passes through the front too (with `app`, the edge's own location serves it).
  const ask = ['/t/', '/m/', '/live/', ...(c.app ? [] : ['/s/v1/'])].map((p) => `    location ${p} { ${EXACT} ${proxy()} }`).join('\n');
  const dist: DistFront | null = c.distributions ? {
    ...c.distributions, listen: listenOn(c.host, c.port).split(' ')[0]!,
    tlsListen: c.distributions.tlsPort ? listenOn(c.host, c.distributions.tlsPort).split(' ')[0]! : null,
    cache: c.cache ? { zone: CACHE_ZONE, fillLog: c.cache.log } : undefined, problemsBase: c.problemsBase,
  } : null;
  const tmp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path "${c.runDir}/tmp-${k}";`).join('\n');
  return `# Written by the appliance at each start (delivery front); edits are lost.
worker_processes ${Math.max(1, Math.trunc(c.workers))};
pid "${c.runDir}/nginx.pid";
error_log stderr warn;
daemon off;
# The granted location and its maps match every segment request's path with regular expressions: compiled (JIT).
pcre_jit on;
${c.user ? `user ${c.user};\n` : ''}events { worker_connections 4096; }
http {
  access_log off;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_timeout 120s;
  keepalive_requests 100000;
  client_max_body_size 64k;
${tmp}
  types { }
  default_type application/octet-stream;
${rawPathMap()}
${c.grants ? grantMaps() : ''}
${edgeHttp(c.cache, c.app)}
${files ? fileKeyMaps() : ''}
${files ? cacheAlignMaps() : ''}
${c.cache ? playlistKeyMaps() : ''}
${origin ? origin.upstream : ''}
${dist ? distributionHttp(dist) : ''}
  upstream vs_appliance { server "unix:${c.sock}"; keepalive 64; }
  server {
    # reuseport: an accept queue per worker, connections spread evenly over the cores
    listen ${listenOn(c.host, c.port)} reuseport${c.sndbuf ? ` sndbuf=${c.sndbuf}` : ''};
    merge_slashes off;${dist ? `
    # Delivery-origin distributions pass requests here over a private socket, with the viewer's address.
    listen "unix:${dist.deliverySock}"; set_real_ip_from unix:; real_ip_header X-Vs-Dist-Peer;` : ''}
    # Error pages by URI: a request refused while its request line is read has no URI a named location could use.
    error_page 400 /_vs_problem/400;
    error_page 404 /_vs_problem/404;
    error_page 500 502 503 504 /_vs_problem/502;
${ask}
${c.grants ? grantedLocation(c.dataDir, c.grants.dir, c.grants.spool, proxy('$request_uri'), requestIdOf(c.ridPrefix ?? 'req_front'), files) : ''}
${file(ACCEL_WHOLE, false)}
${file(ACCEL_RANGE, true)}
${c.cache ? cachedPlaylistLocation('vs_appliance', c.cache) : ''}
${c.app ? edgeAppLocations(c.app, c.cache) : '    location / { return 404; }'}
    location = /_vs_problem/404 { internal; default_type application/problem+json; ${NO_STORE} return 404 ${problem(c.problemsBase, 'not_found', 404, 'Not Found', 'this port serves playback delivery only (/t/, /m/, /live/)')}; }
    location = /_vs_problem/400 { internal; default_type application/problem+json; ${NO_STORE} return 400 ${problem(c.problemsBase, 'bad_request', 400, 'Bad Request', 'malformed request')}; }
    location = /_vs_problem/502 { internal; default_type application/problem+json; ${NO_STORE} return 502 ${problem(c.problemsBase, 'internal_error', 502, 'Bad Gateway', 'the appliance did not answer this request')}; }
  }
${origin ? origin.server : ''}
${dist ? distributionServers(dist) : ''}
}
`;
}

/**
 * `$vs_raw_path`: the request's raw path (`$request_uri` up to its query), or `!` when that path holds a backslash or
 * `#` (never equal to a URI, which starts with `/`). Evaluated only where a location reads it (maps are lazy).
 */
function rawPathMap(): string {
  return `  # The raw path as the viewer sent it ("!" with a backslash or '#'): proxied only when it equals the matched URI.
  map $request_uri $vs_raw_path { "~^[^?]*[\\x5c#]" "!"; "~^(?<vs_raw>[^?]*)" $vs_raw; }`;
}

/** The front's own problem answers are never stored (as the appliance's: a refusal under a /t/ URL is no media). */
const NO_STORE = 'add_header Cache-Control no-store always;';

/** Refuses (400) a request whose raw path is not exactly the URI its location was matched on (`rawPathMap`). */
const EXACT = 'if ($vs_raw_path != $uri) { return 400; }';
/** The same in @vs_ask, against the URI the granted location matched (its own `$uri` may be the internal one by then). */
const EXACT_GRANTED = 'if ($vs_raw_path != $vs_matched) { return 400; }';

/**
 * The request id nginx gives its own answers: the start's prefix, then worker pid, connection serial and request number
 * (unique while the front runs; a new start has a new prefix). Not nginx's $request_id: that costs an OpenSSL
 * RAND_bytes and a getpid() system call per request (libcrypto was ~1.2 % of the front's nginx CPU samples under load).
 */
function requestIdOf(prefix: string): string {
  if (!/^req_[A-Za-z0-9_-]{1,24}$/.test(prefix)) throw new Error(`delivery front: unusable request id prefix ${JSON.stringify(prefix)}`);
  return `"${prefix}-$pid-$connection-$connection_requests"`;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * One piece of the token, captured as `name`, atomically: a lookahead takes the characters greedily and a backreference
 * consumes them, so the piece never gives characters back. Plain quantifiers tried every split of the token between the
 * three pieces on each /t/ request that is not a granted file (live playlists and segments, catch-up, keys): O(length^2)
 * steps, ~3.4 ms of the front's nginx CPU per request for a ~200-character token (perf: PCRE's JIT code on top). The
 * greedy split is the only one a grant can match anyway (`grantRel` cuts the same way). Lookahead and backreference
 * instead of a possessive quantifier: the unit test runs the same pattern in JavaScript.
 */
const tokenPiece = (name: string, min: 0 | 1) => `(?=(?<${name}>[A-Za-z0-9._-]{${min},${GRANT_CHUNK}}))\\k<${name}>`;
/** The VOD files a grant covers: media, init segments and images (no playlist, manifest, key or download.mp4). */
const GRANTED_FILE = '(?!download[.])(?!.*[.][.])[A-Za-z0-9][A-Za-z0-9_.-]{0,94}[.](?:m4s|mp4|m4a|jpg|webp)';

/** The http-level pieces of grants: the request id nginx gives its own answers, the signature its log lines name, their format. */
function grantMaps(): string {
  return `  # The token's signature (its last 43 characters): the request log's link to the session, never the token.
  # (From $request_uri: the granted location's $uri is the internal one by the time the line is written.)
  map $request_uri $vs_sig { "~^/t/[A-Za-z0-9._-]*[.](?<s>[A-Za-z0-9_-]{43})/" $s; default ""; }
  log_format vs_granted escape=json '{"t":$msec,"m":"$request_method","s":$status,"l":"$sent_http_content_length","sig":"$vs_sig","ten":"$vs_ten","ast":"$vs_ast","ver":"$vs_ver","f":"$vs_file","ip":"$remote_addr","ua":"$http_user_agent","ref":"$http_referer"}';`;
}

/**
 * The headers of a granted answer sent through the cache (as the appliance gives the same file; type and validators
 * come from the file origin), and its spool line (the origin log).
 */
function grantedHeaders(rid: string, spool: string): string {
  return `if_modified_since before;
      add_header Cache-Control "public, max-age=31536000, immutable";
      add_header Content-Disposition inline;
      add_header Access-Control-Allow-Origin *;
      add_header X-Request-Id ${rid};
      access_log "${spool}" vs_granted buffer=64k flush=250ms;`;
}

/** Where a granted request goes once its grant is found: internal (no client reaches it), sent from the data dir. */
const GRANTED_PREFIX = '/_vs_granted/';

/**
 * The granted location: a GET or HEAD of a VOD file under /t/<token>/m/... with no query and nothing encoded is sent
 * by nginx itself when the grant of that exact token and output exists (`grantRel`: the same pieces, captured here),
 * with the headers the appliance gives the same file (type, cache policy, validators, ranges, CORS, request id).
 * Everything else, and every answer nginx would not give as the appliance does (missing file, 403, 416), goes to the
 * appliance (@vs_ask) as without grants. Its answers are logged to the spool, one JSON line each.
 *
 * Two steps: the grant is checked (an uncached `stat`: a removed grant refuses the very next request), then the
 * request moves to an internal location that sends the file through nginx's open file cache (no open, fstat and
 * close per request: measured, the front's nginx CPU per 2 MB segment went from ~10 % above plain nginx's to the same).
 * Caching there is safe because only a granted request gets there and a ready version's files never change (a new
 * encode is a new v<n> directory; deleting or changing an asset drops its grants first).
 */
function grantedLocation(dataDir: string, grants: string, spool: string, askAs: string, rid: string, cache?: EdgeCacheConf): string {
  const re = `^/t/${tokenPiece('vs_c1', 1)}${tokenPiece('vs_c2', 0)}${tokenPiece('vs_c3', 0)}/m/(?<vs_ten>${UUID})/assets/(?<vs_ast>${UUID})/(?<vs_ver>v[0-9]{1,6})/(?<vs_file>${GRANTED_FILE})$`;
  // Its own error_page list (the server's is not inherited here): anything but a file answer is the appliance's.
  // recursive_error_pages: once there, @vs_ask's own refusal (400) and failure (502) still reach the front's problem
  // pages (without it, nginx marks the request as handled by an error page here and sends its HTML page instead).
  const ask = 'error_page 301 302 403 404 405 416 418 500 502 503 504 = @vs_ask; recursive_error_pages on;';
  return `    location ~ "${re}" {
      # The URI this location matched, for @vs_ask's forwarding rule (a rewrite below changes $uri).
      set $vs_matched $uri;
      if ($request_method !~ ^(GET|HEAD)$) { return 418; }
      # Exactly as sent: no query, no percent-encoding, no dot segment (the appliance decides anything else).
      if ($request_uri != $uri) { return 418; }
      if (!-f "${grants}/a$vs_c1/b$vs_c2/c$vs_c3/$vs_ten.$vs_ast.$vs_ver") { return 418; }${cache ? `
      # Through the cache, ranges are the appliance's to judge (it names the file; the cache sends the range it allowed).
      if ($http_range != "") { return 418; }` : ''}
      ${ask}
      rewrite ^ ${GRANTED_PREFIX}${cache ? 'media/' : ''}$vs_ten/assets/$vs_ast/$vs_ver/$vs_file last;
    }
    ${cache ? cachedFileLocation(GRANTED_PREFIX, 'granted', cache, `${ask}
      ${grantedHeaders(rid, spool)}`).trim() : `location ^~ ${GRANTED_PREFIX} {
      internal;
      ${ask}
      alias "${dataDir}/media/";
      open_file_cache max=1000 inactive=30s;
      open_file_cache_valid 60s;
      types { video/iso.segment m4s; video/mp4 mp4; audio/mp4 m4a; image/jpeg jpg; image/webp webp; }
      # The appliance's range and validator rules: one range (more: the whole file), If-Modified-Since at or after.
      max_ranges 1;
      if_modified_since before;
      add_header Cache-Control "public, max-age=31536000, immutable";
      add_header Content-Disposition inline;
      add_header Access-Control-Allow-Origin *;
      add_header X-Request-Id ${rid};
      access_log "${spool}" vs_granted buffer=64k flush=250ms;
    }`}
    # The request as the viewer sent it ($request_uri: a granted one was moved to the internal location before it got
    # here), once its raw path is exactly the URI the granted location matched ($vs_matched). recursive_error_pages: an
    # appliance that cannot answer still gets the front's 502 problem, not nginx's page.
    location @vs_ask { ${EXACT_GRANTED} ${askAs} recursive_error_pages on; error_page 400 /_vs_problem/400; error_page 500 502 503 504 /_vs_problem/502; }`;
}
