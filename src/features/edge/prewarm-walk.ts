/**
 * Pre-warm's walk: fetches what a viewer's player would fetch through the edge (master playlist, each variant or only
 * the lowest, init and media segments, alternate renditions), reading every body to its end so the edge stores it,
 * and counts what was already cached (`X-Cache-Status: HIT`) and what this walk stored. No engine of its own: plain
 * HTTP against the edge's own address (the path of each URL; its host is never contacted).
 */

/** The running tally of a walk. */
export interface WalkReport { fetched: number; hit: number; stored: number; failed: number; bytes: number; known: number; failures: { url: string; status: number }[] }

/** Most URLs one pre-warm fetches (a 10-hour 6-rendition ladder of 2 s segments is ~110,000: cut there). */
export const WALK_MAX_URLS = 50_000;
const PARALLEL = 4;

/** Pure: the URIs a playlist names, resolved against its URL: variants (with bandwidth), renditions, init and segments. */
export function playlistRefs(text: string, url: string): { variants: { url: string; bandwidth: number }[]; media: string[]; segments: string[] } {
  const variants: { url: string; bandwidth: number }[] = [];
  const media: string[] = [], segments: string[] = [];
  const abs = (u: string) => new URL(u, url).toString();
  let pendingBw: number | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const l = raw.trim();
    if (!l) continue;
    if (l.startsWith('#EXT-X-STREAM-INF:')) { pendingBw = Number(/(?:^|[:,])BANDWIDTH=(\d+)/.exec(l)?.[1] ?? 0); continue; }
    if (l.startsWith('#EXT-X-MEDIA:') || l.startsWith('#EXT-X-MAP:')) {
      const u = /URI="([^"]+)"/.exec(l)?.[1];
      if (u) (l.startsWith('#EXT-X-MAP:') ? segments : media).push(abs(u));
      continue;
    }
    if (l.startsWith('#')) continue;
    if (pendingBw !== null) { variants.push({ url: abs(l), bandwidth: pendingBw }); pendingBw = null; } else segments.push(abs(l));
  }
  return { variants, media, segments };
}

/** The tokenless form of a URL for the report (never a token in a stored report). */
export function reportUrl(u: string): string {
  return new URL(u).pathname.replace(/^\/t\/[^/]+/, '/t/…');
}

/**
 * Walks `start` URLs through the edge at `base` (their paths and queries are requested there). `follow`: parse
 * playlists and go down (asset, clip, channel); off: each URL once, as given. `lowest`: of a master's variants, the
 * lowest bandwidth only (alternate renditions still all). `hostOf`: the Host to send for a URL (a CDN distribution's
 * hostname), null for the edge's own.
 */
export async function walk(base: string, start: string[], o: { follow: boolean; lowest: boolean; signal: AbortSignal; onProgress(r: WalkReport): void; hostOf?: (u: URL) => string | null }): Promise<WalkReport> {
  const r: WalkReport = { fetched: 0, hit: 0, stored: 0, failed: 0, bytes: 0, known: start.length, failures: [] };
  const seen = new Set<string>(start);
  const queue = [...start];
  const add = (u: string) => { if (!seen.has(u) && seen.size < WALK_MAX_URLS) { seen.add(u); queue.push(u); r.known++; } };
  const one = async (u: string) => {
    const target = new URL(u);
    let res: Response;
    try {
      // A CDN distribution's URL is asked for with its hostname (`hostOf`): the edge picks that distribution's server.
      const host = o.hostOf?.(target);
      res = await fetch(base + target.pathname + target.search, { signal: o.signal, redirect: 'manual', headers: { 'user-agent': 'ViewStream-prewarm/1', ...(host ? { host } : {}) } });
    } catch (e) {
      if (o.signal.aborted) throw e;
      r.failed++; if (r.failures.length < 20) r.failures.push({ url: reportUrl(u), status: 0 });
      return;
    }
    const cache = res.headers.get('x-cache-status');
    const isPlaylist = o.follow && /\.m3u8$/.test(target.pathname);
    let text = '';
    if (isPlaylist && res.ok) { text = await res.text(); r.bytes += text.length; } else if (res.body) {
      const reader = res.body.getReader();
      for (;;) { const c = await reader.read(); if (c.done) break; r.bytes += c.value.byteLength; }
    }
    r.fetched++;
    if (res.status !== 200 && res.status !== 206) { r.failed++; if (r.failures.length < 20) r.failures.push({ url: reportUrl(u), status: res.status }); return; }
    if (cache === 'HIT') r.hit++; else if (cache === 'MISS' || cache === 'EXPIRED') r.stored++;
    if (!isPlaylist) return;
    const refs = playlistRefs(text, u);
    const variants = o.lowest && refs.variants.length ? [refs.variants.reduce((a, b) => (b.bandwidth < a.bandwidth ? b : a))] : refs.variants;
    for (const v of variants) add(v.url);
    for (const m of refs.media) add(m);
    for (const s of refs.segments) add(s);
  };
  let last = 0;
  // A pool of PARALLEL fetches: a playlist parsed adds URLs while others run; done when none runs and none waits.
  await new Promise<void>((resolve, reject) => {
    let active = 0;
    const pump = () => {
      while (active < PARALLEL && queue.length) {
        active++;
        one(queue.shift()!).then(() => {
          active--;
          if (Date.now() - last > 500) { last = Date.now(); o.onProgress(r); }
          pump();
        }, reject);
      }
      if (!active && !queue.length) resolve();
    };
    pump();
  });
  return r;
}
