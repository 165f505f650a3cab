/** Hebrew text of the packaging settings operations (issue 48), keyed by operationId. */
export const HE_PACKAGING: Record<string, { summary: string; description: string }> = {
  readPackagingSettings: { summary: 'קריאת הגדרות האריזה', description: 'אורך מקטע, DASH פעיל/כבוי, הצפנת AES-128 כברירת מחדל ורשימות I-frame לקידודים חדשים (נכסים שקודדו לפני שינוי שומרים על האריזה שלהם; קידוד מחדש מחיל אותה). docs/packaging.md.' },
  changePackagingSettings: { summary: 'שינוי הגדרות האריזה', description: 'כל תת-קבוצה: `segment_s` בין 1 ל-10 (null: של סולם הקידוד), `dash`, `aes128_default`, `iframe_playlists`. חל על קידודים שמתחילים אחרי השינוי. אי אפשר להפעיל יחד AES-128 כברירת מחדל ורשימות I-frame (422 עם שם השדה שהפעיל את השני). נרשם ביומן כ-`settings.changed`.' },
  readLipSyncSetting: { summary: 'קריאת הגדרת סנכרון השפתיים', description: 'ניתוח סנכרון שפתיים כבוי בפלטפורמה: `enabled` הוא false ובדיקות ניטור מסוג `lip_sync` נדחות (422).' },
  changeLipSyncSetting: { summary: 'שינוי הגדרת סנכרון השפתיים', description: 'כל עוד סנכרון השפתיים כבוי בפלטפורמה, `enabled: true` נענה ב-403 `feature_disabled` עם הכלל; `false` מחזיר את המצב.' },
};
