/** One piece of a frame-exact clip: a copied recording segment or a re-encoded edge. */
export type Piece =
  | { kind: 'copy'; startMs: number; durationMs: number; initMs: number; discontinuity: boolean }
  | { kind: 'cut'; segStartMs: number; initMs: number; fromMs: number; toMs: number; discontinuity: boolean };

/**
 * Plans the pieces of [from, to) over the segments that overlap it: segments wholly inside are copied, a segment
 * cut by either end is re-encoded for its inside part only. Gaps and feed changes keep their discontinuities.
 */
export function planPieces(segs: { start_ms: number; duration_ms: number; init_ms: number; discontinuity: number }[], from: number, to: number): Piece[] {
  const out: Piece[] = [];
  let prevEnd: number | null = null, prevInit: number | null = null;
  for (const s of segs) {
    const end = s.start_ms + s.duration_ms;
    if (end <= from || s.start_ms >= to) continue;
    const disc = prevEnd !== null && (!!s.discontinuity || prevInit !== s.init_ms || Math.abs(s.start_ms - prevEnd) > 1000);
    if (s.start_ms >= from && end <= to) out.push({ kind: 'copy', startMs: s.start_ms, durationMs: s.duration_ms, initMs: s.init_ms, discontinuity: disc });
    else out.push({ kind: 'cut', segStartMs: s.start_ms, initMs: s.init_ms, fromMs: Math.max(from, s.start_ms), toMs: Math.min(to, end), discontinuity: disc });
    prevEnd = end; prevInit = s.init_ms;
  }
  return out;
}

/**
 * Pure: how far the video starts after the input's start (the earliest stream), from `streamStartsArgs` output.
 * ffmpeg's `-ss` counts from the input's start, so the edge seek adds this to land on the video frame asked for
 * (audio that starts a frame earlier would otherwise pull in the previous video frame).
 */
export function videoLeadS(csv: string): number {
  const rows = csv.trim().split('\n').map((l) => l.split(',')).filter((r) => r.length >= 2 && Number.isFinite(Number(r[1])));
  const video = rows.find((r) => r[0] === 'video');
  if (!video) return 0;
  return Math.max(0, Number(video[1]) - Math.min(...rows.map((r) => Number(r[1]))));
}
