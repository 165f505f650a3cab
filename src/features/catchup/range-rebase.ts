/**
 * Media time of a delivered range: recorded segments carry the channel's timeline (decode time = wall-clock time
 * since the channel's creation), and strict players (GStreamer's legacy HLS demuxer) wait out any media time
 * before a VOD playlist's first segment. So a range's segments are served with their decode times moved by one constant per range: its first segment
 * starts at 0, the rest keep their distance from it (reconnect gaps and all).
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { initTracks } from '../../live/mp4';
import { applyShift, rangeShift } from '../../live/rebase';
import { initFile, segmentFile, segmentsInRange, segmentTimesInRange } from '../channels/service';
import type { ChannelRow, SegmentRow } from '../channels/store';
import { selectTimes } from './coverage';

/** What a range needs here: its channel and where it starts. */
type RangeSource = { ch: ChannelRow; from: number };

const HEAD = 64 * 1024; // styp, sidx and moof of a segment sit in its first kilobytes

function head(path: string): Uint8Array | null {
  try {
    const fd = openSync(path, 'r');
    try { const b = new Uint8Array(HEAD); return b.subarray(0, readSync(fd, b, 0, HEAD, 0)); } finally { closeSync(fd); }
  } catch { return null; }
}

function tracksOf(ctx: AppContext, src: RangeSource, rendition: string, initMs: number) {
  try { return initTracks(readFileSync(initFile(ctx, src.ch, rendition, initMs))); } catch { return null; }
}

/** The first segment the range's playlist lists (as `selectTimes` picks it; a window around `from` first). */
export function rangeFirstSegment(ctx: AppContext, src: RangeSource, rendition: string, to: number): SegmentRow | null {
  let t = selectTimes(segmentTimesInRange(ctx, src.ch.id, rendition, src.from - 120_000, Math.min(to, src.from + 120_000)), src.from, to);
  if (!t.n) t = selectTimes(segmentTimesInRange(ctx, src.ch.id, rendition, src.from, to), src.from, to);
  if (!t.n) return null;
  return segmentsInRange(ctx, src.ch.id, rendition, t.start[0], t.start[0] + 1).find((s) => s.start_ms === t.start[0]) ?? null;
}

/** `seg`'s bytes with the range's shift applied, or null to serve the file unchanged (no shift known or applicable). */
export function rangeSegmentBytes(ctx: AppContext, src: RangeSource, rendition: string, seg: SegmentRow, to: number, path: string): Uint8Array | null {
  const first = rangeFirstSegment(ctx, src, rendition, to);
  const firstHead = first && head(segmentFile(ctx, first));
  const firstTracks = first && tracksOf(ctx, src, rendition, first.init_ms);
  const shift = firstHead && firstTracks ? rangeShift(firstHead, firstTracks) : null;
  const tracks = shift && (seg.init_ms === first!.init_ms ? firstTracks : tracksOf(ctx, src, rendition, seg.init_ms));
  if (!shift || !tracks) return null;
  const bytes = readFileSync(path);
  return applyShift(bytes, shift, tracks) ? bytes : null;
}
