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
  getPreWarm: {
    summary: 'מצב חימום מוקדם',
    description: 'מצב, התקדמות ודוח: כתובות שנשלפו, כאלה שכבר היו במטמון (`hit`), כאלה שנשמרו בחימום הזה (`stored`), כאלה שנכשלו (20 הראשונות עם הסטטוס שלהן), בתים.',
  },
};
