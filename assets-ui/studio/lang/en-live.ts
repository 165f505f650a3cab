/** English strings of the studio's live pages (merged into EN; every key must also be in he-live.ts). */
export const EN_LIVE = {
};
