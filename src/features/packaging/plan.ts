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

/** The settings of a tenant that shape an encode. */
export interface EncodePackaging { segment_s: number | null; dash: boolean; aes128_default: boolean; iframe_playlists: boolean }

/** The plan for a tenant's settings: segment duration, and I-frame playlists (a fragment per keyframe). */
export function withPackaging(plan: Plan, p: EncodePackaging): Plan {
  const out = withSegment(plan, p.segment_s);
  return p.iframe_playlists ? { ...out, iframes: true } : out;
}

/** Whether an encode keeps its DASH manifest: DASH on and not AES-128 by default (a clear MPD would bypass it). */
export const keepsDash = (p: EncodePackaging): boolean => p.dash && !p.aes128_default;
