/** Hebrew text of the operations added for the studio's clip cutter (recording thumbnails) and events inbox. */
export const HE_STUDIO_OPS: Record<string, { summary: string; description: string }> = {
  recordingThumbnails: {
    summary: 'תמונות ממוזערות של הקלטה',
    description: 'רצועת תמונות מהקלטת הערוץ: `count` (1 עד 60, ברירת מחדל 12) פריימים בפיזור שווה על פני `from`–`to` (לכל היותר 24 שעות), לכל אחד גבולות המקטע שלו ו-`url` של JPEG קטן (ברוחב 160 פיקסלים, מופק ב-ffmpeg בבקשה הראשונה ונשמר במטמון). פריימים שנופלים בפער בהקלטה מושמטים; `recorded` מפרט את הטווחים שהוקלטו ו-`fps` את קצב הפריימים, להצמדת נקודות הכניסה והיציאה של קליפ; `segments` את גבולות המקטעים (עד 1,000) שאליהם נצמד קליפ ברמת מקטע. אם לא הוקלט דבר בטווח: 422 על `from`.',
  },
  recordingThumbnail: {
    summary: 'תמונה ממוזערת מהקלטה',
    description: 'הפריים המוקלט ב-`at_ms` (ברשת של 100 מילישניות בתוך המקטע שלו) כ-JPEG ברוחב 160 פיקסלים; נשמר במטמון, עם `ETag`. אם לא הוקלט דבר בזמן הזה: 422 על `at`.',
  },
  listEvents: {
    summary: 'רשימת אירועים',
    description: 'תיבת האירועים: האירועים שהדייר קיבל (אותם אירועים ש-webhooks וזרם האירועים שולחים), מהחדש לישן. `type` משאיר סוג אחד או משפחה (`asset.*`); דפדוף עם `before` = ה-`next_before` של התשובה הקודמת; `limit` בין 1 ל-200 (ברירת מחדל 50). אירועים חדשים מגיעים ב-`GET /v1/events/stream` (ה-`id:` שלו הוא ה-`seq` של פריט; פותחים אותו עם `last_event_id` = `last_seq` כדי לא לפספס דבר).',
  },
};
