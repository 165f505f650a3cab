/** Hebrew strings of the studio's clips pages (typed against EN_CLIPS: a missing key fails the type check). */
import type { EN_CLIPS } from './en-clips';

export const HE_CLIPS: Record<keyof typeof EN_CLIPS, string> = {
};
