/** Minimal ISO-BMFF reading for recorded CMAF segments: structure check and duration (no dependencies). */

/** One ISO-BMFF box: its type, where it starts, where its body starts (after the header) and where it ends. */
export interface Box { type: string; start: number; body: number; end: number }

/** The boxes laid end to end in b[from, to), or null when they do not tile it exactly. */
export function boxes(b: Uint8Array, from: number, to: number): Box[] | null {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Box[] = [];
  let p = from;
  while (p < to) {
    if (to - p < 8) return null;
    let size = v.getUint32(p);
    let hdr = 8;
    if (size === 1) { if (to - p < 16) return null; size = Number(v.getBigUint64(p + 8)); hdr = 16; }
    if (size === 0) size = to - p;
    if (size < hdr || p + size > to) return null;
    out.push({ type: String.fromCharCode(b[p + 4], b[p + 5], b[p + 6], b[p + 7]), start: p, body: p + hdr, end: p + size });
    p += size;
  }
  return out;
}

/** The first child box of `parent` with `type`, or null. */
export const child = (b: Uint8Array, parent: Box, type: string) => boxes(b, parent.body, parent.end)?.find((x) => x.type === type) ?? null;

/** True when a media segment is complete: top-level boxes span the file exactly and include moof and mdat. */
export function isCompleteSegment(b: Uint8Array): boolean {
  const top = boxes(b, 0, b.length);
  if (!top || !top.length) return false;
  return top.some((x) => x.type === 'moof') && top.some((x) => x.type === 'mdat');
}

/** Timescale and default sample duration per track id, from an init segment (moov). */
export function initTracks(b: Uint8Array): Map<number, { timescale: number; defaultDuration: number; kind: string }> {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Map<number, { timescale: number; defaultDuration: number; kind: string }>();
  const moov = boxes(b, 0, b.length)?.find((x) => x.type === 'moov');
  if (!moov) return out;
  const kids = boxes(b, moov.body, moov.end) ?? [];
  for (const trak of kids.filter((x) => x.type === 'trak')) {
    const tkhd = child(b, trak, 'tkhd'), mdia = child(b, trak, 'mdia');
    if (!tkhd || !mdia) continue;
    const id = v.getUint32(tkhd.body + (b[tkhd.body] === 1 ? 20 : 12));
    const mdhd = child(b, mdia, 'mdhd'), hdlr = child(b, mdia, 'hdlr');
    if (!mdhd) continue;
    const timescale = v.getUint32(mdhd.body + (b[mdhd.body] === 1 ? 20 : 12));
    const kind = hdlr ? String.fromCharCode(...b.subarray(hdlr.body + 8, hdlr.body + 12)) : '';
    out.set(id, { timescale, defaultDuration: 0, kind });
  }
  const mvex = kids.find((x) => x.type === 'mvex');
  for (const trex of (mvex ? boxes(b, mvex.body, mvex.end) ?? [] : []).filter((x) => x.type === 'trex')) {
    const t = out.get(v.getUint32(trex.body + 4));
    if (t) t.defaultDuration = v.getUint32(trex.body + 12);
  }
  return out;
}

/** Duration in ms of a media segment (video track preferred), from its trun boxes; null when unreadable. */
export function segmentDurationMs(seg: Uint8Array, init: Uint8Array): number | null {
  const tracks = initTracks(init);
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  const per = new Map<number, number>();
  for (const moof of (boxes(seg, 0, seg.length) ?? []).filter((x) => x.type === 'moof')) {
    for (const traf of (boxes(seg, moof.body, moof.end) ?? []).filter((x) => x.type === 'traf')) {
      const tfhd = child(seg, traf, 'tfhd');
      if (!tfhd) continue;
      const flags = v.getUint32(tfhd.body) & 0xffffff;
      const id = v.getUint32(tfhd.body + 4);
      let o = tfhd.body + 8;
      if (flags & 0x01) o += 8;
      if (flags & 0x02) o += 4;
      let def = tracks.get(id)?.defaultDuration ?? 0;
      if (flags & 0x08) def = v.getUint32(o);
      for (const trun of (boxes(seg, traf.body, traf.end) ?? []).filter((x) => x.type === 'trun')) {
        const tf = v.getUint32(trun.body) & 0xffffff;
        const n = v.getUint32(trun.body + 4);
        let q = trun.body + 8 + (tf & 0x01 ? 4 : 0) + (tf & 0x04 ? 4 : 0);
        const stride = 4 * [0x100, 0x200, 0x400, 0x800].filter((f) => tf & f).length;
        let sum = 0;
        for (let i = 0; i < n; i++) { sum += tf & 0x100 ? v.getUint32(q) : def; q += stride; }
        per.set(id, (per.get(id) ?? 0) + sum);
      }
    }
  }
  const ids = [...per.keys()];
  const pick = ids.find((id) => tracks.get(id)?.kind === 'vide') ?? ids[0];
  const ts = pick === undefined ? 0 : tracks.get(pick)?.timescale ?? 0;
  return ts ? Math.round(((per.get(pick!) ?? 0) * 1000) / ts) : null;
}
