import { expect, test } from 'bun:test';
import { fragmentsOf, initFacts } from '../../src/media/fmp4-index';
import { iframeBandwidth, iframeEntries, iframePlaylist, withIframeStreams } from '../../src/media/iframe-playlist';

// Boxes built by hand (ISO/IEC 14496-12 layouts) so each flag path of the fragment reader is pinned down.
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b; };
const box = (type: string, ...parts: Buffer[]) => { const body = Buffer.concat(parts); return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]); };
const full = (type: string, version: number, flags: number, ...parts: Buffer[]) => box(type, u32((version << 24) | flags), ...parts);
const NON_SYNC = 0x10000;

/** An init segment: mdhd timescale, trex defaults (duration 1000, size 0, flags non-sync). */
function init(timescale: number): Buffer {
  const mdhd = full('mdhd', 0, 0, u32(0), u32(0), u32(timescale), u32(0), u32(0));
  const trex = full('trex', 0, 0, u32(1), u32(1), u32(1000), u32(0), u32(NON_SYNC));
  return Buffer.concat([box('ftyp', Buffer.from('iso6'), u32(0)), box('moov', box('trak', box('mdia', mdhd)), box('mvex', trex))]);
}

/** One moof+mdat: trun with data offset, optional first-sample flags, per-sample sizes; tfdt version 1. */
function fragment(decode: number, sizes: number[], firstFlags: number | null): Buffer {
  const tfhd = full('tfhd', 0, 0x20000, u32(1)); // default-base-is-moof
  const tfdt = full('tfdt', 1, 0, u32(0), u32(decode));
  const runFlags = 0x1 | 0x200 | (firstFlags !== null ? 0x4 : 0);
  const trunBody = (off: number) => full('trun', 0, runFlags, u32(sizes.length), u32(off), ...(firstFlags !== null ? [u32(firstFlags)] : []), ...sizes.map(u32));
  const moofLen = box('moof', box('traf', tfhd, tfdt, trunBody(0))).length;
  const moof = box('moof', box('traf', tfhd, tfdt, trunBody(moofLen + 8)));
  const mdat = box('mdat', ...sizes.map((n, i) => Buffer.alloc(n, i + 1)));
  return Buffer.concat([moof, mdat]);
}

test('fragments: decode time, duration from trex defaults, keyframe from the first-sample flags, first sample end', () => {
  const facts = initFacts(init(90000));
  expect(facts).toEqual({ timescale: 90000, defaultDuration: 1000, defaultSize: 0, defaultFlags: NON_SYNC });
  const a = fragment(0, [500, 40, 30], 0x2000000); // first sample: sync (depends on no other)
  const b = fragment(3000, [20, 20], null); // no first-sample flags: trex's non-sync default
  const seg = Buffer.concat([box('styp', Buffer.from('msdh'), u32(0)), a, b]);
  const frags = fragmentsOf(seg, facts);
  expect(frags).toHaveLength(2);
  expect(frags[0]).toMatchObject({ moofOffset: 16, decodeTime: 0, duration: 3000, keyframe: true });
  // The range ends with the first sample: moof + mdat header + 500 bytes, and those bytes are sample 1's.
  const moofLen = a.length - (8 + 570);
  expect(frags[0]!.firstSampleEnd).toBe(moofLen + 8 + 500);
  const range = seg.subarray(frags[0]!.moofOffset, frags[0]!.moofOffset + frags[0]!.firstSampleEnd);
  expect([...range.subarray(range.length - 500)].every((x) => x === 1)).toBe(true);
  expect(frags[1]).toMatchObject({ moofOffset: 16 + a.length, decodeTime: 3000, duration: 2000, keyframe: false });
});

test('entries run to the next keyframe across segments; playlist, bandwidth and master lines', () => {
  const f = (t: number, d: number, k: boolean, off = 0) => ({ moofOffset: off, firstSampleEnd: 1000, decodeTime: t, duration: d, keyframe: k });
  const entries = iframeEntries([
    { file: 's1.m4s', fragments: [f(0, 180000, true), f(180000, 90000, false, 2000)] },
    { file: 's2.m4s', fragments: [f(270000, 90000, true), f(360000, 90000, true, 3000)] },
  ], 90000);
  expect(entries).toEqual([
    { file: 's1.m4s', offset: 0, length: 1000, durationS: 3 },
    { file: 's2.m4s', offset: 0, length: 1000, durationS: 1 },
    { file: 's2.m4s', offset: 3000, length: 1000, durationS: 1 },
  ]);
  const text = iframePlaylist('init_0.m4s', entries);
  expect(text).toContain('#EXT-X-TARGETDURATION:3\n');
  expect(text).toContain('#EXT-X-I-FRAMES-ONLY\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI="init_0.m4s"\n#EXTINF:3.000000,\n#EXT-X-BYTERANGE:1000@0\ns1.m4s\n');
  expect(text.endsWith('#EXT-X-ENDLIST\n')).toBe(true);
  expect(iframeBandwidth(entries)).toBe(8000);
  const master = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2",AUDIO="a"\nmedia_0.m3u8\n';
  const out = withIframeStreams(master, [{ media: 'media_0.m3u8', uri: 'iframe_0.m3u8', bandwidth: 8000 }]);
  expect(out).toEndWith('media_0.m3u8\n\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=8000,RESOLUTION=640x360,CODECS="avc1.64001e",URI="iframe_0.m3u8"\n');
  // Idempotent: written again, the old lines go.
  expect(withIframeStreams(out, [{ media: 'media_0.m3u8', uri: 'iframe_0.m3u8', bandwidth: 8000 }])).toBe(out);
});
