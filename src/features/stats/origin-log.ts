import type { Served } from '../playback/gate';
import type { StatsRuntime } from './runtime';

/** The rendition a delivery path names (`r`/`rendition` parameter, or a VOD file's leading rendition name). */
function renditionOf(params: Record<string, string>): string | null {
  if (params.r) return params.r;
  if (params.rendition && !params.rendition.startsWith('archive-')) return params.rendition;
  const f = params.file;
  if (params.asset && f) { const m = /^([A-Za-z0-9-]+)_/.exec(f); return m ? m[1] : null; }
  return null;
}

/**
 * The gate observer that records every delivery answer in the origin request log: one small object pushed on the
 * queue (no hashing, lookups or I/O here). Bytes are the answer's Content-Length (0 for HEAD, 304 and refusals);
 * `source` is `disk` for file bodies (they carry Last-Modified) and `memory` for answers built in memory
 * (playlists, manifests, keys). When the queue is full the hit is dropped and counted (`refused`), never delaying delivery.
 */
export function originLogObserver(rt: StatsRuntime, now: () => number): (s: Served) => void {
  return (s) => {
    const g = s.guarded;
    if (!g) return; // refused before the tenant was known: nothing to attribute
    const target = g.target.kind === 'startover' ? `${g.target.id}/${g.target.programme}` : g.target.id;
    rt.edge.offer({
      ts: s.atMs ?? now(), tenantId: g.tenant.id, kind: g.target.kind, target, rendition: renditionOf(g.params),
      file: g.params.file ?? null, method: s.method, status: s.status, bytes: s.bytes,
      ttfbMs: s.ttfbMs, sid: s.sid, source: s.fromDisk ? 'disk' : 'memory', ip: s.ip,
      ua: s.ua, referrer: s.referer,
    });
  };
}
