/** Environment variable: the front on the public port — `auto` (default: when nginx is installed), `on` (required), `off`. */
export const FRONT_MODE_ENV = 'VS_DELIVERY_FRONT';
/** Environment variable: the front's edge cache, `on` (default) or `off`. */
export const EDGE_CACHE_ENV = 'VS_EDGE_CACHE';
/**
 * Environment variable: the edge cache also holds the data dir's own files (`on`), or the front sends them straight
 * from the data dir (`off`, default: a cached copy of a local file costs CPU on every hit and gains nothing).
 */
export const EDGE_CACHE_FILES_ENV = 'VS_EDGE_CACHE_FILES';
/** Environment variable: the edge cache's size limit (nginx size, `10g` by default). */
export const EDGE_CACHE_SIZE_ENV = 'VS_EDGE_CACHE_MAX_SIZE';

/** How `serve` runs the front on the public port (`VS_DELIVERY_FRONT`); `fallback` is what a test server defaults to. */
export function frontModeFromEnv(env: Record<string, string | undefined>, fallback: 'auto' | 'off' = 'auto'): 'auto' | 'on' | 'off' {
  const v = (env[FRONT_MODE_ENV] ?? '').trim().toLowerCase();
  if (v === '') return fallback;
  if (v === 'auto' || v === 'on' || v === 'off') return v;
  throw new Error(`${FRONT_MODE_ENV} must be auto, on or off, got "${env[FRONT_MODE_ENV]}"`);
}

/** The edge cache settings (`VS_EDGE_CACHE`, `VS_EDGE_CACHE_FILES`, `VS_EDGE_CACHE_MAX_SIZE`); throws on unusable values. */
export function edgeCacheFromEnv(env: Record<string, string | undefined>): { cache: boolean; cacheFiles: boolean; cacheMaxSize: string } {
  const on = (env[EDGE_CACHE_ENV] ?? '').trim().toLowerCase();
  if (on !== '' && on !== 'on' && on !== 'off') throw new Error(`${EDGE_CACHE_ENV} must be on or off, got "${env[EDGE_CACHE_ENV]}"`);
  const size = (env[EDGE_CACHE_SIZE_ENV] ?? '').trim().toLowerCase() || '10g';
  const m = /^(\d{1,8})([kmg]?)$/.exec(size);
  if (!m || Number(m[1]) === 0) throw new Error(`${EDGE_CACHE_SIZE_ENV} must be a size like 512m or 10g, got "${env[EDGE_CACHE_SIZE_ENV]}"`);
  const files = (env[EDGE_CACHE_FILES_ENV] ?? '').trim().toLowerCase();
  if (files !== '' && files !== 'on' && files !== 'off') throw new Error(`${EDGE_CACHE_FILES_ENV} must be on or off, got "${env[EDGE_CACHE_FILES_ENV]}"`);
  return { cache: on !== 'off', cacheFiles: on !== 'off' && files === 'on', cacheMaxSize: size };
}
