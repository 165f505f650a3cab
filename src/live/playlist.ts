import type { SegmentRow } from './model';

/** One variant listed in a master playlist. */
export interface Variant { uri: string; bandwidth: number; resolution: string | null; codecs: string | null }

/** Master playlist (relative URIs, so a /t/<token>/ prefix keeps working). */
export function masterPlaylist(variants: Variant[]): string {
  const out = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of variants) {
    const attrs = [`BANDWIDTH=${Math.max(1, Math.round(v.bandwidth))}`];
    if (v.resolution) attrs.push(`RESOLUTION=${v.resolution}`);
    if (v.codecs) attrs.push(`CODECS="${v.codecs}"`);
    out.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, v.uri);
  }
  return out.join('\n') + '\n';
}

/**
 * Media playlist of indexed segments (oldest first): program date time on every segment, the init segment
 * (`EXT-X-MAP`) whenever it changes, `EXT-X-DISCONTINUITY` at feed changes and gaps, stable media and
 * discontinuity sequence numbers from the index, `EXT-X-ENDLIST` when the channel has stopped.
 */
export function mediaPlaylist(segs: SegmentRow[], o: { targetS: number; ended: boolean; /** Tags (EXT-X-DATERANGE) placed before the first segment starting at or after `at`. */ tags?: { at: number; line: string }[] }): string {
  const target = Math.max(o.targetS, ...segs.map((s) => Math.ceil(s.duration_ms / 1000)));
  const out = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${segs[0]?.seq ?? 0}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${segs[0]?.disc_seq ?? 0}`, '#EXT-X-INDEPENDENT-SEGMENTS'];
  let init: number | null = null;
  const tags = (o.tags ?? []).slice().sort((a, b) => a.at - b.at);
  segs.forEach((s, i) => {
    if (i > 0 && s.discontinuity) out.push('#EXT-X-DISCONTINUITY');
    while (tags.length && tags[0].at <= s.start_ms) out.push(tags.shift()!.line);
    if (s.init_ms !== init) { out.push(`#EXT-X-MAP:URI="init/${s.init_ms}.mp4"`); init = s.init_ms; }
    out.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(s.start_ms).toISOString()}`, `#EXTINF:${(s.duration_ms / 1000).toFixed(3)},`, `seg/${s.start_ms}.m4s`);
  });
  if (o.ended) out.push('#EXT-X-ENDLIST');
  return out.join('\n') + '\n';
}

/** RFC 6381 codec string from an init segment (avc1.PPCCLL and/or mp4a.40.2), or null. */
export function codecsOf(init: Uint8Array): string | null {
  const find = (tag: string) => Buffer.from(init.buffer, init.byteOffset, init.byteLength).indexOf(tag, 0, 'latin1');
  const parts: string[] = [];
  const avcc = find('avcC');
  if (avcc >= 0 && avcc + 8 <= init.length) parts.push('avc1.' + [init[avcc + 5], init[avcc + 6], init[avcc + 7]].map((b) => b.toString(16).padStart(2, '0')).join(''));
  if (find('mp4a') >= 0) parts.push('mp4a.40.2');
  return parts.length ? parts.join(',') : null;
}

/** Coded width x height of the video track of an init segment (from its avc1 sample entry), or null. */
export function resolutionOf(init: Uint8Array): string | null {
  const p = Buffer.from(init.buffer, init.byteOffset, init.byteLength).indexOf('avcC', 0, 'latin1');
  // avcC follows avc1's 78 bytes of fixed fields; width and height sit 24 bytes into them.
  if (p < 58) return null;
  const v = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const w = v.getUint16(p - 58), h = v.getUint16(p - 56);
  return w && h ? `${w}x${h}` : null;
}
