/** Hebrew text of the edge operations (issue 46: purge and pre-warm of the caching delivery front), keyed by operationId. */
export const HE_EDGE: Record<string, { summary: string; description: string }> = {
  purgeEdgeCache: {
    summary: 'ניקוי מטמון הקצה',
    description: 'בדיוק אחד מבין `urls`, `prefix`, `asset_id`, `clip_id`, `tag`. המפתחות של אובייקטים שמורים של הדייר הזה שהבורר מציין כעת נספרים (`keys`), ומשימת `edge.purge` מוציאה אותם מהמטמון (המשך ב-`GET /v1/jobs/{job_id}`: `result.keys`, `result.removed`); הבקשה הבאה לכל אחד מהם היא `MISS`. עובד גם לדיירי CDN בלבד. בלי חזית עם מטמון המשימה אינה מנקה דבר (`result.edge: false`).',
  },
  preWarmEdgeCache: {
    summary: 'חימום מוקדם של מטמון הקצה',
    description: 'בדיוק אחד מבין `asset_id`, `clip_id`, `channel_id` (נסרקים כפי שצופה היה מבקש: רשימת האב, רשימות הגרסאות, מקטעי האתחול והמדיה; `renditions: lowest` לוקח רק את קצב הסיביות הנמוך ביותר; ערוץ: רשימות השידור החי שלו והמקטעים שהן מונות) או `urls` (כל אחת נשלפת פעם אחת, כפי שנמסרה). לכל היותר 6 בדקה לכל דייר (אחר כך 429 עם `Retry-After`). המשך ב-`GET /v1/prewarm/{id}`; בסיום נשלח `prewarm.finished`. ‏403 `feature_disabled` כשאין חזית עם מטמון.',
  },
  listCdnDistributions: {
    summary: 'רשימת הפצות CDN',
    description: 'כל ההפצות של הדייר, מהוותיקה לחדשה.',
  },
  createCdnDistribution: {
    summary: 'יצירת הפצת CDN',
    description: 'שמות מארח שהקצה מגיש עבור הדייר הזה והמקור שלהם: `{kind: "url", url}` (מקור חיצוני; הסוג היחיד לדיירי CDN בלבד; כתובות פרטיות וכתובות loopback נדחות אלא אם המפעיל התיר אותן ב-VS_CDN_ORIGIN_ALLOW) או `{kind: "delivery"}` (נתיבי הניגון של הדייר עצמו, עם אותו שער ואותו מטמון). `cache_rules` (למקורות חיצוניים): דריסת TTL לפי תבנית נתיב (התבנית הראשונה שמתאימה קובעת), TTL ברירת מחדל לתשובות בלי כותרות מטמון, ומחרוזת השאילתה במפתח המטמון (`include`, `ignore`, `allow_list`). `allowed_methods`: שיטות אחרות נענות ב-405; רק GET ו-HEAD נשמרים במטמון. `tls`: נתיבים של תעודת PEM ושל המפתח שלה; נבדקים שהם קריאים ותואמים, משמשים את פורט ה-TLS של הקצה (`VS_CDN_TLS_PORT`), ולעולם אינם מוחזרים בתשובה. שם מארח שהפצה אחרת כבר מחזיקה נענה ב-409. הקצה מוגדר מחדש (nginx נטען מחדש) לפני התשובה. שימוש: `GET /v1/stats/cdn` (`distributions`). אובייקטים שמורים מנוקים ב-`POST /v1/purge` (‏urls, prefix, tag).',
  },
  getCdnDistribution: {
    summary: 'הפצת CDN',
    description: 'הפצה אחת; `tls` מציג את השמות שבתעודה ואת מועד תפוגתה (לעולם לא את תוכן הקבצים).',
  },
  changeCdnDistribution: {
    summary: 'שינוי הפצת CDN',
    description: 'השדות שנמסרו מחליפים את השמורים, ונבדקים כמו ביצירה (`enabled: false` מוריד את שמות המארח מהקצה: הם נענים ב-421). הקצה מוגדר מחדש לפני התשובה.',
  },
  deleteCdnDistribution: {
    summary: 'מחיקת הפצת CDN',
    description: 'שמות המארח שלה יוצאים מהקצה (אובייקטים שמורים מתיישנים או מנוקים).',
  },
  getPreWarm: {
    summary: 'מצב חימום מוקדם',
    description: 'מצב, התקדמות ודוח: כתובות שנשלפו, כאלה שכבר היו במטמון (`hit`), כאלה שנשמרו בחימום הזה (`stored`), כאלה שנכשלו (20 הראשונות עם הסטטוס שלהן), בתים.',
  },
};
