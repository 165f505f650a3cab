/**
 * Pure pieces of the front's nginx configuration for its edge roles (issue 46): the cache (`proxy_cache` over the
 * files the gate names and over the appliance's cacheable public answers) and, when the front holds the public port,
 * the proxy of everything else to the appliance. nginx-conf.ts assembles them.
 */
import { EDGE_FILL, EDGE_PLAYLIST } from '../features/playback/edge-playlists';
import { PAD_HEADER, padDirective } from './cache-align';

/** The front's cache: where nginx keeps it and where it logs what it filled (read back into the tag index). */
export interface EdgeCacheConf {
  /** Cache directory (levels 1:2, `CACHE_LEVELS`): the purge removes the files nginx names by key there. */
  dir: string;
  /** Most bytes the cache may hold (nginx size, e.g. `10g`); the cache manager evicts the least recently used past it. */
  maxSize: string;
  /** The fill log: one JSON line per answer nginx stored (MISS, EXPIRED, REVALIDATED), read by `tailSpool`. */
  log: string;
  /**
   * The data dir's own files (segments, init segments, images, VOD playlists) go through the cache too (keyed by their
   * path, filled from the front's file origin). Off (default): nginx sends them straight from the data dir after the
   * gate's decision, and the cache holds what the front proxies or the appliance computes.
   */
  files?: boolean;
}

/** The appliance behind a front that holds the public port: everything but delivery goes to this socket. */
export interface EdgeAppConf {
  /** The appliance's private Unix socket for the whole app (API, studio, uploads, event streams, /s/v1). */
  sock: string;
  /** Largest request body passed on (the appliance's own limit; bodies stream through, unbuffered). */
  maxBodyBytes: number;
}

/** nginx's `levels=` of the cache (and the purge's path rule): the key's md5, its last hex digit, then the two before. */
export const CACHE_LEVELS = '1:2';

/** The keys_zone name of the edge cache. */
export const CACHE_ZONE = 'vs_edge';

/** Pure: the file nginx stores a cache key in, under the cache directory (levels 1:2 of the key's md5). */
export function cacheFileOf(dir: string, key: string): string {
  const md5 = Bun.MD5.hash(key, 'hex');
  return `${dir}/${md5.slice(-1)}/${md5.slice(-3, -1)}/${md5}`;
}

/** The http-level pieces: the cache path and zone, the fill log's format and its condition, the upgrade map. */
export function edgeHttp(cache: EdgeCacheConf | undefined, app: EdgeAppConf | undefined): string {
  const out: string[] = [];
  if (cache) {
    out.push(`  # The edge cache (issue 46): keys in shared memory, objects on disk; purge removes the file nginx names by key.
  proxy_cache_path "${cache.dir}" levels=${CACHE_LEVELS} keys_zone=${CACHE_ZONE}:64m max_size=${cache.maxSize} inactive=7d use_temp_path=off;
  # What was stored (not hits): key, URL, host, the answer's Cache-Tag, status: the tag index reads it.
  map $upstream_cache_status $vs_fill { MISS 1; EXPIRED 1; REVALIDATED 1; default 0; }
  # The key and tenant the fill log names, declared here (empty) for configurations where no location sets them
  # (a front on a port of its own with the data dir's files sent from disk); each caching location sets its own.
  map "" $vs_ckey { default ""; }
  map "" $vs_cten { default ""; }
  log_format vs_fill escape=json '{"k":"$vs_ckey","u":"$request_uri","h":"$http_host","tag":"$upstream_http_cache_tag","ten":"$vs_cten","st":"$upstream_cache_status","s":$status}';`);
  }
  if (app) out.push(`  map $http_upgrade $vs_upgrade { default upgrade; "" ""; }
  upstream vs_app { server "unix:${app.sock}"; keepalive 32; }`);
  return out.join('\n');
}

/** Common proxy settings toward the appliance's whole-app socket (raw target, viewer address, no buffering). */
function appProxy(): string {
  return 'proxy_pass http://vs_app; proxy_http_version 1.1; proxy_set_header Host $http_host; proxy_set_header x-vs-peer $remote_addr; proxy_redirect off;';
}

/**
 * Server-level locations of a front holding the public port: everything that is not delivery goes to the appliance
 * (raw target, streamed both ways: uploads and event streams pass as they come), and its public cacheable answers
 * (Sites Delivery `/s/v1/`, public player configuration) go through the cache when there is one: stored only as their
 * Cache-Control allows (s-maxage, max-age; stale-while-revalidate and stale-if-error honoured: no
 * proxy_cache_use_stale overrides them), never for a request with credentials, keyed by host and target.
 */
export function edgeAppLocations(app: EdgeAppConf, cache: EdgeCacheConf | undefined): string {
  const bodies = `client_max_body_size ${Math.max(1, Math.ceil(app.maxBodyBytes / 1024))}k;`;
  const plain = `    location / { ${appProxy()} proxy_set_header Connection $vs_upgrade; proxy_set_header Upgrade $http_upgrade; proxy_buffering off; proxy_request_buffering off; proxy_read_timeout 3600s; proxy_send_timeout 3600s; ${bodies} }`;
  if (!cache) return plain;
  const cached = (prefix: string) => `    location ^~ ${prefix} {
      set $vs_ckey "a|$http_host|$request_uri"; set $vs_cten "";
      ${appProxy()} proxy_set_header Connection "";
      proxy_cache ${CACHE_ZONE}; proxy_cache_key $vs_ckey; proxy_cache_methods GET HEAD;
      proxy_cache_lock on; proxy_cache_background_update on; proxy_cache_revalidate on;
      proxy_cache_bypass $http_authorization $http_cookie; proxy_no_cache $http_authorization $http_cookie;
      add_header X-Cache-Status $upstream_cache_status always;
      access_log "${cache.log}" vs_fill if=$vs_fill;
      ${bodies}
    }`;
  return [plain, cached('/s/v1/'), cached('/player/config/')].join('\n');
}

/** The three internal file prefixes: a whole file, one range of one (both named by the appliance), a granted file. */
export const EDGE_WHOLE = '/_vs_whole/', EDGE_RANGE = '/_vs_range/', EDGE_GRANTED = '/_vs_granted/';

/** http-level maps of the file locations: the file's path under the data dir and its tenant (from `$uri`). */
export function fileKeyMaps(): string {
  return `  map $uri $vs_frel { "~^/_vs_(?:whole|range|granted)/(?<vs_r>[^?]+)$" $vs_r; default ""; }
  map $vs_frel $vs_ften { "~^[a-z]+/(?<vs_t>[0-9a-f-]{36})/" $vs_t; default ""; }`;
}

/**
 * An internal location that sends a data-dir file through the cache: keyed by the file's path under the data dir
 * (`f|media/<tenant>/assets/...`: one object whatever token asked), filled from the front's own file origin
 * (`edgeOrigin`), with `X-Cache-Status`. `whole` and `range` serve files the appliance named (`X-Accel-Redirect`):
 * its type, cache policy and disposition are kept by nginx, CORS, request id and timing headers are taken from its
 * answer before the fill replaces the upstream; `granted` serves a granted token's file with the headers the appliance
 * gives such files (`grantedHeaders`). Validators are the origin's (`"<mtime>-<size>"` in hex: the appliance's own
 * format). A ready output's and a recording's files never change, so a stored object stays until purged or evicted
 * (7 days unused, or past the size limit).
 */
export function cachedFileLocation(prefix: string, mode: 'whole' | 'range' | 'granted', cache: EdgeCacheConf, grantedHeaders = ''): string {
  const fromAppliance = mode === 'granted' ? grantedHeaders : `set $vs_acao $upstream_http_access_control_allow_origin; set $vs_rid $upstream_http_x_request_id; set $vs_tao $upstream_http_timing_allow_origin;
      proxy_hide_header Content-Type; if_modified_since off;
      add_header Access-Control-Allow-Origin $vs_acao always; add_header X-Request-Id $vs_rid always; add_header Timing-Allow-Origin $vs_tao always;`;
  return `    location ^~ ${prefix} {
      internal;
      set $vs_ckey "f|$vs_frel"; set $vs_cten $vs_ften;
      ${fromAppliance}
      proxy_pass http://vs_files/$vs_frel; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_cache ${CACHE_ZONE}; proxy_cache_key $vs_ckey; proxy_cache_valid 200 7d; proxy_cache_lock on;
      proxy_ignore_headers Cache-Control Expires Set-Cookie Vary X-Accel-Expires; proxy_hide_header ${PAD_HEADER};
      # Room for the padded origin headers after the cache file's own header (cache-align.ts; the default is one page).
      proxy_buffer_size 8k;
      # A fill is written to the cache file in large writes (up to 1 MB, not nginx's default 16 kB): the page cache then
      # holds the object in large folios and each hit's sendfile walks a few of them instead of one per 4 kB page
      # (perf on the cached-segment bench: filemap_get_read_batch 4.4 % of the edge nginx's samples -> 1.4 %; plain
      # nginx serving a file written in one go: 0.1-0.4 %). 1 MB of buffers per fill in flight (one per key: cache lock).
      proxy_buffers 16 64k; proxy_busy_buffers_size 256k; proxy_temp_file_write_size 1m;
      # A file missing at the origin (removed meanwhile) or a range nginx cannot satisfy: the location's error pages.
      proxy_intercept_errors on; proxy_force_ranges on; ${mode === 'whole' ? 'max_ranges 0;' : 'max_ranges 1;'}
      add_header X-Cache-Status $upstream_cache_status always;
      access_log "${cache.log}" vs_fill if=$vs_fill;
    }`;
}

/** The front's own file origin: a server on a private socket that sends files of the data dir (the cache fills from it). */
export function edgeOrigin(sock: string, dataDir: string): { upstream: string; server: string } {
  return {
    upstream: `  upstream vs_files { server "unix:${sock}"; keepalive 16; }`,
    server: `  server {
    listen "unix:${sock}";
    access_log off;
    # Types of the files a grant covers (as the appliance types them); anything else keeps the appliance's type.
    location / { root "${dataDir}"; types { video/iso.segment m4s; video/mp4 mp4; audio/mp4 m4a; image/jpeg jpg; image/webp webp; } default_type application/octet-stream;
      # Puts the body of the cache's copy at a page boundary (cache-align.ts): hits are sent from an aligned offset.
      ${padDirective} }
  }`,
  };
}

/** http-level maps of the cached playlists: the tenant id their internal URI names (the fill log's tenant), and which fills are logged. */
export function playlistKeyMaps(): string {
  return `  map $uri $vs_plten { "~^/_vs_pl/[a-z]+/(?<vs_pt>[0-9a-f-]{36})/" $vs_pt; default ""; }
  # Only a stored playlist (a 200 fill) enters the tag index: a fill's refusal is not kept.
  map "$upstream_cache_status:$status" $vs_plfill { "~^(?:MISS|EXPIRED|REVALIDATED):200$" 1; default 0; }`;
}

/**
 * The internal location of playlists the gate decided and names by `X-Accel-Redirect` (live master and variant
 * playlists: the same bytes for every viewer), kept in the edge cache under `p|<kind>/<tenant id>/<channel>/...`
 * (never a token) for the fill's own `max-age`, filled from the appliance's gate-free route on the private socket
 * (`upstream`: the front's appliance socket). One fill at a time per key (`proxy_cache_lock`); once expired, the next
 * request gets the previous copy while one background fill runs (`use_stale updating`), so the appliance writes each
 * playlist at most once per max-age whatever the number of viewers. The policy, CORS and request id shown are the
 * gate's answer's (taken before the fill replaces the upstream); the fill's are hidden.
 */
export function cachedPlaylistLocation(upstream: string, cache: EdgeCacheConf): string {
  return `    location ^~ ${EDGE_PLAYLIST} {
      internal;
      set $vs_ckey "p|$uri"; set $vs_cten $vs_plten;
      set $vs_rid $upstream_http_x_request_id;
      proxy_pass http://${upstream}${EDGE_FILL}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host;
      proxy_cache ${CACHE_ZONE}; proxy_cache_key $vs_ckey; proxy_cache_methods GET HEAD;
      proxy_cache_lock on; proxy_cache_lock_timeout 5s; proxy_cache_lock_age 5s;
      proxy_cache_use_stale updating; proxy_cache_background_update on;
      proxy_hide_header Cache-Control; proxy_hide_header X-Request-Id;
      add_header X-Request-Id $vs_rid always;
      add_header X-Cache-Status $upstream_cache_status always;
      access_log "${cache.log}" vs_fill if=$vs_plfill;
    }`;
}
