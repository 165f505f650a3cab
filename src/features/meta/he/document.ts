import { DELIVERY_EXAMPLES } from '../document-text';
/** Hebrew prose of the management API document: the introduction, the delivery URL shapes and the tag descriptions. */

/** The introduction (`info.description`) before the delivery section. */
export const INTRO_HE = [
  'ממשק הניהול של ViewStream. כל בקשה נושאת `Authorization: Bearer <API_KEY>`, אלא אם הפעולה מצוינת כציבורית; שגיאות מוחזרות כפרטי בעיה לפי RFC 9457 (`application/problem+json`) עם קוד `type` קבוע ו-`request_id`.',
  '',
  '- רשימות משתמשות בסמנים אטומים: `{items, next_cursor}`, מהחדש לישן; מחזירים את `next_cursor` כמו שהוא בפרמטר `cursor` (`null` פירושו סוף הרשימה).',
  '- הבקשות מחמירות: שדה לא מוכר בגוף הבקשה נענה ב-400; ערכים לא תקינים נענים ב-422 עם `errors[]` (`{field, detail}`).',
  '- עד 20 בקשות בשנייה למפתח, עם פרץ של עד 100; מעבר לכך 429 עם `Retry-After`.',
  '- זמנים בפורמט RFC 3339 ב-UTC; מזהים הם UUID.',
].join('\n');

/** The "Delivery URLs" section in Hebrew (the addresses themselves stay as they are). */
export const DELIVERY_URLS_HE = `## כתובות הפצה (Delivery URLs)

כתובות הניגון נמצאות על שרת ההפצה של הדייר \`{cdn_hostname}\` (GET /v1/me, השדה \`current_tenant.cdn_hostname\`). אין צורך במפתח API. הנגנים עוקבים אחרי הכתובות היחסיות שבתוך רשימות ההשמעה, כך שכתובת אחת היא כל מה שנגן צריך. \`<tenant>\` הוא ה-slug של הדייר, אלא אם נאמר אחרת בשורה; \`<rendition>\` הוא \`src\` (העברה ללא קידוד) או \`<height>p\` (סולמות מקודדים).

| מה | כתובת |
|---|---|
| רשימת השמעה ראשית של שידור חי | \`/live/<tenant>/<channel_slug>/master.m3u8\` |
| רשימת השמעה של איכות בשידור חי | \`/live/<tenant>/<channel_slug>/<rendition>/index.m3u8\` |
| מקטע אתחול בשידור חי | \`/live/<tenant>/<channel_slug>/<rendition>/init/<init_ms>.mp4\` |
| מקטע מדיה בשידור חי (CMAF) | \`/live/<tenant>/<channel_slug>/<rendition>/seg/<start_ms>.m4s\` |
| VOD, ‏HLS לא מוצפן | \`/m/<tenant_id>/assets/<asset_id>/v<version>/master.m3u8\` (\`<tenant_id>\` הוא מזהה הדייר) |
| VOD: ‏DASH, תמונת שער, ספרייט, תמונות ממוזערות, הורדה | באותה תיקייה: \`manifest.mpd\`, \`poster.jpg\`, \`poster.webp\`, \`sprite.jpg\`, \`thumbs.vtt\`, \`download.mp4\` |
| VOD, ‏HLS מוצפן AES-128 | \`/m/<tenant_id>/assets/<asset_id>/v<version>/aes/master.m3u8\` (המפתח ב-\`aes/key.bin\`, כתובת יחסית) |
| תצוגה מקדימה של VOD בזמן הקידוד | \`/m/<tenant_id>/assets/<asset_id>/preview/master.m3u8\` (כשנייה אחרי ההעלאה: מקור H.264/AAC שדפדפנים מנגנים נארז מחדש כמות שהוא, אחרת רשימת EVENT שגדלה מהסולם; כשהנכס מוכן אותה כתובת עונה ב-master של הסולם) |
| קליפ | \`/m/clips/<clip_id>/master.m3u8?c=<tenant>\` |
| טווח של צפייה חוזרת | \`/m/catchup/<channel_slug>/<start_ms>/<end_ms>/master.m3u8?c=<tenant>\`; \`live\` במקום \`<end_ms>\` גדל עד קצה השידור החי |
| צפייה מההתחלה בתוכנית שמשודרת עכשיו | \`/m/startover/<channel_slug>/<programme_id>/master.m3u8?c=<tenant>\` |
| ארכיון (בסגנון Flussonic) | \`/live/<tenant>/<channel_slug>/archive-<from_s>-<duration_s>.m3u8\` (שניות Unix, ומשך בשניות) |
| הצורה החתומה (באסימון) של כל אחת מאלה | \`/t/<token>/\` ואחריו הנתיב שלמעלה, למשל \`/t/<token>/live/<tenant>/<channel_slug>/master.m3u8\` |

רשימות האיכויות של צפייה חוזרת, צפייה מההתחלה וקליפים בנויות כמו בשידור החי, תחת התיקייה שלהן: \`<rendition>/index.m3u8\`, \`<rendition>/init/<ms>.mp4\`, \`<rendition>/seg/<ms>.m4s\` (כל אחת עם \`?c=<tenant>\`). הזמנים \`<start_ms>\`/\`<end_ms>\` הם מילישניות מאז ה-epoch (‏\`play_start\`/\`play_end\` של פריט צפייה חוזרת). רצועות כתוביות שפורסמו הן גרסאות כתוביות של רשימת ההשמעה הראשית (\`SUBTITLES="subs"\`): ב-VOD‏ \`subs_<track>.m3u8\`, \`subs_<track>_<n>.vtt\` וכל הרצועה ב-\`subs_<track>.vtt\` לצד \`master.m3u8\` (וקבוצות הסתגלות טקסט ב-MPD); בצפייה חוזרת ובצפייה מההתחלה \`subs-<language>-<first_ms>/index.m3u8\` עם מקטעי \`vtt/<start_ms>-<duration_ms>.vtt\`.

דוגמאות (דייר \`default\`, ערוץ \`news\`):

${DELIVERY_EXAMPLES}
יעד שהמדיניות שלו דורשת אסימון נענה ב-403 בכתובות הלא חתומות; חותמים כתובת עם POST /v1/playback/tokens (השדה \`src\` שלה הוא הכתובת \`/t/<token>/...\`). אסימון פותח רק את היעד שלו (אסימון צפייה חוזרת – רק תתי-טווחים של החלון שלו) עד שהוא פג או שההפעלה שלו מבוטלת.`;

/** Tag names shown in the Hebrew reference (the English names are the keys). */
export const TAG_NAMES_HE: Record<string, string> = {
  Meta: 'מטא', Sites: 'אתרים', 'Sites Delivery': 'הגשת אתרים', Identity: 'זהות ומפתחות', Assets: 'נכסים', Uploads: 'העלאות', Jobs: 'משימות', Playback: 'ניגון',
  Webhooks: 'Webhooks', Events: 'אירועים', 'Live channels': 'ערוצים חיים', Guide: 'לוח שידורים', 'Catch-up': 'צפייה חוזרת', Clips: 'קליפים', 'AI articles': 'כתבות AI',
  Players: 'נגנים', Library: 'ספרייה', Team: 'צוות', Support: 'תמיכה', Assistant: 'עוזר', Statistics: 'סטטיסטיקה', Billing: 'חיוב', 'Event export': 'ייצוא אירועים', 'Storage keys': 'מפתחות אחסון', 'Library imports': 'ייבוא לספרייה', Monitors: 'ניטור והתראות',
  CDN: 'מטמון קצה (CDN)',
};

/** Tag descriptions (Hebrew), keyed by the Hebrew tag name. */
export const TAGS_HE: Record<string, string> = Object.fromEntries(Object.entries({
  Meta: 'בדיקת חיות והמסמכים עצמם.',
  Sites: 'אתרים ציבוריים: אתרים, דומיינים, ערכת עיצוב, עמודים עם גרסאות ותזמון, תוכניות, אנשי צוות, תפריטים, נתיבים ואסימוני תצוגה מקדימה.',
  'Sites Delivery': 'הממשק הציבורי לקריאה בלבד שצד הלקוח של אתר קורא (ללא מפתח), וניתן לשמירה במטמון CDN.',
  Identity: 'המפתח הקורא וניהול מפתחות API.',
  Assets: 'נכסי VOD: רישום, רשימה וחיפוש, עריכה, פרסום, אשפה וקידוד מחדש.',
  Uploads: 'העלאות מרובות חלקים של קובצי מקור (במפתח API או באסימון דפדפן).',
  Jobs: 'עבודות רקע (בדיקה, קידוד, הורדה): התקדמות, היסטוריה, ניסיון חוזר וביטול.',
  Playback: 'כתובות ניגון חתומות, הפעלות נגן, ביטולים, מפתחות חתימה ומדיניות ניגון. צורות הכתובות מפורטות בפרק "כתובות הפצה" שבמבוא.',
  Webhooks: 'webhooks יוצאים (משלוחים חתומים עם ניסיונות חוזרים) ו-hooks נכנסים ממערכות תוכן.',
  Events: 'זרם אירועי השרת.',
  'Live channels': 'ערוצים חיים שמוזנים ב-SRT או ב-RTMP, עם הקלטה רציפה.',
  Guide: 'לוח השידורים: תוכניות, סקירה ופרסום, ייבוא XMLTV, החרגות מצפייה חוזרת.',
  'Catch-up': 'תוכניות מוקלטות (צפייה חוזרת), חיפוש ופרסום תוכניות לספרייה.',
  Clips: 'קליפים שנחתכים מהקלטה של ערוץ.',
  'AI articles': 'טיוטות כתבה לתוכניות שנכתבות מהכתוביות שלהן (מנוע חילוץ מובנה או מודל צ\'ט), שעורכים סוקרים, מתקנים ומאשרים; האישור שולח `artifact.published` עם JSON-LD. מדריך: docs/articles.md.',
  Players: 'תצורות נגן (ערכת עיצוב, ערכת נושא, פקדים, פרסומות, beacons, הטמעה) והיכן חלה כל אחת.',
  Library: 'מדורי ספרייה שמקבצים נכסים.',
  Team: 'האנשים של הדייר: חברי צוות, תפקידים והזמנות.',
  Assistant: 'נקודת הקצה של העוזר (Model Context Protocol) לעוזרי בינה מלאכותית עם מפתח API בהרשאות מוגבלות.',
  Support: 'פניות תמיכה למפעילי המערכת: פתיחה (עד 10 פניות חדשות לדייר בשעה), תגובה וסגירה.',
  Monitors: 'מוניטורים והתראות: בדיקות על ערוצים חיים, הקלטה, דיסק ואיכות הצפייה; יעדי התראות (דוא"ל, טלגרם); היסטוריית התראות; מצב השירות. מדריך: docs/monitors.md.',
  'Library imports': 'ייבוא מאתר אינטרנט: מפת אתר של וידאו, אינדקס מפות אתר או פיד media RSS נקראים לפריטים לסקירה (חדשים, או מדולגים כשהם כבר בספרייה), נבחרים ומופעלים לנכסים מכתובת. מדריך: docs/imports.md.',
  'Storage keys': 'מפתחות גישה בסגנון S3 לאזור הקליטה של הדייר: כלי S3 רגילים מעלים קובצי מקור אל ingest/<prefix>/in/ בכתובת /s3/<tenant slug>/... מדריך: docs/storage-keys.md.',
  'Event export': 'יעדים שמקבלים אירועי פלטפורמה וסטטיסטיקה כשורות vs.event.v1 ‏(S3, ‏Kafka, ‏HTTPS, ‏GA4), עם יומן משלוחים, מכתבים מתים ושליחה חוזרת. מדריך: docs/event-export.md.',
  Billing: 'נתוני שימוש חודשיים (דקות אחסון, קידוד ומסירה, בייטים שנמסרו, שעות שידור חי ושעות הקלטה) לפי דרגת רזולוציה, ב-JSON או ב-CSV. הנוסחאות: docs/billing.md.',
  CDN: 'מטמון הקצה של חזית ההגשה: ניקוי אובייקטים שמורים לפי כתובת, קידומת, נכס, קליפ או תגית, וחימום מוקדם של נכס, קליפ, ערוץ או כתובות כדי שהצופים יקבלו פגיעות במטמון. מדריך: docs/edge.md.',
  Statistics: 'סטטיסטיקת קהל ומקור מ-DuckDB (הפעלות צפייה מה-beacon של הנגן, יומן הבקשות של שרת המקור), מספרים בזמן אמת וייצוא. הנוסחאות: docs/metrics.md.',
}).map(([en, d]) => [TAG_NAMES_HE[en] ?? en, d]));
