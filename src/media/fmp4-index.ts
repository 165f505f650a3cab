/**
 * Pure reading of fragmented-MP4 (CMAF) boxes for I-frame playlists: the video timescale and per-track defaults
 * from an init segment (`moov/trak/mdia/mdhd`, `moov/mvex/trex`), and from a media segment every fragment (`moof`
 * + `mdat`) with its decode time (`tfdt`), duration, and whether and where its first sample is a sync sample
 * (ISO/IEC 14496-12 §8.8: `tfhd`, `trun` flags; `sample_is_non_sync_sample` is bit 16 of the sample flags).
 */

/** Facts of the (single) track in an init segment. */
export interface InitFacts { timescale: number; defaultDuration: number; defaultSize: number; defaultFlags: number }

/** One fragment of a media segment. */
export interface Fragment {
  /** Byte offset of the `moof` box in the segment. */
  moofOffset: number;
  /** Bytes from the `moof` start to the end of the first sample's data (moof + mdat header + sample 1). */
  firstSampleEnd: number;
  /** Decode time of the first sample, in the track's timescale. */
  decodeTime: number;
  /** Sum of the fragment's sample durations (timescale units). */
  duration: number;
  /** Whether the first sample is a sync sample (a keyframe). */
  keyframe: boolean;
}

interface Box { type: string; start: number; end: number; body: number }

const NON_SYNC = 0x10000;

function boxes(b: Uint8Array, from: number, to: number): Box[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Box[] = [];
  let p = from;
  while (p + 8 <= to) {
    let size = v.getUint32(p);
    let body = p + 8;
    if (size === 1) { size = Number(v.getBigUint64(p + 8)); body = p + 16; } else if (size === 0) size = to - p;
    if (size < 8 || p + size > to) throw new Error(`broken MP4 box at byte ${p}`);
    out.push({ type: String.fromCharCode(b[p + 4]!, b[p + 5]!, b[p + 6]!, b[p + 7]!), start: p, end: p + size, body });
    p += size;
  }
  return out;
}

const child = (b: Uint8Array, parent: Box, type: string) => boxes(b, parent.body, parent.end).find((x) => x.type === type);
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Pure: the timescale and sample defaults of an init segment's first track. */
export function initFacts(init: Uint8Array): InitFacts {
  const v = view(init);
  const moov = boxes(init, 0, init.length).find((x) => x.type === 'moov');
  if (!moov) throw new Error('init segment has no moov');
  const trak = child(init, moov, 'trak');
  const mdia = trak && child(init, trak, 'mdia');
  const mdhd = mdia && child(init, mdia, 'mdhd');
  if (!mdhd) throw new Error('init segment has no mdhd');
  const timescale = v.getUint8(mdhd.body) === 1 ? v.getUint32(mdhd.body + 20) : v.getUint32(mdhd.body + 12);
  const mvex = child(init, moov, 'mvex');
  const trex = mvex && child(init, mvex, 'trex');
  // trex: fullbox(4) track_ID(4) default_sample_description_index(4) duration(4) size(4) flags(4)
  return trex
    ? { timescale, defaultDuration: v.getUint32(trex.body + 12), defaultSize: v.getUint32(trex.body + 16), defaultFlags: v.getUint32(trex.body + 20) }
    : { timescale, defaultDuration: 0, defaultSize: 0, defaultFlags: 0 };
}

/** Pure: the fragments of one media segment (one track per fragment, as our CMAF renditions are). */
export function fragmentsOf(seg: Uint8Array, init: InitFacts): Fragment[] {
  const v = view(seg);
  const top = boxes(seg, 0, seg.length);
  const out: Fragment[] = [];
  for (let i = 0; i < top.length; i++) {
    const moof = top[i]!;
    if (moof.type !== 'moof') continue;
    const traf = child(seg, moof, 'traf');
    const tfhd = traf && child(seg, traf, 'tfhd');
    const trun = traf && child(seg, traf, 'trun');
    if (!traf || !tfhd || !trun) throw new Error(`fragment at byte ${moof.start} has no traf/tfhd/trun`);
    // tfhd: optional fields in flag order after track_ID.
    const hf = v.getUint32(tfhd.body) & 0xffffff;
    let p = tfhd.body + 8;
    if (hf & 0x1) p += 8; // base_data_offset
    if (hf & 0x2) p += 4; // sample_description_index
    let dDur = init.defaultDuration, dSize = init.defaultSize, dFlags = init.defaultFlags;
    if (hf & 0x8) { dDur = v.getUint32(p); p += 4; }
    if (hf & 0x10) { dSize = v.getUint32(p); p += 4; }
    if (hf & 0x20) { dFlags = v.getUint32(p); p += 4; }
    const tfdt = child(seg, traf, 'tfdt');
    const decodeTime = !tfdt ? 0 : v.getUint8(tfdt.body) === 1 ? Number(v.getBigUint64(tfdt.body + 4)) : v.getUint32(tfdt.body + 4);
    const rf = v.getUint32(trun.body) & 0xffffff;
    const count = v.getUint32(trun.body + 4);
    let q = trun.body + 8;
    let dataOffset: number | null = null;
    if (rf & 0x1) { dataOffset = v.getInt32(q); q += 4; }
    let firstFlags: number | null = null;
    if (rf & 0x4) { firstFlags = v.getUint32(q); q += 4; }
    let duration = 0, firstSize = 0, firstSampleFlags = dFlags;
    for (let s = 0; s < count; s++) {
      const dur = rf & 0x100 ? v.getUint32(q) : dDur; if (rf & 0x100) q += 4;
      const size = rf & 0x200 ? v.getUint32(q) : dSize; if (rf & 0x200) q += 4;
      const flags = rf & 0x400 ? v.getUint32(q) : dFlags; if (rf & 0x400) q += 4;
      if (rf & 0x800) q += 4; // composition time offset
      duration += dur;
      if (s === 0) { firstSize = size; firstSampleFlags = firstFlags ?? flags; }
    }
    // Data starts at moof + data_offset (default-base-is-moof, as CMAF writes), else right after the mdat header.
    const mdat = top.slice(i + 1).find((x) => x.type === 'mdat');
    if (!mdat) throw new Error(`fragment at byte ${moof.start} has no mdat`);
    const dataStart = dataOffset !== null && !(hf & 0x1) ? moof.start + dataOffset : mdat.body;
    out.push({ moofOffset: moof.start, firstSampleEnd: dataStart + firstSize - moof.start, decodeTime, duration, keyframe: count > 0 && !(firstSampleFlags & NON_SYNC) });
  }
  return out;
}
