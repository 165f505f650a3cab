/** Hebrew text of the playback protection operations of issue 46 (geo blackouts, leaks), keyed by operationId. */
export const HE_PROTECTION: Record<string, { summary: string; description: string }> = {
  listBlackouts: {
    summary: 'רשימת האפלות',
    description: 'מהחדשה לישנה, אפשר של ערוץ אחד; `active_now` אומר אם ההאפלה דוחה צופים ברגע זה.',
  },
  createBlackout: {
    summary: 'יצירת האפלה',
    description: 'האפלה גאוגרפית של ערוץ: צופים בתוך המדינות שברשימה (`applies_to: in`, ברירת המחדל) או מחוצה להן (`out`) נדחים, בזמן תוכנית (`programme_id`: זמן השידור שלה מלוח השידורים), בחלון זמן (`starts_at`, `ends_at`; כל אחד מהם יכול להישאר פתוח) או תמיד. היא חלה על מה ששודר בזמן הזה בכל מקום שבו צופים בו: בשידור החי בזמן החלון, ובצפייה חוזרת, בהתחלה מחדש ובמקטעים המוקלטים מאותו זמן גם אחר כך. המדינה נקבעת ממסד הנתונים בתבנית MaxMind שהוגדר (`VS_GEOIP_COUNTRY_DB`); צופה שמדינתו אינה ידועה נדחה רק בהאפלות `out`. מנפיק ההפעלות דוחה ב-403 עם `x-vs-refusal: blackout` (הנגן מציג את מסך ההאפלה), וכך גם שער המסירה, לכל רשימת השמעה ולכל מקטע, לפני מטמון הקצה. נשלח `policy.changed`. קודי מדינות לפי ISO 3166-1 alpha-2 (‏422 עם כל ערך שגוי); לכל דייר עד 1,000 האפלות (409).',
  },
  getBlackout: {
    summary: 'האפלה',
    description: 'האפלה אחת של הדייר (404 להאפלה של דייר אחר).',
  },
  changeBlackout: {
    summary: 'עדכון האפלה',
    description: 'השדות שנמסרו מחליפים את השמורים (`null` פותח קצה של חלון); הבקשה הבאה נשפטת לפי הכלל החדש. נשלח `policy.changed`.',
  },
  deleteBlackout: {
    summary: 'מחיקת האפלה',
    description: 'צופים שנדחו בגללה יכולים לצפות שוב מיד. נשלח `policy.changed`.',
  },
};
