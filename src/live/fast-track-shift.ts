/** Moving one track's decode times in a media segment (tfdt, and a sidx that references that track), in place. Pure. */
import { boxes, child } from './mp4';
import { timeFields, type Patch } from './rebase';

/** Adds `ticks` (of the track's own timescale) to every time field of track `trackId`; the patched ranges (null: a value would leave its field). */
export function shiftTrack(seg: Uint8Array, trackId: number, ticks: bigint): Patch[] | null {
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  const fields = timeFields(seg).filter((f) => f.trackId === trackId);
  for (const f of fields) { const t = f.time + ticks; if (t < 0n || (f.version !== 1 && t > 0xffffffffn)) return null; }
  return fields.map((f) => {
    const t = f.time + ticks;
    if (f.version === 1) v.setBigUint64(f.offset, t); else v.setUint32(f.offset, Number(t));
    return { offset: f.offset, length: f.version === 1 ? 8 : 4 };
  });
}

/**
 * Subtracts `ticks` from every sample composition offset of track `trackId` (trun version set to 1: signed
 * offsets), in place: with its decode times moved later by the same amount (shiftTrack), the first sample's decode
 * time equals its presentation time, as players that start a discontinuity at the first decode time need.
 * Returns false when the track's samples carry no composition offsets (nothing to do).
 */
export function lowerComposition(seg: Uint8Array, trackId: number, ticks: number): boolean {
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  let done = false;
  for (const moof of (boxes(seg, 0, seg.length) ?? []).filter((x) => x.type === 'moof')) {
    for (const traf of (boxes(seg, moof.body, moof.end) ?? []).filter((x) => x.type === 'traf')) {
      const tfhd = child(seg, traf, 'tfhd');
      if (!tfhd || v.getUint32(tfhd.body + 4) !== trackId) continue;
      for (const trun of (boxes(seg, traf.body, traf.end) ?? []).filter((x) => x.type === 'trun')) {
        const version = seg[trun.body], tf = v.getUint32(trun.body) & 0xffffff, n = v.getUint32(trun.body + 4);
        if (!(tf & 0x800)) continue;
        let q = trun.body + 8 + (tf & 0x01 ? 4 : 0) + (tf & 0x04 ? 4 : 0);
        const before = 4 * [0x100, 0x200, 0x400].filter((f) => tf & f).length;
        const stride = before + 4;
        for (let i = 0; i < n; i++, q += stride) {
          const cts = version === 1 ? v.getInt32(q + before) : v.getUint32(q + before);
          v.setInt32(q + before, cts - ticks);
        }
        seg[trun.body] = 1;
        done = true;
      }
    }
  }
  return done;
}
