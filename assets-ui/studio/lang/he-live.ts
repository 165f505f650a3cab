/** Hebrew strings of the studio's live pages (typed against EN_LIVE: a missing key fails the type check). */
import type { EN_LIVE } from './en-live';

export const HE_LIVE: Record<keyof typeof EN_LIVE, string> = {
};
