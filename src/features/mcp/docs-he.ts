/** Hebrew documentation served as `viewstream://docs/he/{topic}` (the same topics as the English set). */
export const DOCS_HE: Readonly<Record<string, { title: string; text: string }>> = Object.freeze({
  'getting-started': {
    title: 'צעדים ראשונים',
    text: `# צעדים ראשונים

‏ViewStream היא פלטפורמת וידאו באירוח עצמי: ממשק ניהול תחת \`/v1\`, קליטת שידור חי ב-SRT וב-RTMP עם הקלטה רציפה, תור קידוד, הגשת צפייה וסטטיסטיקה.

1. צרו מפתח API בסטודיו (הגדרות ← מפתחות API) או ב-\`POST /v1/api-keys\` (הרשאה \`keys:manage\`). המפתח המלא מוצג פעם אחת בלבד; נשמר רק הגיבוב שלו.
2. שלחו אותו בכל בקשה: \`Authorization: Bearer vs_...\`. מפתח חסר, לא מוכר או מבוטל נענה ב-401; מפתח בלי ההרשאה הנדרשת נענה ב-403 \`insufficient_scope\` ושם ההרשאה מופיע ב-\`detail\`.
3. רישום סרטון: \`POST /v1/assets\` עם \`{"source": {"kind": "url", "url": "https://..."}, "title": "..."}\`, ואז \`GET /v1/assets/{id}\` עד ש-\`status\` הוא \`ready\`; אז התשובה כוללת את \`playback.hls\`.
4. רשימות מסודרות מהחדש לישן ומחולקות לדפים עם \`limit\` ו-\`next_cursor\` (מחזירים אותו כ-\`cursor\`).

התיעוד המלא נמצא ב-\`/openapi.he.json\` (באנגלית: \`/openapi.json\`) ובדף האינטראקטיבי \`/docs/he/\`. עוזרים קוראים את אותו קטלוג כ-\`viewstream://openapi\`.`,
  },
  uploads: {
    title: 'העלאת קבצים',
    text: `# העלאת קבצים

שתי דרכים להכניס קובץ:

- **מכתובת URL**: ‏\`POST /v1/assets\` עם \`source.kind: url\` (הרשאה \`assets:write\`). השרת מוריד את הקובץ בעצמו; כתובות פרטיות ופנימיות נדחות. \`external_id\` כפול נענה ב-409, כך שניסיון חוזר בטוח.
- **העלאה מרובת חלקים** לקבצים שבמחשב שלכם (הרשאה \`assets:write\` או \`uploads\`):
  1. ‏\`POST /v1/uploads\` עם \`{filename, size_bytes, content_type}\` ← ‏\`upload_id\`, ‏\`key\`, ‏\`part_size\` ‏(64 MiB) ורשימת החלקים.
  2. ‏\`PUT /v1/uploads/{upload_id}/parts/{n}?key=<key>\` עם הבתים הגולמיים של כל חלק (בדיוק \`Content-Length\` בתים, לכל היותר \`part_size\`; יש לקודד את \`upload_id\` ואת \`key\` ב-URL). כל תשובה היא \`{part_number, etag}\`. אפשר לשלוח חלקים במקביל; חלק שנכשל נענה ב-409 ונשלח שוב.
  3. ‏\`POST /v1/uploads/{upload_id}/complete\` עם \`{key, parts: [{part_number, etag}], title?, external_id?, metadata?}\` ← ‏201 עם הנכס (\`status: probing\`).

קובץ יכול להגיע עד 200GB, וההעלאה צריכה להסתיים בתוך שעה. העיבוד רץ אחר כך כמשימות (\`GET /v1/jobs?subject=<מזהה הנכס>\`); ה-webhook ‏\`asset.ready\` או \`asset.failed\` מודיע על התוצאה.`,
  },
  'live-ingest': {
    title: 'קליטת שידור חי',
    text: `# קליטת שידור חי

1. יצירת ערוץ: \`POST /v1/channels\` עם \`{name}\` (הרשאה \`channels:write\`). הערוץ מקבל שני פורטים להאזנת SRT (ראשי וגיבוי), סיסמת SRT ושני מפתחות שידור RTMP.
2. קריאת כתובות הקליטה: \`GET /v1/channels/{id}/ingest\` (הרשאה \`channels:operate\`; אלה סודות).
3. הפעלה: \`POST /v1/channels/{id}/start\`. הערוץ במצב \`waiting\` עד שמגיע אות, ואז \`live\`.
4. כוונו את המקודד לכתובת הראשית (SRT במצב caller לפורט ההאזנה עם הסיסמה, או RTMP עם מפתח השידור); מקודד גיבוי בכתובת הגיבוי נכנס לפעולה כשהראשי נעצר.

\`GET /v1/channels\` מציג את \`status\` ‏(stopped, waiting, live, failed), את האות שבשימוש, את מצב ההקלטה ואת קצב הנתונים, הרזולוציה, המקודדים והאזהרות של הקלט. כל מה שמתקבל מוקלט: צפייה חוזרת (\`GET /v1/channels/{id}/catchup\`) וקטעים (\`POST /v1/clips\`) מתנגנים מההקלטה כל עוד היא בתקופת השמירה. צפייה בשידור החי: \`playback.hls\` של הערוץ.`,
  },
  'playback-tokens': {
    title: 'אסימוני צפייה',
    text: `# אסימוני צפייה

הכתובות שב-\`playback\` מתנגנות ללא הגנה, אלא אם מדיניות צפייה דורשת אסימונים. במקרה כזה מנפיקים אסימון לכל צופה ב-\`POST /v1/playback/tokens\` (הרשאה \`playback:sign\`). הגוף מציין יעד אחד בדיוק: \`channel: <slug>\`, ‏\`asset: <id>\`, ‏\`clip: <id>\`, ‏\`catchup: {channel, start, end}\` (מילישניות מאז 1970; \`end\` יכול להיות \`live\`) או \`startover: {channel, programme}\`. אפשרויות: \`ttl_s\` ‏(0-604800; 0 = ברירת המחדל של המדיניות), ‏\`viewer_ip\`, ‏\`viewer_asn\`, ‏\`viewer_id\`.

התשובה היא \`{src, url, token, sid, expires_at, protected, thumbs}\`. האסימון נמצא בנתיב הכתובת (\`/t/<token>/...\`) כך שכתובות יחסיות של מקטעים יורשות אותו. \`sid\` מזהה את הפעלת הצפייה; ‏\`POST /v1/security/revocations\` (הרשאה \`security:manage\`) מבטל אותה. בעלים יכול להוריד את מפתח החתימה ולחתום על אסימונים בשרת שלו.`,
  },
  webhooks: {
    title: 'Webhooks',
    text: `# Webhooks

רושמים נקודת קצה ב-\`POST /v1/webhooks\` (הרשאה \`webhooks:manage\`) ובוחרים סוגי אירועים (\`asset.ready\`, ‏\`asset.failed\`, ‏\`clip.ready\`, ‏\`channel.feed_changed\` ועוד; הרשימה המלאה היא \`event_types\` של \`GET /v1/webhooks\`).

כל משלוח הוא POST עם המעטפה \`{id, type, at, customer_id, data}\` והכותרות \`X-VS-Event\`, ‏\`X-VS-Delivery\` (קבועה בין ניסיונות), ‏\`X-VS-Timestamp\` (שניות Unix) ו-\`X-VS-Signature: sha256=<hex>\`: ‏HMAC-SHA256 במפתח הסודי של נקודת הקצה על חותמת הזמן, נקודה והגוף הגולמי. אמתו את החתימה על הגוף הגולמי לפני הפענוח, השוו בזמן קבוע, ודחו חותמות זמן שרחוקות ביותר מ-300 שניות.

ענו בכל קוד 2xx בתוך 10 שניות; הפניות אינן נעקבות. משלוח שנכשל נשלח שוב אחרי 10 שניות, דקה, 5 דקות, 30 דקות, שעתיים ו-12 שעות; אחרי הכישלון השביעי המשלוח מסומן \`dead\`. משלוחים יכולים להגיע שלא לפי הסדר: מיינו לפי \`at\` והסירו כפילויות לפי \`X-VS-Delivery\`.`,
  },
  errors: {
    title: 'שגיאות',
    text: `# שגיאות

שגיאות מוחזרות כפרטי בעיה לפי RFC 9457 ‏(\`application/problem+json\`): ‏\`{type, title, status, detail, request_id}\`; שגיאות אימות מוסיפות \`errors: [{field, detail}]\`. צטטו את \`request_id\` (גם בכותרת \`X-Request-Id\`) כשאתם פונים לתמיכה.

| קוד | סטטוס | משמעות |
|---|---|---|
| invalid_credentials | 401 | מפתח חסר, שגוי, לא מוכר או מבוטל |
| insufficient_scope | 403 | למפתח חסרה ההרשאה ששמה מופיע ב-\`detail\` |
| forbidden | 403 | אסור לדייר זה או לאובייקט זה |
| feature_disabled | 403/503 | לא זמין כאן (דייר CDN בלבד, סטטיסטיקה כבויה) |
| not_found | 404 | אין אובייקט כזה אצל הדייר |
| conflict | 409 | ‏\`external_id\` כפול, נכס שאינו מוכן, פנייה סגורה |
| validation_error | 422 | גוף או שאילתה לא תקינים; ראו \`errors[]\` |
| rate_limited | 429 | המתינו \`Retry-After\` שניות |
| internal_error | 500 | תקלה בשרת |
| not_ready | 503 | רכיב תלוי אינו זמין; נסו שוב בהמתנה הולכת וגדלה |

מפתח יכול לשלוח 20 בקשות בשנייה (פרצים עד 100). בתשובות 429 ו-503 המתינו זמן שגדל בכל ניסיון. דרך נקודת הקצה של העוזר, כלי שנכשל עונה \`isError: true\` עם אותם פרטי בעיה.`,
  },
});
