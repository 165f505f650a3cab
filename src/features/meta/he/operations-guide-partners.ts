/** Hebrew text of the guide-to-partners operations (issue 48: EPG sources, templates, publishing destinations), keyed by operationId. */
export const HE_GUIDE_PARTNERS: Record<string, { summary: string; description: string }> = {
  listEpgSources: { summary: 'רשימת מקורות EPG', description: 'מקורות ה-EPG של הדייר (של ערוץ אחד עם `channel_id`) עם המשיכה האחרונה שלהם.' },
  addEpgSource: {
    summary: 'הוספת מקור EPG',
    description: 'מסמך XMLTV של ערוץ שנמשך כל `interval_minutes` דקות (המשיכה הראשונה מיד) דרך המביא הבטוח (עד 20 MB ו-30 שניות; כתובות פרטיות נדחות אלא אם הותרו) בבקשה מותנית (`If-None-Match`, `If-Modified-Since`). כשהתוכן השתנה, התוכניות של הערוץ מחליפות את הטווח שהן מכסות: נשמרות כטיוטה לסקירה (פרסום ב-POST ‏.../guide/publish), או מתפרסמות מיד כגרסה (סוג `source`) עם `auto_publish`. כל משיכה נרשמת ביומן; XML פגום נרשם כ-`error` עם הסיבה ואינו משנה דבר. docs/guide-partners.md.',
  },
  getEpgSource: { summary: 'מקור EPG', description: 'מקור אחד עם המאמתים שלו (ETag, ‏Last-Modified) והמשיכה האחרונה.' },
  changeEpgSource: { summary: 'שינוי מקור EPG', description: '`url` חדש מוחק את המאמתים (המשיכה הבאה קוראת את המסמך כולו).' },
  deleteEpgSource: { summary: 'מחיקת מקור EPG', description: 'מוחקת את המקור ואת יומן המשיכות שלו; לוח השידורים נשאר כמו שהוא.' },
  fetchEpgSourceNow: { summary: 'משיכת מקור EPG עכשיו', description: 'מושכת עכשיו (בקשה מותנית), מחילה את מה שהשתנה כמו במשיכה מתוזמנת ומחזירה את רשומת היומן (כישלון הוא `status: error` עם הסיבה). המשיכה המתוזמנת הבאה מרווח אחד אחר כך. נענה ב-409 בזמן שאותו מקור נמשך.' },
  epgSourceFetchLog: { summary: 'יומן משיכות של מקור EPG', description: 'המשיכות, מהחדשה לישנה (נשמרות 500 האחרונות).' },
  listGuideTemplates: { summary: 'רשימת תבניות לוח שידורים', description: 'תבניות השבוע של הדייר.' },
  createGuideTemplate: { summary: 'יצירת תבנית לוח שידורים', description: 'שבוע של משבצות (יום בשבוע לפי ISO, שעת התחלה `HH:MM` באזור הזמן של הערוץ, משך, כותרת ועוד); המשבצות נשמרות לפי יום ושעה.' },
  getGuideTemplate: { summary: 'תבנית לוח שידורים', description: 'תבנית אחת עם המשבצות שלה.' },
  replaceGuideTemplate: { summary: 'החלפת תבנית לוח שידורים', description: 'השם וכל משבצות השבוע.' },
  deleteGuideTemplate: { summary: 'מחיקת תבנית לוח שידורים', description: 'טיוטות שנוצרו ממנה נשארות.' },
  applyGuideTemplate: {
    summary: 'החלת תבנית על לוח השידורים',
    description: 'שומרת את התבנית על הימים `from_day` עד `to_day` (כולל, באזור הזמן של הערוץ, עד 31 ימים) כטיוטה של הערוץ: זו התצוגה המקדימה (GET ‏.../guide/draft), שמתפרסמת ב-POST ‏.../guide/publish או נמחקת. `fill` (ברירת המחדל) שומרת רק משבצות שבהן יש חור בלוח המפורסם; `replace` מחליפה את כל הטווח בתבנית.',
  },
  createGuideDestination: {
    summary: 'יצירת יעד פרסום ללוח השידורים',
    description: 'אחרי כל פרסום של לוח השידורים של ערוץ ברשימה, הלוח המפורסם בחלון (`days_behind` ימים לפני היום עד `days_ahead` אחריו, באזור הזמן `timezone`) נשלח כמשימה עמידה: `https` (POST או PUT; הכותרות `X-VS-Event: epg.published`, ‏`X-VS-Delivery` (קבוע בין ניסיונות), ‏`X-VS-Timestamp`, ‏`X-VS-Signature: sha256=<HMAC-SHA256 של "timestamp.body">` עם ה-`secret` שמוחזר פעם אחת, כאן), `sftp` (נכתב ל-`path` בשם זמני ואז משנה שם; מפתח או סיסמה; מפתח השרת מוצמד ב-`host_key_sha256`) או `s3` (האובייקט `key`, נדרס). `pull` לא שולח דבר. לכל יעד יש `pull_url`. ניסיון שנכשל חוזר `retries` פעמים (אחרי `retry_delay_s`, ומוכפל); אחרי האחרון נוצר `epg.delivery_failed` ‏`{destination_id, destination, channel, error, attempts}`; מסירה שהגיעה יוצרת `epg.published` עם `destination_id`. כתובות פרטיות נדחות אלא אם הותרו (VS_PRIVATE_ALLOWLIST). docs/guide-partners.md.',
  },
  listGuideDestinations: { summary: 'רשימת יעדי פרסום', description: 'כל יעדי הפרסום של הדייר עם ניסיון המסירה האחרון וכתובת המשיכה.' },
  getGuideDestination: { summary: 'יעד פרסום', description: 'יעד אחד (פרטי הגישה לעולם אינם מוצגים).' },
  changeGuideDestination: { summary: 'שינוי יעד פרסום', description: 'שם, תבנית, ערוצים, חלון, אזור זמן, ניסיונות חוזרים או `enabled`; ‏`rotate_token: true` מנפיקה אסימון משיכה חדש. הגדרות השליחה של הסוג קבועות: כדי לשנות אותן מוחקים ויוצרים מחדש.' },
  deleteGuideDestination: { summary: 'מחיקת יעד פרסום', description: 'מוחקת את היעד ואת יומן המסירות שלו; מסירות ממתינות מבוטלות.' },
  testGuideDestination: { summary: 'בדיקת יעד פרסום', description: 'שולחת את הלוח המפורסם הנוכחי פעם אחת, עכשיו (בלי ניסיונות חוזרים ובלי אירועים); התוצאה מוחזרת ונרשמת ביומן עם הטריגר `test`.' },
  guideDeliveryLog: { summary: 'יומן מסירות של לוח השידורים', description: 'ניסיונות המסירה, מהחדש לישן (נשמרים 500 האחרונים).' },
  pullPublishedGuide: { summary: 'משיכת לוח השידורים המפורסם', description: 'בלי מפתח API: ה-`pull_url` של היעד נושא את האסימון שלו (בלעדיו 401). הלוח המפורסם בחלון של היעד כ-XMLTV (או `format=json`), עם ETag חזק; `If-None-Match` איתו נענה ב-304.' },
};
