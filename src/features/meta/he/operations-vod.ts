/** What a job is (shared by the job list and a single job). */
const JOB_HE = 'משימה היא עבודת רקע של הדייר (`asset.process`: בדיקת הקובץ; `asset.encode`: קידוד לפי סולם ואריזה; `asset.fetch`: הורדת מקור מ-URL). `status`: queued, running, succeeded, failed, cancelled. `progress` הוא אחוז בין 0 ל-100, עם `eta_s` בזמן הריצה; `result` מכיל עובדות כמו `encoder`, `fallback_from` (מקודד GPU נכשל ו-libx264 החליף אותו), `first_playable_ms` ו-`ready_ms`. תקלות חולפות מנוסות שוב בהשהיה הולכת וגדלה עד `max_attempts`; מדיה פגומה נכשלת מיד.';

/** Hebrew text of the meta, identity, assets, uploads, jobs and playback operations, keyed by operationId. */
export const HE_VOD: Record<string, { summary: string; description: string }> = {
  liveness: {
    summary: 'בדיקת חיות',
    description: 'ציבורי. אינה בודקת אף רכיב תלוי: מחזירה 200 כל עוד התהליך משרת HTTP.',
  },
  whoAmI: {
    summary: 'מי אני',
    description: 'המפתח הקורא, הדייר שלו, ההרשאות שלו וכתובת ההפצה של הדייר (`cdn_hostname`).',
  },
  createApiKey: {
    summary: 'יצירת מפתח API',
    description: 'יש לציין `role` או `scopes`. המפתח החדש אינו יכול לקבל הרשאות שאין למפתח היוצר. המפתח המלא מופיע רק בתשובה זו; נשמר רק ה-hash שלו.',
  },
  listApiKeys: {
    summary: 'רשימת מפתחות API',
    description: 'מהחדש לישן; `limit` עד 200 (ברירת מחדל 50).',
  },
  revokeApiKey: {
    summary: 'ביטול מפתח API',
    description: 'החל מהבקשה הבאה שלו, המפתח נענה ב-401. מפתח שיש לו הרשאות שאין למפתח הקורא נענה ב-403; אי אפשר לבטל את המפתח האחרון של הדייר ברמת בעלים (409).',
  },
  registerAsset: {
    summary: 'רישום נכס',
    description: 'מקור מסוג `url` (השרת מוריד אותו דרך המוריד המאובטח; כתובות פרטיות ופנימיות נדחות) או `s3` (`key` תחת `ingest/<prefix>/in/` של הדייר: נקרא מתיקיית הנתונים, או, כשמוגדר דלי תואם S3, מועתק מהאובייקט `<tenant_id>/<key>`; אובייקט חסר נענה ב-422). סוג `upload` נדחה (יש להשתמש ב-/v1/uploads). `external_id` כפול נענה ב-409. `publish: auto` דורש את ההרשאה `assets:publish`.',
  },
  listAndSearchAssets: {
    summary: 'רשימת נכסים וחיפוש',
    description: 'מהחדש לישן; `q` (2 עד 100 תווים) מתאים לתחיליות מילים בכותרת, במזהה החיצוני ובטקסט המטא-נתונים, תוך התעלמות מניקוד ומאותיות סופיות, וגם את הטקסט של רצועות כתוביות מוכנות ומפורסמות (אותיות השימוש מוסרות כחלופה, גרש וגרשיים אינם נחשבים): לכל פריט בחיפוש נוסף `match {field, snippet}`, ולפריט שנמצא בכתוביות גם `moments` (`seconds` מתחילת הנכס ו-`line`); `section` משאיר רק את הנכסים של מדור ספרייה אחד (לפי המזהה שלו; מדור של דייר אחר או מדור שאינו קיים נענה ב-404) או, עם `none`, את הנכסים שאינם בשום מדור; `limit` עד 200 (ברירת מחדל 50).',
  },
  listTrash: {
    summary: 'רשימת האשפה',
    description: 'נכסים שנמחקו, מהחדש לישן; אפשר לשחזר אותם עד שיימחקו לצמיתות או עד שתחלוף תקופת השמירה. `q` ו-`section` מסננים כמו ברשימה.',
  },
  emptyTrash: {
    summary: 'ריקון האשפה',
    description: 'מוחקת לצמיתות כל נכס שבאשפה יחד עם הקבצים שלו. מחזירה `{purged}`.',
  },
  trashRetention: {
    summary: 'זמן שמירה באשפה',
    description: 'מספר הימים שנכס נשאר באשפה לפני שהוא נמחק אוטומטית (ברירת מחדל 30).',
  },
  setTrashRetention: {
    summary: 'קביעת זמן שמירה באשפה',
    description: '`retention_days` בין 1 ל-3650.',
  },
  purgeTrashedAsset: {
    summary: 'מחיקה לצמיתות',
    description: 'מוחקת את הנכס ואת כל הקבצים שלו לתמיד.',
  },
  restoreFromTrash: {
    summary: 'שחזור מהאשפה',
    description: 'מחזירה נכס מהאשפה, עם הקבצים שלו והמצב שהיה לו לפני המחיקה.',
  },
  getAsset: {
    summary: 'קבלת נכס',
    description: 'כולל `playback` כשהנכס מוכן: `hls`, `dash`, תמונות, `download`, ו-`subtitles`, רצועות הכתוביות המפורסמות והמוכנות כקובצי WebVTT נלווים (`{id, language, kind, label, url}`; אותן רצועות מופיעות גם כגרסאות כתוביות ברשימת ההשמעה הראשית של HLS וכקבוצות הסתגלות טקסט ב-MPD).',
  },
  editAsset: {
    summary: 'עריכת נכס',
    description: 'שדות מטא-נתונים; `publish: true` דורש את ההרשאה `assets:publish` ונכס מוכן (אחרת 409).',
  },
  deleteAssetToTrash: {
    summary: 'מחיקת נכס (לאשפה)',
    description: 'מעבירה את הנכס לאשפה; אפשר לשחזר אותו או למחוק אותו לצמיתות מאוחר יותר.',
  },
  startMultipartUpload: {
    summary: 'התחלת העלאה מרובת חלקים',
    description: 'מחזירה `upload_id`, `key`, `part_size` (64 MiB) וכתובת אחת לכל חלק; עם `browser_origin` גם `upload_token` ו-`first_part_url` להעלאה מדפדפן. קבצים עד 200 GB; יש להשלים את ההעלאה בתוך שעה.',
  },
  uploadPart: {
    summary: 'העלאת חלק',
    description: 'בייטים גולמיים, בדיוק `Content-Length` (כל חלק בגודל `part_size`, והאחרון – השארית). מחזירה `{part_number, etag}` (MD5 בהקסדצימלי). אפשר לשלוח חלקים במקביל ובכל סדר; חלק שנכשל נענה ב-409 ויש לשלוח אותו שוב.',
  },
  completeUpload: {
    summary: 'סיום העלאה',
    description: 'בודקת כל חלק ואת ה-etag שלו, מרכיבה את הקובץ ומחזירה 201 עם הנכס במצב `probing`. קריאה חוזרת מחזירה את אותו נכס.',
  },
  uploadPartFromBrowser: {
    summary: 'העלאת חלק מדפדפן',
    description: 'בלי כותרת Authorization: `t` הוא ה-`upload_token`. CORS מותר רק למקור `browser_origin` של ההעלאה; תקף לחלקי אותה העלאה עד שתפוג או עד שהמפתח שהתחיל אותה יבוטל.',
  },
  signPlaybackUrl: {
    summary: 'חתימת כתובת ניגון',
    description: `חותמת כתובת ניגון ליעד אחד בדיוק. האסימון נמצא בנתיב (\`/t/<token>/...\`), כך שכל כתובת יחסית ברשימות ההשמעה יורשת אותו. הוא קשור לדייר וליעד שלו (אסימון לנכס A לעולם אינו פותח את נכס B; אסימון צפייה חוזרת פותח רק תתי-טווחים של החלון שלו), לזמן התפוגה ולפי בחירה גם לכתובת ה-IP של הצופה.

מבנה: \`v1.<payload>.<signature>\`, כאשר payload = base64url של טענות JSON \`{v:1, kid, t: מזהה הדייר, k: סוג, i: יעד, a?: התחלה ב-ms, b?: סוף ב-ms|null, e: תפוגה בשניות Unix, s: מזהה הפעלה, ip?}\`, ו-signature = base64url(HMAC-SHA256(key, "v1." + payload)) עם מפתח חתימה מ-GET /v1/playback/signing-keys. אימות ב-Node:
\`crypto.timingSafeEqual(Buffer.from(sig,'base64url'), crypto.createHmac('sha256', Buffer.from(secret,'base64url')).update('v1.'+payload).digest())\`.
\`ttl_s\` 0 משתמש בברירת המחדל של המדיניות (3600 שניות כשאין מדיניות).`,
  },
  openPlayerSessionPublic: {
    summary: 'פתיחת הפעלת נגן (ציבורי)',
    description: 'משמשת את הנגן המתארח; ללא מפתח. בודקת את מדיניות היעד: מקור ההפניה (page_origin ו-Origin), כללי רשת וקצב; דחייה בגלל מקור ההפניה נענית ב-403, יותר מדי הפעלות מאותה כתובת ב-429 עם `Retry-After` (לפי `sessions_per_ip_per_min` של המדיניות; כברירת מחדל 120 בדקה לכל כתובת, וכתובת IPv6 נספרת לפי ה-‎/64 שלה). דייר או יעד לא מוכרים נענים ב-404, נכס שעדיין אינו מוכן ב-409. התשובה זהה לזו של POST /v1/playback/tokens.',
  },
  revokePlaybackSession: {
    summary: 'ביטול הפעלת ניגון',
    description: 'ההפעלה (`sid` מתשובת אסימון) נדחית מהבקשה הבאה שלה בכל נתיב, גם אחרי הפעלה מחדש של השרת. `sid` לא מוכר נענה ב-404.',
  },
  listRevocations: {
    summary: 'רשימת ביטולים',
    description: '200 הביטולים האחרונים.',
  },
  downloadPlaybackSigningKeys: {
    summary: 'הורדת מפתחות חתימה',
    description: 'סודות (base64url, HMAC-SHA256) לחתימת אסימונים בשרת שלכם. נוצרים בשימוש הראשון.',
  },
  rotateSigningKey: {
    summary: 'החלפת מפתח חתימה',
    description: 'אסימונים חדשים נחתמים במפתח החדש; אסימונים של מפתחות ישנים ממשיכים להיות תקפים עד שהמפתחות האלה מוצאים משימוש.',
  },
  retireSigningKey: {
    summary: 'הוצאת מפתח חתימה משימוש',
    description: 'אסימונים שנחתמו בו מפסיקים מיד לפתוח תוכן. אי אפשר להוציא משימוש את המפתח הפעיל (409).',
  },
  listPlaybackPolicies: {
    summary: 'רשימת מדיניות ניגון',
    description: 'מהחדש לישן; `limit` עד 200 (ברירת מחדל 50).',
  },
  createPlaybackPolicy: {
    summary: 'יצירת מדיניות ניגון',
    description: 'כללים: require_token, default_ttl_s, bind_viewer_ip, referrers (מקורות או ‎*.domain), countries {allow, deny} (דורש מדינת צופה ידועה), asn_deny, block_datacenters, sessions_per_ip_per_min, leaks {max_addresses, max_networks, max_countries, window_s, auto_revoke} (זיהוי דליפות: הפעלה שנראית מיותר כתובות, רשתות או מדינות בתוך החלון הופכת לחשד ב-GET /v1/leaks; 0 = ללא מגבלה), watermark {mode: off | ab} (סימון מים פורנזי A/B של מקטעי VOD לכל הפעלה; קביעתו דורשת גם security:manage).',
  },
  getPlaybackPolicy: {
    summary: 'מדיניות ניגון',
    description: 'הכללים, כשברירות המחדל ממולאות, והמקומות שאליהם המדיניות מוצמדת.',
  },
  changePlaybackPolicy: {
    summary: 'עדכון מדיניות ניגון',
    description: 'השדות שנשלחו מחליפים את השמורים; השאר נשארים כפי שהם.',
  },
  deletePlaybackPolicy: {
    summary: 'מחיקת מדיניות ניגון',
    description: 'נקודות ההצמדה שלה עוברות להצמדה הכללית יותר הבאה (ערוץ, ואז דייר) או לניגון פתוח.',
  },
  attachPolicy: {
    summary: 'הצמדת מדיניות',
    description: 'נקודות הצמדה: הדייר, ערוץ (לפי slug; חל גם על הצפייה החוזרת והצפייה מההתחלה שלו) או נכס. ההצמדה המפורטת ביותר היא שחלה.',
  },
  detachPolicy: {
    summary: 'ניתוק מדיניות',
    description: 'מסירה את ההצמדה שמציינים `target_kind` ו-`target_id`.',
  },
  listJobs: {
    summary: 'רשימת משימות',
    description: `${JOB_HE}\n\nמהחדש לישן; מסננים \`status\`, \`type\`, \`subject\` (למשל מזהה נכס); \`limit\` עד 200 (ברירת מחדל 50).`,
  },
  listFailedJobs: {
    summary: 'משימות שנכשלו',
    description: 'משימות שנכשלו סופית (שגיאה קבועה, או שנוצלו כל הניסיונות), מהחדש לישן, עם `error`. אפשר לנסות שוב עם POST /v1/jobs/{id}/retry.',
  },
  getJob: { summary: 'משימה', description: JOB_HE },
  jobHistory: {
    summary: 'היסטוריית משימה',
    description: 'כל שינויי המצב של המשימה, מהישן לחדש (עד 1000): ניסיונות, פקיעת חכירה, התאוששות אחרי הפעלה מחדש, ניסיונות חוזרים וההשהיה שלהם, מעבר למקודד חלופי, הרגע שבו אפשר לנגן לראשונה, והסיום.',
  },
  retryJob: {
    summary: 'ניסיון חוזר למשימה',
    description: 'מכניסה שוב לתור משימה שנכשלה או בוטלה, עם מכסת ניסיונות חדשה (מצבים אחרים נענים ב-409). נכס שנכשל חוזר לעיבוד.',
  },
  cancelJob: {
    summary: 'ביטול משימה',
    description: 'משימה שממתינה בתור מבוטלת מיד; משימה שרצה מקבלת `cancel_requested: true` ונעצרת בתוך שניות (תהליך ה-ffmpeg שלה מופסק). הנכס עובר למצב `failed` עם `error` ‏"processing was cancelled". משימות שהסתיימו נענות ב-409.',
  },
  reEncodeAsset: {
    summary: 'קידוד מחדש של נכס',
    description: 'מריצה שוב את העיבוד (registered ← probing ← queued ← encoding ← packaging ← ready) עם סולם הקידוד של הנכס או עם `ladder` מגוף הבקשה (סולמות בעלי שם מ-config/ladders.yml). הפלט הקודם מוחלף כשהחדש מושלם; אפשר לעקוב אחרי המשימה ב-GET /v1/jobs/{job_id}. נכסים שעדיין בעיבוד נענים ב-409.',
  },
};

