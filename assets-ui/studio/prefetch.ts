/**
 * Data ahead of the page: what each navigation target reads first. On a click the page's API calls start before it
 * is drawn (its own calls join them); on hover or focus of a link a moment earlier; and once the studio is idle the
 * main pages' answers go into the page cache, so even a first visit draws at once and refreshes behind.
 */
import type { ApiClient } from './api';
import { match } from './router';

/** One API read of a page: its path, and (when the page keeps it) the cache key and the part of the answer kept. */
interface Want { path: string; key?: string; pick?: (answer: { items?: unknown }) => unknown }

const ROUTES: [string, (p: Record<string, string>) => Want[]][] = [
  ['/', () => [{ path: '/v1/stats/realtime', key: 'dash:rt' }, { path: '/v1/channels?limit=50', key: 'dash:ch' }]],
  ['/library', () => [{ path: '/v1/assets?limit=200', key: 'lib:first' }, { path: '/v1/library/sections', key: 'sections', pick: (r) => r.items }]],
  ['/library/:id', (p) => [{ path: `/v1/assets/${encodeURIComponent(p.id)}` }]],
  ['/live', () => [{ path: '/v1/channels?limit=100', key: 'live:list' }]],
  ['/live/:id', (p) => [{ path: `/v1/channels/${encodeURIComponent(p.id)}` }]],
  ['/delivery', () => [{ path: '/v1/playback/policies?limit=100' }, { path: '/v1/playback/signing-keys' }, { path: '/v1/player-configs' }]],
  ['/integrations', () => [{ path: '/v1/webhooks?limit=100', key: 'webhooks' }, { path: '/v1/inbound-hooks?limit=100', key: 'inbound-hooks' },
    { path: '/v1/api-keys?limit=100', key: 'keys' }, { path: '/v1/events?limit=50' }]],
  ['/team', () => [{ path: '/v1/team/members', key: 'team:members' }, { path: '/v1/team/invitations', key: 'team:invites' },
    { path: '/v1/settings', key: 'team:settings' }, { path: '/v1/audit?limit=50', key: 'team:audit' }]],
];

/** The reads of a studio path (without the /studio base; a query string other than none means a filtered view: nothing). */
function wants(path: string): Want[] {
  if (path.includes('?')) return [];
  for (const [pat, fn] of ROUTES) { const p = match(pat, path); if (p) return fn(p); }
  return [];
}

/** Starts the API reads of the page at `path` (a click, hover or focus); the page's own calls join them. */
export function prefetchRoute(client: ApiClient, path: string): void {
  for (const w of wants(path)) client.prefetch(w.path);
}

/**
 * When the browser is idle, one page at a time, fills the page cache with the answers the main pages show first
 * (only keys not cached yet); `current()` false (signed out, tenant switched) stops it and drops late answers.
 * Returns the function that cancels it.
 */
export function warmPages(client: ApiClient, cache: Map<string, unknown>, current: () => boolean): () => void {
  const queue = ['/library', '/live', '/integrations', '/team', '/'];
  let handle = 0;
  let stopped = false;
  const idle = (fn: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 3000 }) : setTimeout(fn, 200) as unknown as number);
  const next = () => {
    const route = queue.shift();
    if (stopped || !route || !current()) return;
    const reads = wants(route).filter((w) => w.key && !cache.has(w.key)).map((w) => client.get<{ items?: unknown }>(w.path).then(
      (r) => { if (!stopped && current() && !cache.has(w.key!)) cache.set(w.key!, w.pick ? w.pick(r) : r); }, () => {}));
    void Promise.all(reads).then(() => { if (!stopped) handle = idle(next); });
  };
  handle = idle(next);
  return () => { stopped = true; if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle); else clearTimeout(handle); };
}
