/**
 * Waveform peaks from raw mono signed 16-bit samples, in the JSON format of BBC's `audiowaveform` (version 2, one
 * channel, 8 bits), which waveform viewers such as peaks.js read as they are: `data` holds a min and a max per pixel.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** The waveform answer: audiowaveform's JSON (version 2). */
export interface Waveform {
  version: 2; channels: 1; sample_rate: number; samples_per_pixel: number; bits: 8; length: number; data: number[];
}

/** Pixels a second for short media (10 ms a pixel: a cue edge can be placed by eye). */
export const PIXELS_PER_SECOND = 100;
/** Most pixels a waveform holds (long recordings get coarser pixels instead of a bigger answer). */
export const MAX_PIXELS = 180_000;

/** Samples a pixel covers for `durationS` of audio at `rate`: 10 ms, coarser past MAX_PIXELS. */
export function samplesPerPixel(rate: number, durationS: number | null): number {
  const fine = Math.round(rate / PIXELS_PER_SECOND);
  const total = Math.max(0, (durationS ?? 0) * rate);
  return Math.max(fine, Math.ceil(total / MAX_PIXELS));
}

const to8 = (v: number) => Math.max(-128, Math.min(127, Math.round(v / 256)));

/** Reads a raw s16le mono file in blocks and returns its min/max per `spp` samples (the last pixel may be shorter). */
export function peaksOfRawFile(path: string, rate: number, spp: number): Waveform {
  const data: number[] = [];
  const block = Buffer.alloc(spp * 2 * 4096);
  const fd = openSync(path, 'r');
  let min = 0, max = 0, n = 0, carry = -1;
  try {
    for (;;) {
      const got = readSync(fd, block, 0, block.length, null);
      if (got <= 0) break;
      let i = 0;
      // A sample split across two reads: its low byte came last time.
      if (carry >= 0) { const v = (block[0]! << 8 | carry) << 16 >> 16; take(v); carry = -1; i = 1; }
      for (; i + 1 < got; i += 2) take(block.readInt16LE(i));
      if (i < got) carry = block[i]!;
    }
  } finally { closeSync(fd); }
  if (n) data.push(to8(min), to8(max));
  return { version: 2, channels: 1, sample_rate: rate, samples_per_pixel: spp, bits: 8, length: data.length / 2, data };

  function take(v: number): void {
    if (n === 0) { min = v; max = v; } else { if (v < min) min = v; if (v > max) max = v; }
    if (++n === spp) { data.push(to8(min), to8(max)); n = 0; }
  }
}
