import { notFound } from '../../kernel/errors';
import { viaFront } from '../../kernel/http/accel';
import { splitUrl } from '../../kernel/http/url';

/**
 * Playlists the delivery front caches (issue 46). The gate decides a viewer's request as always (token, revocation,
 * viewer address, policy, blackout); a playlist whose bytes are the same for every viewer (relative URIs: the
 * `/t/<token>/` prefix of the request carries the token) is then answered with `X-Accel-Redirect` to the front's
 * internal cached location (`EDGE_PLAYLIST`), keyed by what makes the bytes differ (kind, tenant id, channel,
 * rendition; never the token). nginx fills that location from this process's gate-free fill route (`EDGE_FILL`),
 * which is served only on the front's private socket (0700 directory; no public location proxies it).
 */

/** The front's internal location of cached playlists (nginx `internal`: no viewer request reaches it). */
export const EDGE_PLAYLIST = '/_vs_pl/';
/** The fill route's prefix on the front's private socket (`EDGE_PLAYLIST` maps onto it one to one). */
export const EDGE_FILL = '/_vs_fill/';

/** A gate-free playlist answer for the path segments after `<EDGE_FILL><kind>/`; throws `notFound` for none. */
export type PlaylistFill = (parts: string[], request: Request) => Response | Promise<Response>;

// A segment the internal location and the fill route carry verbatim: no escaping, no dot segment.
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
const KIND = /^[a-z]{1,16}$/;

const MAX_AGE = /(?:^|,)\s*max-age=(\d{1,6})\s*(?:,|$)/;

/**
 * Adds to a fill's 200 answer when the edge's copy expires (`X-Accel-Expires: @<unix second>`, read by nginx and never
 * passed on): the last whole second inside its `max-age`. nginx counts cache time in whole seconds and keeps an answer
 * with `max-age=N` until N+1 seconds have begun (1-2 s for a live playlist); an absolute expiry keeps it N-1 to N s,
 * so a live playlist is at most a second old at the edge and written at most once per second.
 */
function keptFor(res: Response): Response {
  const m = res.status === 200 ? MAX_AGE.exec(res.headers.get('cache-control') ?? '') : null;
  // nginx's own (real) clock, not the app's: the expiry is compared with it.
  if (m) res.headers.set('x-accel-expires', `@${Math.floor(Date.now() / 1000) + Number(m[1]) - 1}`);
  return res;
}

/** The gate's side of the cached playlists: whether the front caches them, their redirect, their fills. */
export function edgePlaylists() {
  let on = false;
  const fills = new Map<string, PlaylistFill>();
  return {
    /** Set by the front while it runs with an edge cache (its internal location exists); off again when it stops. */
    enable(v: boolean): void { on = v; },

    /** True while a caching front answers the redirect. */
    enabled(): boolean { return on; },

    /** Registers the gate-free fill of a playlist kind (e.g. `live`: `<tenant id>/<channel>/<rendition>/index.m3u8`). */
    fill(kind: string, fn: PlaylistFill): void {
      if (!KIND.test(kind)) throw new Error(`edge playlists: bad kind ${kind}`);
      fills.set(kind, fn);
    },

    /**
     * The answer to a viewer's request the gate has already decided: `X-Accel-Redirect` to the cached playlist
     * `<kind>/<parts>`, with the cache policy the fill gives (nginx shows this one and hides the fill's), or null
     * (answer it here): not a GET, not through the front, no caching front, or a part the location cannot carry.
     */
    redirect(request: Request, kind: string, parts: string[], cacheControl: string): Response | null {
      if (!on || request.method !== 'GET' || !viaFront(request) || !fills.has(kind)) return null;
      if (!parts.every((p) => SEGMENT.test(p))) return null;
      return new Response(null, { status: 200, headers: { 'x-accel-redirect': `${EDGE_PLAYLIST}${kind}/${parts.join('/')}`, 'cache-control': cacheControl, 'content-length': '0' } });
    },

    /** True for a request on the fill route (the front's private socket routes it to `answer`). */
    isFill(url: string): boolean {
      return splitUrl(url).path.startsWith(EDGE_FILL);
    },

    /** Answers a fill request from the front's cache (GET/HEAD only; no token, no policy: the gate decided already). */
    answer(request: Request): Response | Promise<Response> {
      const { path, query } = splitUrl(request.url);
      const parts = path.slice(EDGE_FILL.length).split('/');
      const fn = fills.get(parts[0] ?? '');
      if (!fn || query || (request.method !== 'GET' && request.method !== 'HEAD') || !parts.slice(1).every((p) => SEGMENT.test(p))) throw notFound('playlist');
      const out = fn(parts.slice(1), request);
      return out instanceof Response ? keptFor(out) : out.then(keptFor);
    },
  };
}

/** The gate's cached playlists (one per gate). */
export type EdgePlaylists = ReturnType<typeof edgePlaylists>;
