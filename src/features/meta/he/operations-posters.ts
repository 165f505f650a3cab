/** Hebrew text of the posters operations, keyed by operationId. */
export const HE_POSTERS: Record<string, { summary: string; description: string }> = {
  setAssetPosterFromFrame: {
    summary: 'בחירת תמונת שער מתוך פריים',
    description: 'מצייר את הפריים שבזמן `time_s` מתוך המדיה של הנכס עצמו (JPEG ו-WebP) והופך אותו לתמונת השער: `playback.poster` מחזיר כתובת חדשה (תמונות נשמרות במטמון כבלתי משתנות). מחזיר את הנכס. זמן שאחרי משך הנכס נענה ב-422; נכס שאינו מוכן נענה ב-409; נכסים של דיירים אחרים נענים ב-404. נרשם ביומן הביקורת (`asset.poster_changed`).',
  },
  getAssetPoster: {
    summary: 'קבלת תמונת השער של נכס',
    description: 'כתובת תמונת השער וגודלה. תמונת שער שנבחרה מפריים קטן מתמונת האתר הגדולה ביותר (1920x1080) מצוירת בגודל שמכסה אותה (הגדלה ב-lanczos ומסנן חידוד unsharp) ומסומנת `upscaled: true`, עם גודל הפריים המקורי ב-`source_width`/`source_height`. תמונת השער של הקידוד עצמו: גדלים null ו-`upscaled` שקר. נכס שאינו מוכן: 409.',
  },
};
