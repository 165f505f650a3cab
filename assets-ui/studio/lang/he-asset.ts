/** Hebrew strings of the studio's asset pages (typed against EN_ASSET: a missing key fails the type check). */
import type { EN_ASSET } from './en-asset';

export const HE_ASSET: Record<keyof typeof EN_ASSET, string> = {
};
