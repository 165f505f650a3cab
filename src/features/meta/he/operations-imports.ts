/** Hebrew text of the library import operations (issue 47), keyed by operationId. */
export const HE_IMPORTS: Record<string, { summary: string; description: string }> = {
  createLibraryImport: {
    summary: 'יצירת ייבוא לספרייה',
    description: 'קורא מפת אתר (הרחבת הווידאו של Google: ‏`video:content_loc`, ואם אין – `video:player_loc`), אינדקס מפות אתר (נקרא לעומק רמה אחת, עד 50 מפות צאצא; מפה שנכשלה מדווחת ב-`sources` עם השגיאה) או פיד media RSS (‏`media:content` או `enclosure` של וידאו). השרת מביא את הקבצים דרך המביא הבטוח (כתובות פרטיות ופנימיות נדחות אלא אם הותרו ב-VS_PRIVATE_ALLOWLIST; עד 50 MB לקובץ, גם אחרי gzip; עד 20 שניות לקובץ ו-120 שניות בסך הכול; עד 50,000 כתובות לקובץ ו-50,000 פריטים לייבוא). כל סרטון הופך לפריט לסקירה: `new` (נבחר) או `skipped` כשהספרייה כבר מחזיקה אותו (נכס עם ה-`external_id` של הפריט, הנגזר מכתובת הדף הקנונית, או עם אותה כתובת מקור). מחזיר את הייבוא ואת 100 הפריטים הראשונים; את השאר מדפדפים ב-GET ‏.../items. XML פגום נענה ב-422 עם שורה ועמודה; קובץ מעל המגבלה נענה ב-413. docs/imports.md.',
  },
  listLibraryImports: { summary: 'רשימת ייבואים לספרייה', description: 'הייבואים של הדייר, מהחדש לישן, עם הספירות שלהם; `limit` עד 200 (ברירת מחדל 50).' },
  getLibraryImport: { summary: 'ייבוא לספרייה', description: 'ייבוא אחד: מצב (`review`, `running`, `done`), ספירות (פריטים, חדשים, מדולגים, נבחרים, ממתינים, נרשמו, נכשלו) והמסמכים שנקראו.' },
  listLibraryImportItems: { summary: 'פריטי ייבוא לספרייה', description: 'הפריטים לפי סדר מפת האתר, ולפי הבחירה רק `new` או רק `skipped`, עם התוצאה של כל אחד אחרי ההפעלה (`result`, `asset_id`, `error`); `limit` עד 500 (ברירת מחדל 100).' },
  selectLibraryImportItems: { summary: 'בחירת פריטים לייבוא', description: 'בוחר או מבטל בחירה של פריטים חדשים (`item_ids`, או `all: true`) כל עוד הייבוא בסקירה; פריטים מדולגים אינם נבחרים לעולם; אחרי ההפעלה נענה ב-409; מזהים שאינם בייבוא נענים ב-422.' },
  startLibraryImport: { summary: 'הפעלת ייבוא לספרייה', description: 'רושם נכס (מקור מסוג `url`, מובא ומקודד כמו כל נכס מכתובת) מכתובת הווידאו של כל פריט חדש שנבחר, אחד בכל פעם, ברקע; ההתקדמות ב-`counts` ובתוצאה (`result`) של כל פריט (`registered` עם `asset_id`, `failed` עם `error`, או `skipped` כשנרשם בינתיים). אידמפוטנטי: הפעלה חוזרת (גם אחרי הפעלה מחדש של השרת) לעולם אינה רושמת פריט פעמיים.' },
};
