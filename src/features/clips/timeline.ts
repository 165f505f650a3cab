/**
 * One continuous media timeline for a frame-precision clip: every piece (copied recording segment or re-encoded
 * edge) has its decode times moved so that piece i starts where piece i-1 ends, the first piece at time 0.
 * Pure functions over ISO-BMFF bytes: track fragment times (tfdt), their durations (trun), sidx start times.
 */
import { initTracks } from '../../live/mp4';

type Tracks = Map<number, { timescale: number; defaultDuration: number; kind: string }>;
interface Box { type: string; body: number; end: number }

/** The boxes laid end to end in b[from, to) (a malformed tail ends the list). */
function walk(b: Uint8Array, from: number, to: number): Box[] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Box[] = [];
  for (let p = from; p + 8 <= to;) {
    let size = v.getUint32(p), hdr = 8;
    if (size === 1) { if (p + 16 > to) break; size = Number(v.getBigUint64(p + 8)); hdr = 16; }
    if (size === 0) size = to - p;
    if (size < hdr || p + size > to) break;
    out.push({ type: String.fromCharCode(b[p + 4], b[p + 5], b[p + 6], b[p + 7]), body: p + hdr, end: p + size });
    p += size;
  }
  return out;
}

/** One time field of a segment: a track fragment's tfdt (with the fragment's duration) or a sidx start. */
interface Field { kind: 'tfdt' | 'sidx'; trackId: number; at: number; version: number; time: bigint; duration: bigint; timescale: number | null }

function fields(seg: Uint8Array, tracks: Tracks): Field[] {
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  const out: Field[] = [];
  for (const top of walk(seg, 0, seg.length)) {
    if (top.type === 'sidx' && top.end - top.body >= 20) {
      const version = seg[top.body], at = top.body + 12;
      out.push({ kind: 'sidx', trackId: v.getUint32(top.body + 4), at, version, time: version === 1 ? v.getBigUint64(at) : BigInt(v.getUint32(at)), duration: 0n, timescale: v.getUint32(top.body + 8) });
    }
    if (top.type !== 'moof') continue;
    for (const traf of walk(seg, top.body, top.end).filter((x) => x.type === 'traf')) {
      const kids = walk(seg, traf.body, traf.end);
      const tfhd = kids.find((x) => x.type === 'tfhd'), tfdt = kids.find((x) => x.type === 'tfdt');
      if (!tfhd || !tfdt) continue;
      const flags = v.getUint32(tfhd.body) & 0xffffff, trackId = v.getUint32(tfhd.body + 4);
      // tfhd optional fields: base data offset (8), sample description index (4), then default sample duration.
      const defAt = tfhd.body + 8 + (flags & 0x01 ? 8 : 0) + (flags & 0x02 ? 4 : 0);
      const def = flags & 0x08 ? v.getUint32(defAt) : tracks.get(trackId)?.defaultDuration ?? 0;
      let duration = 0n;
      for (const trun of kids.filter((x) => x.type === 'trun')) {
        const tf = v.getUint32(trun.body) & 0xffffff, n = v.getUint32(trun.body + 4);
        let q = trun.body + 8 + (tf & 0x01 ? 4 : 0) + (tf & 0x04 ? 4 : 0);
        const stride = 4 * [0x100, 0x200, 0x400, 0x800].filter((f) => tf & f).length;
        for (let i = 0; i < n; i++, q += stride) duration += BigInt(tf & 0x100 ? v.getUint32(q) : def);
      }
      const version = seg[tfdt.body], at = tfdt.body + 4;
      out.push({ kind: 'tfdt', trackId, at, version, time: version === 1 ? v.getBigUint64(at) : BigInt(v.getUint32(at)), duration, timescale: null });
    }
  }
  return out;
}

/** Start and duration of a piece on its lead track (video, else the first track), in that track's ticks. */
export interface PieceTiming { timescale: number; start: bigint; duration: bigint; tracks: Tracks }

/** Reads a piece's timing from its init and media segment; null when it has no fragment of a known track. */
export function pieceTiming(init: Uint8Array, seg: Uint8Array): PieceTiming | null {
  const tracks = initTracks(init);
  const f = fields(seg, tracks).filter((x) => x.kind === 'tfdt' && tracks.has(x.trackId));
  const lead = f.find((x) => tracks.get(x.trackId)!.kind === 'vide')?.trackId ?? f[0]?.trackId;
  if (lead === undefined) return null;
  const mine = f.filter((x) => x.trackId === lead);
  return { timescale: tracks.get(lead)!.timescale, start: mine[0].time, duration: mine.reduce((a, x) => a + x.duration, 0n), tracks };
}

/** Rounds n / d to the nearest integer; d > 0. */
const divRound = (n: bigint, d: bigint) => (n >= 0n ? (2n * n + d) / (2n * d) : -((-2n * n + d) / (2n * d)));

/** Earliest decode time of any track of the piece after a shift of `ticks` (lead timescale), in seconds. */
export function earliestAfter(seg: Uint8Array, t: PieceTiming, ticks: bigint): number {
  let min = Infinity;
  for (const f of fields(seg, t.tracks)) {
    const ts = f.timescale ?? t.tracks.get(f.trackId)?.timescale;
    if (!ts) continue;
    const moved = f.time + divRound(ticks * BigInt(ts), BigInt(t.timescale));
    min = Math.min(min, Number(moved) / ts);
  }
  return min;
}

/**
 * Moves every tfdt and sidx time of `seg` (in place) by `ticks` of the lead timescale, converted per track; every
 * track moves by the same time, so A/V sync inside the piece is kept. Throws when a value would leave its field.
 */
export function shiftPiece(seg: Uint8Array, t: PieceTiming, ticks: bigint): void {
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  for (const f of fields(seg, t.tracks)) {
    const ts = f.timescale ?? t.tracks.get(f.trackId)?.timescale;
    if (!ts) throw new Error(`clip timeline: track ${f.trackId} has no timescale`);
    const next = f.time + divRound(ticks * BigInt(ts), BigInt(t.timescale));
    if (next < 0n || (f.version !== 1 && next > 0xffffffffn)) throw new Error('clip timeline: a decode time would leave its field');
    if (f.version === 1) v.setBigUint64(f.at, next); else v.setUint32(f.at, Number(next));
  }
}

/**
 * Plans the shifts that lay pieces end to end from time 0: returns per piece the shift (lead ticks) and its
 * duration in seconds. `lead` is the extra start offset that keeps every track's first decode time >= 0.
 */
export function planTimeline(pieces: { seg: Uint8Array; timing: PieceTiming }[]): { shift: bigint; durationS: number }[] {
  const plan = (leadS: number) => {
    let at = leadS;
    return pieces.map(({ timing: t }) => {
      const shift = BigInt(Math.round(at * t.timescale)) - t.start;
      const durationS = Number(t.duration) / t.timescale;
      at += durationS;
      return { shift, durationS };
    });
  };
  const first = plan(0);
  const min = Math.min(0, ...pieces.map((p, i) => earliestAfter(p.seg, p.timing, first[i].shift)));
  return min < 0 ? plan(-min) : first;
}
