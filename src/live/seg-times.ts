/**
 * Lean segment timings as parallel typed arrays (no row objects, no paths: a segment's file follows from its start),
 * and the compact per-hour encoding kept in `live_hour_lists` (see migration 0042).
 */

/** Timings of indexed segments, oldest first: start, duration, discontinuity flag and init segment (epoch ms). */
export interface SegTimes { n: number; start: Float64Array; dur: Float64Array; disc: Uint8Array; init: Float64Array }

/** One closed hour's encoded list: Int32 triples (start - hour, duration, disc | init index << 1), init starts (Float64) and recorded spans (Float64 pairs). */
export interface EncodedHour { segs: Uint8Array; inits: Uint8Array; spans: Uint8Array }

/** Empty timings with room for `cap` segments. */
export function newTimes(cap = 0): SegTimes {
  return { n: 0, start: new Float64Array(cap), dur: new Float64Array(cap), disc: new Uint8Array(cap), init: new Float64Array(cap) };
}

/** Makes room for `more` further segments (amortised doubling). */
export function reserve(t: SegTimes, more: number): void {
  const need = t.n + more;
  if (need <= t.start.length) return;
  const cap = Math.max(need, t.start.length * 2, 64);
  const grow = <A extends Float64Array | Uint8Array>(a: A, b: A): A => { b.set(a.subarray(0, t.n)); return b; };
  t.start = grow(t.start, new Float64Array(cap)); t.dur = grow(t.dur, new Float64Array(cap));
  t.disc = grow(t.disc, new Uint8Array(cap)); t.init = grow(t.init, new Float64Array(cap));
}

/** Appends one segment. */
export function push(t: SegTimes, start: number, dur: number, disc: number, init: number): void {
  reserve(t, 1);
  const i = t.n++;
  t.start[i] = start; t.dur[i] = dur; t.disc[i] = disc; t.init[i] = init;
}

/** A view of segments [i0, i1) (shares memory). */
export function slice(t: SegTimes, i0: number, i1: number): SegTimes {
  return { n: Math.max(0, i1 - i0), start: t.start.subarray(i0, i1), dur: t.dur.subarray(i0, i1), disc: t.disc.subarray(i0, i1), init: t.init.subarray(i0, i1) };
}

/** Timings from row-like objects (tests, callers holding rows). */
export function timesOf(rows: { start_ms: number; duration_ms: number; discontinuity: number; init_ms: number }[]): SegTimes {
  const t = newTimes(rows.length);
  for (const r of rows) push(t, r.start_ms, r.duration_ms, r.discontinuity, r.init_ms);
  return t;
}

/** The segments overlapping [fromMs, toMs) (sorted input: one scan from each edge). */
export function overlapping(t: SegTimes, fromMs: number, toMs: number): SegTimes {
  let i0 = 0, i1 = t.n;
  while (i0 < i1 && t.start[i0] + t.dur[i0] <= fromMs) i0++;
  while (i1 > i0 && t.start[i1 - 1] >= toMs) i1--;
  return i0 === 0 && i1 === t.n ? t : slice(t, i0, i1);
}

/** Recorded spans as flat [from, to, from, to, ...]: segments that touch end to end are merged. */
export function spansOf(t: SegTimes, out: number[] = []): number[] {
  for (let i = 0; i < t.n; i++) {
    const s = t.start[i], e = s + t.dur[i];
    if (out.length && out[out.length - 1] === s) out[out.length - 1] = e;
    else out.push(s, e);
  }
  return out;
}

/** Encodes one hour's timings (starts within [hourMs, hourMs + 1 h)). */
export function encodeHour(hourMs: number, t: SegTimes): EncodedHour {
  const inits: number[] = [];
  const segs = new Int32Array(t.n * 3);
  for (let i = 0, k = -1; i < t.n; i++) {
    if (k < 0 || inits[k] !== t.init[i]) { k = inits.indexOf(t.init[i]); if (k < 0) k = inits.push(t.init[i]) - 1; }
    segs[i * 3] = t.start[i] - hourMs; segs[i * 3 + 1] = t.dur[i]; segs[i * 3 + 2] = t.disc[i] | (k << 1);
  }
  const bytes = (a: Int32Array | Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return { segs: bytes(segs), inits: bytes(Float64Array.from(inits)), spans: bytes(Float64Array.from(spansOf(t))) };
}

const aligned = (b: Uint8Array, n: number) => (b.byteOffset % n === 0 ? b : b.slice());

/** Appends an encoded hour's segments to `out`. */
export function decodeHourInto(hourMs: number, e: { segs: Uint8Array; inits: Uint8Array }, out: SegTimes): void {
  const sb = aligned(e.segs, 4), ib = aligned(e.inits, 8);
  const segs = new Int32Array(sb.buffer, sb.byteOffset, sb.byteLength >> 2);
  const inits = new Float64Array(ib.buffer, ib.byteOffset, ib.byteLength >> 3);
  const m = segs.length / 3;
  reserve(out, m);
  let j = out.n;
  const { start, dur, disc, init } = out;
  for (let i = 0; i < segs.length; i += 3, j++) {
    start[j] = hourMs + segs[i]; dur[j] = segs[i + 1];
    const f = segs[i + 2];
    disc[j] = f & 1; init[j] = inits[f >> 1];
  }
  out.n = j;
}

/** Decodes an hour's recorded spans (flat pairs). */
export function decodeSpans(spans: Uint8Array): Float64Array {
  const b = aligned(spans, 8);
  return new Float64Array(b.buffer, b.byteOffset, b.byteLength >> 3);
}
