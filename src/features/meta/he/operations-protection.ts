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
  listLeaks: {
    summary: 'רשימת חשדות לדליפה',
    description: 'הפעלות ניגון שנראו מיותר כתובות צופים (כתובת IPv6 לפי ה-/64 שלה), רשתות (ASN) או מדינות ממה שמגבלות `leaks` של המדיניות שלהן מתירות בתוך החלון שלה (`max_addresses`, `max_networks`, `max_countries`, `window_s`), מהחדש לישן; `status` מסנן (open, dismissed, revoked). הראיות מציגות כתובות רק כגיבוב עם מפתח, עם המדינות, מספרי ה-ASN (ממסדי הנתונים בתבנית MaxMind שהוגדרו), סוכני המשתמש ומספרי הבקשות שלהן; הן גדלות כל עוד החשד פתוח. כל חשד חדש שולח `security.leak_suspected`; עם `auto_revoke` ההפעלה מבוטלת מיד (`security.revoked`).',
  },
  getLeak: {
    summary: 'חשד לדליפה',
    description: 'חשד אחד עם הראיות שלו (404 לחשד של דייר אחר).',
  },
  dismissLeak: {
    summary: 'דחיית חשד לדליפה',
    description: 'מסמן חשד פתוח כלא-דליפה (ההפעלה ממשיכה לנגן ולא מדווחת שוב). ‏409 כשהחשד אינו פתוח.',
  },
  revokeLeakedSession: {
    summary: 'ביטול הפעלה שדלפה',
    description: 'מבטל את הפעלת הניגון של החשד: הבקשה הבאה שלה נדחית בכל נתיב ובכל תהליך (כמו POST /v1/security/revocations), ונשלח `security.revoked`. ‏409 כשהיא כבר בוטלה.',
  },
};
