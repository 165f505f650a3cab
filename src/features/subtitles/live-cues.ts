/**
 * Pure parts of live subtitles (issue 43): which segments a recognition chunk reads, which recognised words it keeps,
 * and how its cues join the ones already written (the cue rules' minimum gap) and fall into hourly tracks.
 *
 * A chunk reads the recorded segments from the one holding `untilMs` (the end of what is recognised) to the newest,
 * so it overlaps the previous chunk by less than a segment. It keeps the words whose middle lies in
 * [untilMs, chunkEnd - HOLD_MS): a word cut by the chunk's end is left to the next chunk, which hears it whole.
 */
import { buildCues } from '../../text/cue-builder';
import type { Cue } from '../../text/cue-text';

/** Words of the last HOLD_MS of a chunk wait for the next chunk (they may be cut at the chunk's end). */
export const HOLD_MS = 1000;
/** A chunk is recognised once this much audio past `untilMs` is recorded. */
export const CHUNK_MIN_MS = 4000;
/** At most this much new audio in one chunk. */
export const CHUNK_MAX_MS = 20_000;
/** Recognition further behind the live edge than this skips ahead (that audio gets no live cues). */
export const MAX_BEHIND_MS = 120_000;
/** Smallest gap between two cues (2 frames at 25 fps), as the cue builder keeps. */
export const MIN_GAP_MS = 80;
const HOUR = 3_600_000;

/** A recorded segment as a chunk needs it (wall-clock epoch ms). */
export interface ChunkSeg { start_ms: number; duration_ms: number; init_ms: number; discontinuity: number }

/** A chunk: its segments (one init, no gap), where its audio starts and ends, and the audio skipped to reach it. */
export interface Chunk<S extends ChunkSeg> { segs: S[]; audioStartMs: number; endMs: number; fromMs: number; skippedMs: number }

/**
 * The next chunk to recognise from the segments recorded after `untilMs` (oldest first), or null while less than
 * CHUNK_MIN_MS of new audio is there (`flush`: the feed ended, so whatever is there is taken). Null `untilMs` starts
 * at the newest segment (the caller keeps that start as its `untilMs` until the chunk is there). Further behind than
 * MAX_BEHIND_MS, the chunk starts CHUNK_MAX_MS before the live edge instead (`skippedMs` says how much was left out). A chunk stops before a new init or a gap.
 */
export function nextChunk<S extends ChunkSeg>(segs: S[], untilMs: number | null, flush = false): Chunk<S> | null {
  if (!segs.length) return null;
  const last = segs[segs.length - 1]!;
  const edge = last.start_ms + last.duration_ms;
  let from = untilMs ?? last.start_ms, skipped = 0;
  if (edge - from > MAX_BEHIND_MS) { const to = edge - CHUNK_MAX_MS; skipped = to - from; from = to; }
  let i = segs.findIndex((s) => s.start_ms + s.duration_ms > from);
  if (i < 0) return null;
  // A recording gap before the chunk: it starts after the gap.
  if (segs[i]!.start_ms > from) { skipped += segs[i]!.start_ms - from; from = segs[i]!.start_ms; }
  const out: S[] = [segs[i]!];
  for (i++; i < segs.length; i++) {
    const s = segs[i]!, p = out[out.length - 1]!;
    if (s.init_ms !== p.init_ms || s.discontinuity || Math.abs(p.start_ms + p.duration_ms - s.start_ms) > 250) break;
    if (p.start_ms + p.duration_ms - from >= CHUNK_MAX_MS) break;
    out.push(s);
  }
  const end = out[out.length - 1]!.start_ms + out[out.length - 1]!.duration_ms;
  const cut = i < segs.length; // stopped before a new init, a gap or the size cap: take it as it is
  if (end - from < CHUNK_MIN_MS && !flush && !cut) return null;
  return { segs: out, audioStartMs: out[0]!.start_ms, endMs: end, fromMs: from, skippedMs: skipped };
}

/** A recognised word at wall-clock time (epoch ms). */
export interface WallWord { startMs: number; endMs: number; text: string }

/**
 * The words a chunk keeps (middle in [fromMs, keepUntil)) and the new `untilMs`: `keepUntil` is the chunk's end minus
 * HOLD_MS (its end when `final`), moved past the last kept word's end when that word reaches over it.
 */
export function keepWords(words: WallWord[], fromMs: number, endMs: number, final: boolean): { words: WallWord[]; untilMs: number } {
  const keepUntil = final ? endMs : Math.max(fromMs, endMs - HOLD_MS);
  const kept = words.filter((w) => { const mid = (w.startMs + w.endMs) / 2; return mid >= fromMs && mid < keepUntil; });
  const lastEnd = kept.reduce((m, w) => Math.max(m, w.endMs), keepUntil);
  return { words: kept, untilMs: Math.min(endMs, lastEnd) };
}

/** Cues from wall-clock words by the cue rules (built on times relative to `baseMs`, returned at wall-clock times). */
export function wallCues(words: WallWord[], baseMs: number, maxCharsPerSecond: number): Cue[] {
  const rel = words.map((w) => ({ startMs: Math.max(0, w.startMs - baseMs), endMs: Math.max(0, w.endMs - baseMs), text: w.text }));
  return buildCues(rel, { maxCharsPerSecond }).map((c) => ({ ...c, startMs: c.startMs + baseMs, endMs: c.endMs + baseMs }));
}

/**
 * Keeps the gap between the cue already written last (`prev`, wall-clock) and the first new one: the previous cue's
 * end is pulled back (never below half a second on screen), and if that is not enough the new cue starts later
 * (keeping half a second). Returns the previous cue's new end (null: unchanged) and the new cues.
 */
export function joinCues(prev: { startMs: number; endMs: number } | null, cues: Cue[]): { prevEnd: number | null; cues: Cue[] } {
  if (!prev || !cues.length) return { prevEnd: null, cues };
  const first = cues[0]!;
  if (first.startMs >= prev.endMs + MIN_GAP_MS) return { prevEnd: null, cues };
  const prevEnd = Math.max(prev.startMs + 500, first.startMs - MIN_GAP_MS);
  if (first.startMs >= prevEnd + MIN_GAP_MS) return { prevEnd, cues };
  const start = prevEnd + MIN_GAP_MS;
  return { prevEnd, cues: [{ ...first, startMs: start, endMs: Math.max(first.endMs, start + 500) }, ...cues.slice(1)] };
}

/** Wall-clock cues grouped by the UTC hour their start falls in (a live track covers one hour): relative times, end kept inside the hour. */
export function byHour(cues: Cue[]): Map<number, Cue[]> {
  const out = new Map<number, Cue[]>();
  for (const c of cues) {
    const h = Math.floor(c.startMs / HOUR) * HOUR;
    const list = out.get(h) ?? [];
    list.push({ ...c, startMs: c.startMs - h, endMs: Math.min(HOUR, c.endMs - h) });
    out.set(h, list);
  }
  return out;
}

/** The middle of a sorted list of numbers (null when empty). */
export function medianOf(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
