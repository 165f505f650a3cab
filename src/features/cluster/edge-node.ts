/**
 * A caching edge node on its own machine (issue 49): nginx with `proxy_cache` in front of a control node. Versioned
 * VOD files (`/m/...`) are cached as the origin's Cache-Control allows (segments immutable, playlists minutes, the
 * growing preview never); a range request is served from the whole cached object (nginx fetches it once without
 * the Range); everything else (tokens, live, the API) is passed through uncached.
 */

/** Where the edge listens, what it fronts, where it keeps its cache and how big it may grow. */
export interface EdgeNodeConf {
  origin: string; host: string; port: number; dir: string; maxSize: string;
  /** Worker user: set only when running as root (nginx would otherwise drop to `nobody`, who cannot read the cache directory). */
  user?: string;
  /** A file to log each `/m/` answer to (`msec status cache-status bytes uri`, buffered): the edge's hit ratio; none by default. */
  accessLog?: string;
}

/** Refuses values that would break out of an nginx directive. */
function safe(v: string, what: string): string {
  if (!/^[A-Za-z0-9_.:/\-\[\]]+$/.test(v)) throw new Error(`${what} has characters an nginx configuration cannot carry: ${v}`);
  return v;
}

/** The nginx configuration of an edge node (run in the foreground). */
export function renderEdgeNodeConf(c: EdgeNodeConf): string {
  const origin = safe(c.origin.replace(/\/+$/, ''), 'origin');
  if (!/^https?:\/\//.test(origin)) throw new Error('origin must be an http:// or https:// URL');
  const dir = safe(c.dir, 'edge directory');
  const log = c.accessLog ? `access_log ${safe(c.accessLog, 'access log')} vs_edge buffer=64k flush=1s;` : 'access_log off;';
  const proxy = `proxy_pass ${origin}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header X-Forwarded-For $remote_addr;`;
  return `# ViewStream edge node (viewstream edge run): caches ${origin}
daemon off;
worker_processes auto;
${c.user ? `user ${safe(c.user, 'user')};\n` : ''}pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  log_format vs_edge '$msec $status $upstream_cache_status $body_bytes_sent $uri';
  sendfile on;
  client_body_temp_path ${dir}/tmp/body; proxy_temp_path ${dir}/tmp/proxy; fastcgi_temp_path ${dir}/tmp/fcgi; uwsgi_temp_path ${dir}/tmp/uwsgi; scgi_temp_path ${dir}/tmp/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=vs_edge:32m max_size=${safe(c.maxSize, 'max size')} inactive=7d use_temp_path=off;
  server {
    listen ${safe(c.host, 'host')}:${c.port} reuseport;
    location /m/ {
      ${log}
      ${proxy}
      proxy_cache vs_edge; proxy_cache_key $uri; proxy_cache_lock on; proxy_cache_revalidate on; proxy_force_ranges on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
    location / { ${proxy} proxy_buffering off; proxy_request_buffering off; client_max_body_size 0; }
  }
}
`;
}
