import { ACCEL_RANGE, ACCEL_WHOLE } from '../kernel/http/accel';

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
}

// A path nginx reads verbatim inside double quotes: no quote, backslash, variable sign or control character.
const SAFE_PATH = /^\/[^"\\$\x00-\x1f\x7f;{}]*$/;

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
 */
export function renderFrontConf(c: FrontConf): string {
  for (const p of [c.sock, c.dataDir, c.runDir]) if (!safeConfPath(p)) throw new Error(`delivery front: path not usable in nginx's configuration: ${JSON.stringify(p)}`);
  const copy = ['ETag', 'Access-Control-Allow-Origin', 'X-Request-Id', 'Timing-Allow-Origin']
    .map((h) => `add_header ${h} $upstream_http_${h.toLowerCase().replace(/-/g, '_')} always;`).join(' ');
  const file = (prefix: string, ranges: boolean) =>
    `    location ^~ ${prefix} { internal; alias "${c.dataDir}/"; ${ranges ? '' : 'max_ranges 0; '}etag off; if_modified_since off; ${copy} }`;
  // Prefix locations (no regular expression: a decoded NUL in a URI made PCRE's match fail with a 500).
  const ask = ['/t/', '/m/', '/live/'].map((p) => `    location ${p} { proxy_pass http://vs_appliance; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host $http_host; proxy_set_header x-vs-peer $remote_addr; proxy_read_timeout 120s; proxy_redirect off; }`).join('\n');
  const tmp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `  ${k}_temp_path "${c.runDir}/tmp-${k}";`).join('\n');
  return `# Written by the appliance at each start (delivery front); edits are lost.
worker_processes ${Math.max(1, Math.trunc(c.workers))};
pid "${c.runDir}/nginx.pid";
error_log stderr warn;
daemon off;
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
  upstream vs_appliance { server "unix:${c.sock}"; keepalive 64; }
  server {
    # reuseport: an accept queue per worker, connections spread evenly over the cores
    listen ${listenOn(c.host, c.port)} reuseport;
    merge_slashes off;
    # Error pages by URI: a request refused while its request line is read has no URI a named location could use.
    error_page 400 /_vs_problem/400;
    error_page 404 /_vs_problem/404;
    error_page 500 502 503 504 /_vs_problem/502;
${ask}
${file(ACCEL_WHOLE, false)}
${file(ACCEL_RANGE, true)}
    location / { return 404; }
    location = /_vs_problem/404 { internal; default_type application/problem+json; return 404 ${problem(c.problemsBase, 'not_found', 404, 'Not Found', 'this port serves playback delivery only (/t/, /m/, /live/)')}; }
    location = /_vs_problem/400 { internal; default_type application/problem+json; return 400 ${problem(c.problemsBase, 'bad_request', 400, 'Bad Request', 'malformed request')}; }
    location = /_vs_problem/502 { internal; default_type application/problem+json; return 502 ${problem(c.problemsBase, 'internal_error', 502, 'Bad Gateway', 'the appliance did not answer this request')}; }
  }
}
`;
}
