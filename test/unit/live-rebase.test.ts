import { describe, expect, test } from 'bun:test';
import { applyShift, leadTime, rangeShift, shiftTicks, shiftTo, timeFields } from '../../src/live/rebase';
import { isCompleteSegment } from '../../src/live/mp4';

// A hand-built CMAF media segment: styp, one sidx per track (v1, v0), moof with a video traf (tfdt v1) and an audio
// traf (tfdt v0), mdat. Enough for the box walk; no sample data is interpreted.
const u32 = (n: number) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n); return b; };
const u64 = (n: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, n); return b; };
const cat = (...p: Uint8Array[]) => { const out = new Uint8Array(p.reduce((a, x) => a + x.length, 0)); let o = 0; for (const x of p) { out.set(x, o); o += x.length; } return out; };
const box = (type: string, ...body: Uint8Array[]) => { const b = cat(...body); return cat(u32(8 + b.length), new TextEncoder().encode(type), b); };
const full = (v: number) => new Uint8Array([v, 0, 0, 0]);
const sidx = (v: 0 | 1, id: number, ts: number, ept: bigint) => box('sidx', full(v), u32(id), u32(ts), v ? u64(ept) : u32(Number(ept)), v ? u64(0n) : u32(0), u32(1), u32(100), u32(2000), u32(0x90000000));
const traf = (id: number, v: 0 | 1, t: bigint) => box('traf', box('tfhd', full(0), u32(id)), box('tfdt', full(v), v ? u64(t) : u32(Number(t))), box('trun', full(0), u32(0)));
const segment = (video: bigint, audio: bigint) => cat(
  box('styp', new TextEncoder().encode('msdh'), u32(0)),
  sidx(1, 1, 12800, video), sidx(0, 2, 48000, audio),
  box('moof', box('mfhd', full(0), u32(7)), traf(1, 1, video), traf(2, 0, audio)),
  box('mdat', new Uint8Array(32)),
);
const tracks = new Map([[1, { timescale: 12800, kind: 'vide' }], [2, { timescale: 48000, kind: 'soun' }]]);

describe('live timeline rebase (tfdt / sidx)', () => {
  test('reads every tfdt and sidx time field with its track, version and place', () => {
    const f = timeFields(segment(25600n, 97280n));
    expect(f.map((x) => [x.box, x.trackId, x.version, x.time])).toEqual([['sidx', 1, 1, 25600n], ['sidx', 2, 0, 97280n], ['tfdt', 1, 1, 25600n], ['tfdt', 2, 0, 97280n]]);
    expect(f[0].timescale).toBe(12800);
    expect(f[2].timescale).toBeNull();
  });

  test('the lead is the video track', () => {
    expect(leadTime(segment(25600n, 97280n), tracks)).toEqual({ time: 25600n, timescale: 12800 });
    expect(leadTime(segment(25600n, 97280n), new Map([[2, { timescale: 48000, kind: 'soun' }]]))).toEqual({ time: 97280n, timescale: 48000 });
  });

  test('shiftTo puts the first decode time on the wall clock; every track moves by the same time', () => {
    const at = 1_795_399_395_513; // ms since the epoch
    const s = shiftTo(at, 0n, 12800);
    expect(s).toEqual({ ticks: 22_981_112_262_566n, timescale: 12800 }); // 1795399395.513 s * 12800, rounded
    expect(shiftTicks(s, 48000)).toBe(86_179_170_984_623n); // the same shift at 48 kHz: 22981112262566 * 3.75, rounded
    expect(shiftTicks({ ticks: -3n, timescale: 2 }, 1)).toBe(-2n); // halves away from zero
  });

  test('applyShift patches tfdt and sidx in place (sidx in its own timescale), leaves the structure whole', () => {
    const seg = segment(0n, 1024n);
    const before = seg.slice();
    const patches = applyShift(seg, { ticks: 12800n * 100n, timescale: 12800 }, tracks)!; // +100 s
    expect(patches).toHaveLength(4);
    expect(timeFields(seg).map((x) => x.time)).toEqual([1_280_000n, 4_801_024n, 1_280_000n, 4_801_024n]);
    expect(isCompleteSegment(seg)).toBe(true);
    expect(seg.length).toBe(before.length);
    // Only the patched bytes changed.
    const changed = [...seg.keys()].filter((i) => seg[i] !== before[i]);
    for (const i of changed) expect(patches.some((p) => i >= p.offset && i < p.offset + p.length)).toBe(true);
  });

  test('applyShift refuses (null, untouched) a negative time, a version-0 overflow or an unknown track', () => {
    const seg = segment(100n, 100n);
    const copy = seg.slice();
    expect(applyShift(seg, { ticks: -1000n, timescale: 12800 }, tracks)).toBeNull();
    expect(applyShift(seg, { ticks: 12800n * 1_000_000n, timescale: 12800 }, tracks)).toBeNull(); // audio tfdt v0 > 2^32
    expect(applyShift(seg, { ticks: 1n, timescale: 12800 }, new Map([[1, { timescale: 12800 }]]))).toBeNull();
    expect(seg).toEqual(copy);
  });

  test('rangeShift starts a range at 0 from its earliest track, and reads a segment head only', () => {
    const seg = segment(12800n * 10n, 48000n * 9n); // video at 10 s, audio at 9 s
    const s = rangeShift(seg.subarray(0, seg.length - 20), tracks)!; // mdat cut off: the head is enough
    expect(s).toEqual({ ticks: -432000n, timescale: 48000 });
    applyShift(seg, s, tracks);
    expect(timeFields(seg).filter((x) => x.box === 'tfdt').map((x) => x.time)).toEqual([12800n, 0n]);
  });
});
