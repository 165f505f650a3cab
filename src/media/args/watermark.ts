/**
 * ffmpeg arguments of the A/B forensic watermark (issue 46): the invisible mark each variant carries and the frame
 * reads its detection makes. Pure builders, no I/O.
 */

/** The two variants of a marked ladder: A is what every viewer without a session gets, B the swapped-in segments. */
export type MarkVariant = 'a' | 'b';

/**
 * Default mark strength: the alpha of white blended over half of the picture, 0.02 = about 2-4 of 255 luma levels
 * (invisible; survives a downscale and a CRF 30 re-encode: scripts/bench/watermark.ts).
 */
export const MARK_LEVEL = 0.02;

/**
 * Pure: the mark of a variant as a filter for the decoded, 8-bit 4:2:0 picture, before any scaling (so every rendition
 * carries it): A lightens the left half, B the right half. Detection compares the two halves (the content cancels out
 * between A and B, so the separation is twice the mark).
 */
export function markFilter(variant: MarkVariant, level = MARK_LEVEL): string {
  if (!(level > 0 && level <= 0.2)) throw new Error(`watermark level out of range: ${level}`);
  // drawbox t=fill: a filled box of white at `level` opacity; x/y/w/h in the input's own size (iw/2: half the width).
  const x = variant === 'a' ? '0' : 'iw/2';
  return `drawbox=x=${x}:y=0:w=iw/2:h=ih:color=white@${level}:t=fill`;
}

/** Side of the tiny grey frames detection compares: 64x36 keeps the half-picture means and drops detail and noise. */
export const PROBE_W = 64;
export const PROBE_H = 36;

/** Probe frames per second of a decoded copy: the frame nearest any time is at most 1/20 s away. */
export const PROBE_FPS = 10;

/**
 * Pure: every 1/PROBE_FPS s of `input` as a 64x36 8-bit grey raw frame, one after another in `out` (frame k shows
 * time k/PROBE_FPS from 0): one decode of the whole copy instead of a seek per segment. Area scaling averages every
 * source pixel into the probe, so the mark's halves survive any resolution the copy was scaled to.
 */
export function probeFramesArgs(ffmpeg: string, input: string, out: string): string[] {
  return [
    ffmpeg, '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    // Files only (a leaked copy is an upload or a fetched body saved locally): no network protocol is opened.
    '-protocol_whitelist', 'file', '-i', input,
    // Video only; fps from time 0 (a copy starting late repeats its first frame up to its start), scaled, grey, raw.
    '-an', '-sn', '-dn', '-vf', `fps=fps=${PROBE_FPS}:start_time=0,scale=${PROBE_W}:${PROBE_H}:flags=area,format=gray`, '-f', 'rawvideo', out,
  ];
}
