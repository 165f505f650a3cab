/** Hebrew prose of the management API document. */
export const INTRO_HE = '';
/** Hebrew delivery URLs section. */
export const DELIVERY_URLS_HE = '';
/** Hebrew tag descriptions. */
export const TAGS_HE: Record<string, string> = {};
