/** Hebrew text of the packaging settings operations (issue 48), keyed by operationId. */
export const HE_PACKAGING: Record<string, { summary: string; description: string }> = {
  readPackagingSettings: { summary: 'קריאת הגדרות האריזה', description: 'אורך מקטע ו-DASH פעיל/כבוי לקידודים חדשים (נכסים שקודדו לפני שינוי שומרים על האריזה שלהם; קידוד מחדש מחיל אותה). docs/operations.md.' },
  changePackagingSettings: { summary: 'שינוי הגדרות האריזה', description: 'כל תת-קבוצה: `segment_s` בין 1 ל-10 (null: של סולם הקידוד), `dash`. חל על קידודים שמתחילים אחרי השינוי. AES-128 כברירת מחדל ורשימות I-frame עדיין אינם זמינים: `true` נענה ב-422. נרשם ביומן כ-`settings.changed`.' },
  readLipSyncSetting: { summary: 'קריאת הגדרת סנכרון השפתיים', description: 'ניתוח סנכרון שפתיים כבוי בפלטפורמה: `enabled` הוא false ובדיקות ניטור מסוג `lip_sync` נדחות (422).' },
  changeLipSyncSetting: { summary: 'שינוי הגדרת סנכרון השפתיים', description: 'כל עוד סנכרון השפתיים כבוי בפלטפורמה, `enabled: true` נענה ב-403 `feature_disabled` עם הכלל; `false` מחזיר את המצב.' },
};
