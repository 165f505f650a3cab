/** English strings of the studio's asset pages (merged into EN; every key must also be in he-asset.ts). */
export const EN_ASSET = {
};
