import type { SegmentRow } from '../channels/store';
import { timesOf, type SegTimes } from '../../live/seg-times';

/**
 * Media playlist over a recorded range: `VOD` (with ENDLIST) for a closed range, `EVENT` while it grows to the
 * live edge. URIs are relative (a /t/<token>/ prefix carries through) and carry `q` (the `?c=<tenant>` query),
 * which relative resolution would otherwise drop. Program date time at the start and after each discontinuity, the init segment
 * (`EXT-X-MAP`) whenever it changes, `EXT-X-DISCONTINUITY` at recording gaps and feed changes.
 */
export function rangePlaylist(segs: SegTimes | Pick<SegmentRow, 'start_ms' | 'duration_ms' | 'init_ms' | 'discontinuity'>[], o: { targetS: number; type: 'VOD' | 'EVENT'; ended: boolean; q: string }): string {
  const t = Array.isArray(segs) ? timesOf(segs) : segs;
  const { start, dur, disc: dflag, init: inits } = t;
  let target = o.targetS;
  for (let i = 0; i < t.n; i++) if (dur[i] > target * 1000) target = Math.ceil(dur[i] / 1000);
  let out = `#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:${target}\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:${o.type}\n#EXT-X-INDEPENDENT-SEGMENTS\n`;
  const tail = '.m4s' + o.q + '\n';
  const infs = new Map<number, string>();
  let init = -1, prevEnd = -1, infDur = -1, inf = '';
  for (let i = 0; i < t.n; i++) {
    const s = start[i], d = dur[i];
    // Program date time on the first segment and after every discontinuity (later ones follow from EXTINF).
    const disc = i > 0 && (dflag[i] === 1 || inits[i] !== init || s - prevEnd > 1000);
    if (disc) out += '#EXT-X-DISCONTINUITY\n';
    if (inits[i] !== init) { init = inits[i]; out += `#EXT-X-MAP:URI="init/${init}.mp4${o.q}"\n`; }
    if (i === 0 || disc) out += `#EXT-X-PROGRAM-DATE-TIME:${new Date(s).toISOString()}\n`;
    if (d !== infDur) {
      infDur = d;
      inf = infs.get(d) ?? `#EXTINF:${(d / 1000).toFixed(3)},\nseg/`;
      infs.set(d, inf);
    }
    out += inf + s + tail;
    prevEnd = s + d;
  }
  if (o.ended) out += '#EXT-X-ENDLIST\n';
  return out;
}
