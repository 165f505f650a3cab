/** English strings of the studio's clips pages (merged into EN; every key must also be in he-clips.ts). */
export const EN_CLIPS = {
};
