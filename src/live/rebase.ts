/**
 * The channel's media timeline: every recorded fMP4 segment is rebased so that decode time runs with wall-clock
 * time (seconds since the channel was created) across encoder reconnects and failovers. One shift per feed chain
 * (the first segment of the lead track lands on its wall-clock start); every track of every rendition moves by
 * the same amount of time, so A/V sync and rendition alignment are kept. Pure functions over bytes.
 */
import { boxes, child, type Box } from './mp4';

/** A time shift in seconds as an exact fraction: `ticks / timescale`. */
export interface Shift { ticks: bigint; timescale: number }

/** A decode-time field of a segment (tfdt of a track fragment, or the earliest presentation time of a sidx). */
export interface TimeField { box: 'tfdt' | 'sidx'; trackId: number; timescale: number | null; time: bigint; offset: number; version: number }

/** One patched byte range (to write back into the file at `offset`). */
export interface Patch { offset: number; length: number }

/** Top-level boxes that fit whole in `b` (a segment's head is enough: a truncated mdat ends the walk). */
function topBoxes(b: Uint8Array): Box[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Box[] = [];
  for (let p = 0; p + 8 <= b.length;) {
    let size = v.getUint32(p), hdr = 8;
    if (size === 1) { if (p + 16 > b.length) break; size = Number(v.getBigUint64(p + 8)); hdr = 16; }
    if (size === 0) size = b.length - p;
    if (size < hdr || p + size > b.length) break;
    out.push({ type: String.fromCharCode(b[p + 4], b[p + 5], b[p + 6], b[p + 7]), start: p, body: p + hdr, end: p + size });
    p += size;
  }
  return out;
}

/** Every tfdt and sidx time field of a media segment (or of its head), in file order (`timescale` known for sidx only). */
export function timeFields(seg: Uint8Array): TimeField[] {
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  const out: TimeField[] = [];
  for (const top of topBoxes(seg)) {
    if (top.type === 'sidx' && top.end - top.body >= 20) {
      const version = seg[top.body];
      const at = top.body + 12;
      if (top.end - at < (version === 1 ? 8 : 4)) continue;
      out.push({ box: 'sidx', trackId: v.getUint32(top.body + 4), timescale: v.getUint32(top.body + 8), time: version === 1 ? v.getBigUint64(at) : BigInt(v.getUint32(at)), offset: at, version });
    } else if (top.type === 'moof') {
      for (const traf of (boxes(seg, top.body, top.end) ?? []).filter((x) => x.type === 'traf')) {
        const tfhd = child(seg, traf, 'tfhd'), tfdt = child(seg, traf, 'tfdt');
        if (!tfhd || !tfdt || tfhd.end - tfhd.body < 8) continue;
        const version = seg[tfdt.body], at = tfdt.body + 4;
        if (tfdt.end - at < (version === 1 ? 8 : 4)) continue;
        out.push({ box: 'tfdt', trackId: v.getUint32(tfhd.body + 4), timescale: null, time: version === 1 ? v.getBigUint64(at) : BigInt(v.getUint32(at)), offset: at, version });
      }
    }
  }
  return out;
}

/** Rounds n / d to the nearest integer (halves away from zero); d > 0. */
function divRound(n: bigint, d: bigint): bigint {
  return n >= 0n ? (2n * n + d) / (2n * d) : -((-2n * n + d) / (2n * d));
}

/** The shift expressed in ticks of `timescale` (rounded to the nearest tick). */
export function shiftTicks(s: Shift, timescale: number): bigint {
  return timescale === s.timescale ? s.ticks : divRound(s.ticks * BigInt(timescale), BigInt(s.timescale));
}

/** The shift that puts decode time `time` (ticks of `timescale`) on `targetMs` (ms on the channel's timeline). */
export function shiftTo(targetMs: number, time: bigint, timescale: number): Shift {
  return { ticks: divRound(BigInt(Math.round(targetMs)) * BigInt(timescale), 1000n) - time, timescale };
}

/**
 * The lead track's first decode time in a segment: the video track's tfdt (else the first track's), with its
 * timescale from the init segment's tracks. Null when the segment carries no tfdt of a known track.
 */
export function leadTime(seg: Uint8Array, tracks: Map<number, { timescale: number; kind: string }>): { time: bigint; timescale: number } | null {
  const f = timeFields(seg).filter((x) => x.box === 'tfdt' && tracks.has(x.trackId));
  const pick = f.find((x) => tracks.get(x.trackId)!.kind === 'vide') ?? f[0];
  return pick ? { time: pick.time, timescale: tracks.get(pick.trackId)!.timescale } : null;
}

/**
 * Adds the shift to every tfdt (in its track's timescale from `tracks`) and every sidx earliest presentation time
 * (in the sidx's own timescale) of `seg`, in place. Returns the patched byte ranges, or null (nothing changed) when
 * a track is unknown or a value would leave its field (negative, or past 32 bits in a version-0 box).
 */
export function applyShift(seg: Uint8Array, s: Shift, tracks: Map<number, { timescale: number }>): Patch[] | null {
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  const fields = timeFields(seg);
  const next: bigint[] = [];
  for (const f of fields) {
    const ts = f.timescale ?? tracks.get(f.trackId)?.timescale;
    if (!ts) return null;
    const t = f.time + shiftTicks(s, ts);
    if (t < 0n || (f.version !== 1 && t > 0xffffffffn) || t > 0xffffffffffffffffn) return null;
    next.push(t);
  }
  return fields.map((f, i) => {
    if (f.version === 1) v.setBigUint64(f.offset, next[i]); else v.setUint32(f.offset, Number(next[i]));
    return { offset: f.offset, length: f.version === 1 ? 8 : 4 };
  });
}

/**
 * The shift that starts a recorded range at media time 0 (strict players such as GStreamer's legacy HLS demuxer
 * wait out any media time before the first segment): minus the earliest decode time, over all tracks, of the
 * range's first segment. Null when that segment has no readable tfdt.
 */
export function rangeShift(first: Uint8Array, tracks: Map<number, { timescale: number }>): Shift | null {
  let best: { time: bigint; timescale: number } | null = null;
  for (const f of timeFields(first)) {
    const ts = f.box === 'tfdt' ? tracks.get(f.trackId)?.timescale : undefined;
    if (!ts) continue;
    if (!best || f.time * BigInt(best.timescale) < best.time * BigInt(ts)) best = { time: f.time, timescale: ts };
  }
  return best ? { ticks: -best.time, timescale: best.timescale } : null;
}
