/** Pure: a ladder plan adjusted to a tenant's packaging settings. */
import type { Plan } from '../../media/ladder';

/**
 * The plan with the tenant's segment duration (null: the ladder's). Keyframes stay on the ladder's interval when it
 * divides the segment; otherwise one keyframe per segment (segments must start on a keyframe in every rendition).
 */
export function withSegment(plan: Plan, segmentS: number | null): Plan {
  if (segmentS === null || segmentS === plan.ladder.segment_s) return plan;
  const keyframeS = segmentS % plan.ladder.keyframe_s === 0 ? plan.ladder.keyframe_s : segmentS;
  return { ...plan, ladder: { ...plan.ladder, segment_s: segmentS, keyframe_s: keyframeS }, gopFrames: Math.max(1, Math.round(plan.fps * keyframeS)) };
}
