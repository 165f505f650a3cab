/** Hebrew strings of the studio's guide pages (typed against EN_GUIDE: a missing key fails the type check). */
import type { EN_GUIDE } from './en-guide';

export const HE_GUIDE: Record<keyof typeof EN_GUIDE, string> = {
};
