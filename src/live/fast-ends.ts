/**
 * Where each track of a media segment ends (decode time of its first sample plus its samples' durations), for FAST
 * joins: an airing cut after a segment must end where its shorter track ends, or the next airing would leave a
 * hole in the longer one's partner (an asset's audio segments are cut up to a few AAC frames before its video's).
 */
import { boxes, child, initTracks } from './mp4';
import { timeFields } from './rebase';

/** Start and end (ms, the segment's own decode times) of its video and audio tracks; null for a track it lacks. */
export function trackSpansMs(seg: Uint8Array, init: Uint8Array): { video: [number, number] | null; audio: [number, number] | null } {
  const tracks = initTracks(init);
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  const first = new Map<number, bigint>();
  for (const f of timeFields(seg)) if (f.box === 'tfdt' && !first.has(f.trackId)) first.set(f.trackId, f.time);
  const sums = new Map<number, number>();
  for (const moof of (boxes(seg, 0, seg.length) ?? []).filter((x) => x.type === 'moof')) {
    for (const traf of (boxes(seg, moof.body, moof.end) ?? []).filter((x) => x.type === 'traf')) {
      const tfhd = child(seg, traf, 'tfhd');
      if (!tfhd) continue;
      const flags = v.getUint32(tfhd.body) & 0xffffff, id = v.getUint32(tfhd.body + 4);
      const o = tfhd.body + 8 + (flags & 0x01 ? 8 : 0) + (flags & 0x02 ? 4 : 0);
      const def = flags & 0x08 ? v.getUint32(o) : tracks.get(id)?.defaultDuration ?? 0;
      for (const trun of (boxes(seg, traf.body, traf.end) ?? []).filter((x) => x.type === 'trun')) {
        const tf = v.getUint32(trun.body) & 0xffffff, n = v.getUint32(trun.body + 4);
        let q = trun.body + 8 + (tf & 0x01 ? 4 : 0) + (tf & 0x04 ? 4 : 0);
        const stride = 4 * [0x100, 0x200, 0x400, 0x800].filter((f) => tf & f).length;
        let sum = 0;
        for (let i = 0; i < n; i++) { sum += tf & 0x100 ? v.getUint32(q) : def; q += stride; }
        sums.set(id, (sums.get(id) ?? 0) + sum);
      }
    }
  }
  const span = (kind: string): [number, number] | null => {
    const id = [...tracks.keys()].find((k) => tracks.get(k)!.kind === kind);
    const t = id === undefined ? undefined : tracks.get(id)!;
    if (id === undefined || !t || !first.has(id)) return null;
    const start = (Number(first.get(id)) * 1000) / t.timescale;
    return [start, start + ((sums.get(id) ?? 0) * 1000) / t.timescale];
  };
  return { video: span('vide'), audio: span('soun') };
}
