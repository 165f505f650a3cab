/** English strings of the studio's guide pages (merged into EN; every key must also be in he-guide.ts). */
export const EN_GUIDE = {
};
