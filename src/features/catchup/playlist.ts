import type { SegmentRow } from '../channels/store';

/**
 * Media playlist over a recorded range: `VOD` (with ENDLIST) for a closed range, `EVENT` while it grows to the
 * live edge. URIs are relative (a /t/<token>/ prefix carries through) and carry `q` (the `?c=<tenant>` query),
 * which relative resolution would otherwise drop. Program date time on every segment, the init segment
 * (`EXT-X-MAP`) whenever it changes, `EXT-X-DISCONTINUITY` at recording gaps and feed changes.
 */
export function rangePlaylist(segs: Pick<SegmentRow, 'start_ms' | 'duration_ms' | 'init_ms' | 'discontinuity'>[], o: { targetS: number; type: 'VOD' | 'EVENT'; ended: boolean; q: string }): string {
  let target = o.targetS;
  for (const s of segs) if (s.duration_ms > target * 1000) target = Math.ceil(s.duration_ms / 1000);
  const out: string[] = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', `#EXT-X-PLAYLIST-TYPE:${o.type}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  let init = -1;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (i > 0 && (s.discontinuity || s.init_ms !== init || s.start_ms - (segs[i - 1].start_ms + segs[i - 1].duration_ms) > 1000)) out.push('#EXT-X-DISCONTINUITY');
    if (s.init_ms !== init) { out.push(`#EXT-X-MAP:URI="init/${s.init_ms}.mp4${o.q}"`); init = s.init_ms; }
    out.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.start_ms).toISOString()}`, `#EXTINF:${(s.duration_ms / 1000).toFixed(3)},`, `seg/${s.start_ms}.m4s${o.q}`);
  }
  if (o.ended) out.push('#EXT-X-ENDLIST');
  return out.join('\n') + '\n';
}
