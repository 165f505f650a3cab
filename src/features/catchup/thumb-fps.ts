/** Frame rate of a recorded CMAF segment, from its video track's sample count (no decoding). */
import { boxes, child, initTracks } from '../../live/mp4';

/** Video frames per second of one segment (`durationMs` from the index), rounded to 0.01; null when unreadable. */
export function videoFps(seg: Uint8Array, init: Uint8Array, durationMs: number): number | null {
  if (durationMs <= 0) return null;
  const video = [...initTracks(init)].find(([, t]) => t.kind === 'vide')?.[0];
  if (video === undefined) return null;
  const v = new DataView(seg.buffer, seg.byteOffset, seg.byteLength);
  let samples = 0;
  for (const moof of (boxes(seg, 0, seg.length) ?? []).filter((x) => x.type === 'moof')) {
    for (const traf of (boxes(seg, moof.body, moof.end) ?? []).filter((x) => x.type === 'traf')) {
      const tfhd = child(seg, traf, 'tfhd');
      if (!tfhd || v.getUint32(tfhd.body + 4) !== video) continue;
      // trun: version+flags (4 bytes), then sample_count.
      for (const trun of (boxes(seg, traf.body, traf.end) ?? []).filter((x) => x.type === 'trun')) samples += v.getUint32(trun.body + 4);
    }
  }
  return samples ? Math.round((samples * 100_000) / durationMs) / 100 : null;
}
