import type { SegmentRow } from '../channels/store';

/**
 * Media playlist over a recorded range: `VOD` (with ENDLIST) for a closed range, `EVENT` while it grows to the
 * live edge. URIs are relative (a /t/<token>/ prefix carries through) and carry `q` (the `?c=<tenant>` query),
 * which relative resolution would otherwise drop. Program date time at the start and after each discontinuity, the init segment
 * (`EXT-X-MAP`) whenever it changes, `EXT-X-DISCONTINUITY` at recording gaps and feed changes.
 */
export function rangePlaylist(segs: Pick<SegmentRow, 'start_ms' | 'duration_ms' | 'init_ms' | 'discontinuity'>[], o: { targetS: number; type: 'VOD' | 'EVENT'; ended: boolean; q: string }): string {
  let target = o.targetS;
  for (const s of segs) if (s.duration_ms > target * 1000) target = Math.ceil(s.duration_ms / 1000);
  let out = `#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:${target}\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:${o.type}\n#EXT-X-INDEPENDENT-SEGMENTS\n`;
  const extinf = new Map<number, string>();
  let init = -1, prevEnd = -1;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    // Program date time on the first segment and after every discontinuity (later ones follow from EXTINF).
    const disc = i > 0 && (s.discontinuity === 1 || s.init_ms !== init || s.start_ms - prevEnd > 1000);
    if (disc) out += '#EXT-X-DISCONTINUITY\n';
    if (s.init_ms !== init) { out += `#EXT-X-MAP:URI="init/${s.init_ms}.mp4${o.q}"\n`; init = s.init_ms; }
    if (i === 0 || disc) out += `#EXT-X-PROGRAM-DATE-TIME:${new Date(s.start_ms).toISOString()}\n`;
    let inf = extinf.get(s.duration_ms);
    if (inf === undefined) { inf = `#EXTINF:${(s.duration_ms / 1000).toFixed(3)},\n`; extinf.set(s.duration_ms, inf); }
    out += inf + 'seg/' + s.start_ms + '.m4s' + o.q + '\n';
    prevEnd = s.start_ms + s.duration_ms;
  }
  if (o.ended) out += '#EXT-X-ENDLIST\n';
  return out;
}
