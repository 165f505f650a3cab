/** Hebrew summaries and descriptions of the monitor, alert-destination, alert and service-status operations (issue 20), keyed by operationId. */
export const HE_MONITORS: Readonly<Record<string, { summary: string; description: string }>> = {
  listMonitorCheckTypes: {
    summary: 'קטלוג סוגי הבדיקות',
    description: 'קטלוג הבדיקות המחייב: סוג, יחידה, כיוון ההשוואה, סף ברירת מחדל, `for_s` וחלון, דרגות חומרה, סוגי היעדים שכל בדיקה חלה עליהם, ערכות מוכנות ומגבלות. `lip_sync` מופיעה עם `creatable: false` כל עוד ניתוח סנכרון השפתיים כבוי.',
  },
  createBasicMonitorPreset: {
    summary: 'יצירת ערכת ניטור בסיסית',
    description: 'יוצרת מוניטור אחד על הערוץ עם בדיקות "אין אות", "פער בהקלטה", זמן פתיחה (אחוזון 95) ושיעור שגיאות, בערכי ברירת המחדל של הקטלוג. ערוץ לא מוכר נענה ב-404.',
  },
  createMonitor: {
    summary: 'יצירת מוניטור',
    description: 'יעד (`channel`, ‏`asset`, ‏`site` עם `target_host`, או `tenant`) ו-1 עד 20 בדיקות מהקטלוג; ברירות המחדל משלימות `threshold`, ‏`for_s`, ‏`window_s` ו-`severity`. לכל היותר 100 מוניטורים לדייר (מעבר לכך 409). סוג בדיקה לא מוכר, בדיקה שאינה מתאימה ליעד, `lip_sync` כשהניתוח כבוי, יעדי התראות לא מוכרים ואזורי זמן לא מוכרים נענים ב-422.',
  },
  listMonitors: {
    summary: 'רשימת מוניטורים',
    description: 'מהחדש לישן; כל בדיקה עם מצבה הנוכחי (`normal`, ‏`pending`, ‏`firing`) וממתי.',
  },
  getMonitor: {
    summary: 'קבלת מוניטור',
    description: 'המוניטור עם מצב כל בדיקה וההשתקה שלו.',
  },
  changeMonitor: {
    summary: 'שינוי מוניטור',
    description: 'כל שדה של מוניטור. בדיקות ששונו מתחילות שוב ממצב `normal`; התראה של בדיקה ששונתה נסגרת.',
  },
  deleteMonitor: {
    summary: 'מחיקת מוניטור',
    description: 'מפסיקה את הבדיקות שלו; ההתראות שלו נשארות בהיסטוריה.',
  },
  snoozeMonitor: {
    summary: 'השתקת מוניטור',
    description: 'בדיוק אחד מ-`minutes` או `until`, בין דקה לשבעה ימים קדימה (אחרת 422), ו-`reason` לבחירה. ההתראות עדיין נרשמות וה-webhooks עדיין נשלחים; הודעות דוא"ל וטלגרם מושתקות עד שהזמן עובר (התראה שעדיין פעילה נשלחת אז).',
  },
  liftMonitorSnooze: {
    summary: 'ביטול השתקה',
    description: 'ההודעות חוזרות מיד.',
  },
  addAlertDestination: {
    summary: 'הוספת יעד התראות',
    description: 'כתובת דוא"ל. כתובת של חבר צוות בדייר פעילה (`active`) מיד; כל כתובת אחרת ממתינה (`pending`) עד שנפתח הקישור שנשלח אליה. לכל היותר 50 יעדים לדייר (מעבר לכך 409); אותה כתובת פעמיים נענית ב-409; 403 (`feature_disabled`) כשדוא"ל אינו מוגדר וזו אינה כתובת של חבר צוות.',
  },
  linkTelegramChat: {
    summary: 'קישור צ\'אט טלגרם',
    description: 'יוצרת יעד טלגרם ממתין (`pending`) וקוד הפעלה חד-פעמי (תקף לשעה). שולחים `/start <code>` לבוט של המערכת מהצ\'אט (או פותחים את `link`); המערכת קוראת את ההודעה ב-`getUpdates`, שומרת את הצ\'אט ועונה לו, והיעד הופך לפעיל. 403 (`feature_disabled`) כשלא הוגדר אסימון בוט.',
  },
  listAlertDestinations: {
    summary: 'רשימת יעדי התראות',
    description: 'מהחדש לישן, עם `status` ‏(`active` או `pending`).',
  },
  deleteAlertDestination: {
    summary: 'מחיקת יעד התראות',
    description: 'מוניטורים שמציינים אותו מדלגים עליו מעתה.',
  },
  listAlerts: {
    summary: 'היסטוריית התראות',
    description: 'היסטוריית ההתראות מהחדשה לישנה (רשימה עם סמן); `state` משאיר רק `firing` או `resolved`, ‏`monitor_id` מוניטור אחד. כל התראה מציינת את הבדיקה, החומרה, היעד, הערך, תקציר (פער בהקלטה מציין את הטווח החסר ואת התוכנית שנפגעה), האם ההודעות הושתקו בעת ההפעלה, ואת אישור הקבלה.',
  },
  getAlertThumbnail: {
    summary: 'תמונה ממוזערת של התראה',
    description: 'הפריים התקין האחרון לפני פער בהקלטה (JPEG, ברוחב 480 פיקסלים), שמופיע ב-`detail.thumbnail` של ההתראה; 404 בזמן שהיא נוצרת או כשאין להתראה תמונה.',
  },
  acknowledgeAlert: {
    summary: 'אישור קבלת התראה',
    description: 'רושמת מי אישר את ההתראה ומתי; אישור נוסף שומר את הראשון.',
  },
  getServiceStatus: {
    summary: 'מצב השירות',
    description: 'השכבות המשותפות של המערכת (api, ‏ingest, ‏recorder, ‏transcode_queue, ‏delivery, ‏statistics, ‏email, ‏disk), כל אחת `ok`, ‏`degraded`, ‏`down` או `off`, עם `since` (הזמן שבו נכנסה למצב הזה, או עליית התהליך).',
  },
};
