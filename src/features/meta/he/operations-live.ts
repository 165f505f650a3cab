/** Hebrew text of the webhooks, events, guide, catch-up, clips and channel operations, keyed by operationId. */
import { DELIVERY_DOC_HE, eventTypesMarkdownHe } from './webhooks';

/** The Hebrew operations of the live side and of integrations. */
export function heLive(): Record<string, { summary: string; description: string }> {
  return {
    createWebhookEndpoint: {
      summary: 'יצירת נקודת webhook',
      description: `\`url\` חייבת להיות כתובת HTTPS ציבורית; כתובות פרטיות ופנימיות נדחות כאן ושוב בכל משלוח (http רגיל מתקבל רק לכתובות שבהגדרת \`VS_PRIVATE_ALLOWLIST\` של המפעיל, לסביבות ניסוי). \`events\` מפרט סוגי אירועים או שהוא \`["*"]\`. התשובה מכילה את \`secret\` (\`whsec_...\`) פעם אחת בלבד; נשלחים רק אירועים שנוצרו אחרי היצירה.\n\n${DELIVERY_DOC_HE}\n\n${eventTypesMarkdownHe()}`,
    },
    listWebhookEndpoints: {
      summary: 'רשימת נקודות webhook',
      description: `מהחדש לישן, עם \`secret_hint\`. \`event_types\` היא הרשימה המחייבת של סוגי האירועים; ה-\`data\` של כל אחד:\n\n${eventTypesMarkdownHe()}`,
    },
    readWebhookEndpoint: {
      summary: 'קריאת נקודת webhook',
      description: 'הנקודה עם `secret_hint` (הסוד עצמו מוצג רק ביצירה).',
    },
    changeWebhookEndpoint: {
      summary: 'שינוי נקודת webhook',
      description: '`enabled: false` משהה את המשלוחים (משלוחים שבתור ממתינים; אירועים שנוצרים בזמן ההשהיה אינם נכנסים לתור שלה); `events` ו-`url` נבדקים כמו ביצירה.',
    },
    deleteWebhookEndpoint: {
      summary: 'מחיקת נקודת webhook',
      description: 'מוחקת את הנקודה ואת יומן המשלוחים שלה.',
    },
    sendTestPing: {
      summary: 'שליחת ping לבדיקה',
      description: 'יוצרת אירוע `ping` (`data: {webhook_id}`) לנקודה זו בלבד, חתום ונשלח שוב בכישלון כמו כל משלוח. 409 כשהנקודה מושבתת.',
    },
    listDeliveries: {
      summary: 'רשימת משלוחים',
      description: 'מהחדש לישן; אפשר לסנן לפי `status`. כל משלוח מציג את הניסיונות שלו, את קוד התשובה והזמן האחרונים ואת הניסיון הבא.',
    },
    redeliver: {
      summary: 'שליחה חוזרת',
      description: 'הופכת את המשלוח לממתין לשליחה מיידית עם מכסה חדשה של 7 ניסיונות. מזהה `X-VS-Delivery` נשאר אותו מזהה.',
    },
    eventStream: {
      summary: 'זרם אירועים',
      description: `אירועי שרת (\`text/event-stream\`) של הדייר הקורא: אותם אירועים כמו ב-webhooks, עם אותה מעטפת JSON \`{id, type, at, customer_id, data}\` (סוגי האירועים מפורטים תחת Webhooks). מסגרות:

\`\`\`
id: 1234
event: asset.ready
data: {"id":"…","type":"asset.ready","at":"…","customer_id":"…","data":{…}}
\`\`\`

\`id\` הוא המספר הסידורי בתור היוצא. כדי להמשיך אחרי ניתוק שולחים את הכותרת \`Last-Event-ID\` (או את פרמטר השאילתה \`last_event_id\`): כל אירוע מאוחר יותר נשלח, ושום דבר לא אובד בזמן הניתוק. \`last_event_id=0\` מנגן מחדש מההתחלה; בלי אף אחד מהם, הזרם מתחיל באירועים חדשים. שורת הערה \`: heartbeat <time>\` כל \`heartbeat_s\` שניות (ברירת מחדל 15) שומרת על החיבור פתוח גם דרך שרתי ביניים. \`types\` מסנן לפי רשימת סוגי אירועים מופרדת בפסיקים. מפתחות שיש להם גם stats:read מקבלים כל \`stats_s\` שניות (ברירת מחדל 5) מסגרת סטטיסטיקה בזמן אמת ללא \`id:\`: \`event: stats.realtime\` ו-\`data:\` עם התשובה של GET /v1/stats/realtime (\`{at, window_s, concurrent, by_content}\`); \`types\` בלי \`stats.realtime\` משמיט אותן. לכל היותר 10 זרמים פתוחים בו-זמנית לכל מפתח (או חיבור סטודיו) ו-100 לכל דייר (\`VS_EVENT_STREAMS_PER_KEY\`, \`VS_EVENT_STREAMS_PER_TENANT\`); מעבר לאחד מהם התשובה היא 429 \`rate_limited\` עם \`Retry-After\`.`,
    },
    createInboundHook: {
      summary: 'יצירת hook נכנס',
      description: '`kind: cms_publish`. ‏`mapping` מציין איפה ה-JSON של מערכת התוכן מציין את הנכסים (`path`, עם `*` למערכים) והאם הערכים הם `external_id` (ברירת מחדל) או `id` של נכסים. התשובה מכילה את `address` שאליו קוראים ואת `secret` (`hksec_...`) פעם אחת בלבד.',
    },
    listInboundHooks: {
      summary: 'רשימת hooks נכנסים',
      description: 'מהחדש לישן, עם `secret_hint`.',
    },
    deleteInboundHook: {
      summary: 'מחיקת hook נכנס',
      description: 'מעכשיו קריאות לכתובת שלו נענות ב-404.',
    },
    inboundHookCall: {
      summary: 'קריאת hook נכנס',
      description: 'נקראת על ידי מערכת התוכן של הלקוח; ללא מפתח API. כותרות: `X-VS-Timestamp` (שניות Unix, בטווח של 300 שניות), `X-VS-Delivery` (ייחודי לכל קריאה; מזהה חוזר אינו מעובד שוב ומחזיר את התוצאה הראשונה עם `duplicate: true`) ו-`X-VS-Signature` בסוד ה-hook, אחד משני הכתיבים: `v2=<HMAC-SHA256 בהקסדצימלי על timestamp + "." + מזהה המשלוח + "." + raw body>` (מומלץ: גם מזהה המשלוח חתום) או, כמו משלוח webhook, `sha256=<HMAC-SHA256 בהקסדצימלי על timestamp + "." + raw body>`. אותה חתימה שנשלחת שוב בתוך חלון הזמן עם `X-VS-Delivery` אחר היא שידור חוזר: דבר אינו מתבצע, והתשובה היא תוצאת הקריאה הראשונה, עם ה-`delivery_id` שלה ו-`duplicate: true`. גוף ה-JSON נקרא לפי ה-`mapping` של ה-hook; נכסים מוכנים שנמצאו מתפרסמים (ונוצר `asset.published`). ‏401 לחתימה שגויה או לחותמת זמן ישנה; גוף של עד 1 MiB עם Content-Length.',
    },
    addProgramme: {
      summary: 'הוספת תוכנית',
      description: 'מחזירה 201 עם התוכנית (מתפרסמת מיד ונשמרת כגרסה של לוח השידורים, מסוג `edit`), או 202 עם `draft: true` כשהערוץ במצב סקירה (מפרסמים עם POST .../guide/publish). הכתיבה האחרונה גוברת: תוכניות שהיא חופפת מקוצרות, ונמחקות כשהן מכוסות כולן. שינוי שנוגע בשעות הנעולות של הערוץ נענה ב-409 `lock_window`.',
    },
    listProgrammes: {
      summary: 'רשימת תוכניות',
      description: 'תוכניות שפורסמו ושחופפות את הטווח `from`–`to` (ברירת מחדל: מ-24 השעות האחרונות ועד 7 ימים קדימה; לכל היותר 31 ימים), לפי שעת ההתחלה.',
    },
    getProgramme: {
      summary: 'תוכנית',
      description: 'תוכנית שפורסמה, עם גבולות הניגון שלה.',
    },
    changeProgramme: {
      summary: 'שינוי תוכנית',
      description: 'במצב סקירה נשמר כטיוטה (202). הזזת הזמנים מאפסת גבולות ניגון שאושרו.',
    },
    deleteProgramme: {
      summary: 'מחיקת תוכנית',
      description: 'במצב סקירה נשמרת כטיוטה (202).',
    },
    confirmPlaybackBoundaries: {
      summary: 'אישור גבולות ניגון',
      description: 'הצפייה החוזרת מנגנת את `play_start`–`play_end` במקום את זמני לוח השידורים; `bounds_status` הופך ל-`confirmed`. בטווח של שעה מזמני לוח השידורים.',
    },
    resetPlaybackBoundaries: {
      summary: 'איפוס גבולות ניגון',
      description: 'חזרה לזמני לוח השידורים (`bounds_status: epg`).',
    },
    catchUpExclusionRules: {
      summary: 'כללי החרגה מצפייה חוזרת',
      description: 'הכללים של הדייר; תוכניות שתואמות אחד מהם אינן מופיעות בצפייה החוזרת.',
    },
    setCatchUpExclusionRules: {
      summary: 'קביעת כללי החרגה',
      description: 'תוכניות שהכותרת או הסדרה שלהן תואמות כלל מוסרות מרשימות הצפייה החוזרת (ונספרות ב-`excluded_hidden`), ואי אפשר לפרסם אותן לספרייה (422).',
    },
    guideSettings: {
      summary: 'הגדרות לוח שידורים',
      description: '`review_mode` ו-`lock_hours` של לוח השידורים של הערוץ.',
    },
    changeGuideSettings: {
      summary: 'שינוי הגדרות לוח שידורים',
      description: '`review_mode`: עריכות נשמרות כטיוטה עד שמישהו עם ההרשאה `epg:publish` מפרסם אותן. `lock_hours`: אי אפשר לשנות את N השעות הקרובות (409 `lock_window`).',
    },
    stagedGuideChanges: {
      summary: 'שינויים ממתינים',
      description: 'שינויים שממתינים לפרסום (מצב סקירה), מהישן לחדש.',
    },
    discardStagedChanges: {
      summary: 'ביטול שינויים ממתינים',
      description: 'מוחקת את כל השינויים הממתינים ומחזירה כמה נמחקו.',
    },
    publishGuide: {
      summary: 'פרסום לוח השידורים',
      description: 'מחילה את השינויים הממתינים לפי הסדר (חלון הנעילה נבדק שוב), שומרת גרסה ממוספרת ויוצרת את האירוע `epg.published`.',
    },
    publishedGuideVersions: {
      summary: 'גרסאות שפורסמו',
      description: '100 הגרסאות האחרונות שפורסמו, מהחדשה לישנה. כל שינוי שמגיע ללוח המפורסם הוא גרסה: טיוטה שנבדקה ופורסמה (`publish`), החזרה (`rollback:N`), וכשמצב הסקירה כבוי גם כל שינוי ישיר (`edit`, `copy`, `shift`, `import`).',
    },
    rollBackGuide: {
      summary: 'החזרת גרסה',
      description: 'משחזרת גרסה שפורסמה בתור גרסה חדשה; נוצר `epg.published`. גרסה מחזיקה את התוכניות שמסתיימות אחרי יום לפני שנשמרה: החלק הזה משוחזר (תוכניות ישנות יותר נשארות כמו שהן). אפשר לשחזר את 100 הגרסאות האחרונות (ישנות יותר נענות ב-404).',
    },
    copyDay: {
      summary: 'העתקת יום',
      description: 'מחליפה את `to_day` (לפי אזור הזמן של הערוץ) בעותקים של התוכניות של `from_day`. במצב סקירה נשמרת כטיוטה (202); אחרת מתפרסמת כגרסה (`copy`).',
    },
    shiftDay: {
      summary: 'הזזת יום',
      description: 'מזיזה ב-`minutes` דקות כל תוכנית שמתחילה ב-`day`. במצב סקירה נשמרת כטיוטה (202); אחרת מתפרסמת כגרסה (`shift`).',
    },
    importXmltvUpload: {
      summary: 'ייבוא XMLTV (קובץ)',
      description: 'multipart/form-data עם `file`. מחליף את הטווח שהקובץ מכסה; חפיפות בתוך הקובץ נפתרות באופן צפוי (התחלה מאוחרת יותר גוברת, והתוכנית הקודמת נחתכת). מסמכים פגומים נענים ב-422. במצב סקירה נשמר כטיוטה (202).',
    },
    importXmltvEpgSourceUrl: {
      summary: 'ייבוא XMLTV (כתובת)',
      description: 'מורד דרך המוריד המאובטח (כתובות פרטיות נדחות, עד 20 MB ו-30 שניות), ואז מיובא כמו קובץ. במצב סקירה נשמר כטיוטה (202).',
    },
    catchUpList: {
      summary: 'רשימת צפייה חוזרת',
      description: '`from`/`to` (RFC 3339; ברירת מחדל: 24 השעות האחרונות; לכל היותר 8 ימים ביניהם), מוגבלים לתקופת השמירה של ההקלטה ולרגע הנוכחי. התוכניות מהחדשה לישנה, עם `coverage` (החלק שהוקלט, לפי אינדקס המקטעים), `status`, `play_start`/`play_end` (זמני לוח השידורים, אלא אם אושרו גבולות), `vod`, ו-`playback.hls` (ובנוסף `playback.startover` בזמן השידור). `excluded_hidden` סופר תוכניות שהוסרו בגלל כללי ההחרגה של הדייר.',
    },
    searchCatchUp: {
      summary: 'חיפוש בצפייה חוזרת',
      description: '`q` בן 2 עד 100 תווים, `limit` בין 1 ל-50 (ברירת מחדל 20). מותאם לעברית: ניקוד ואותיות סופיות אינם משנים, מילים מתאימות לפי תחילית, ותחיליות של אות אחת (ו ה ב ל מ ש כ) אינן נחשבות. לכל פריט נוסף `match {field, snippet}`; `truncated` אמת כשנמצאו יותר מ-`limit` תוצאות. עם `transcript` (ברירת מחדל true) תוכניות נמצאות גם לפי מה שנאמר בהן: כתוביות מפורסמות של ההקלטות של הערוץ בתוך טווח הצפייה של התוכנית, באותה התאמה לעברית (אותיות השימוש מוסרות כחלופה, גרש וגרשיים אינם נחשבים); לפריטים כאלה נוסף `moments` (`seconds` מתחילת הצפייה ו-`line`, שורת הכתובית; עד 20, לפי סדר הזמן), וכשלא נמצאה התאמה בטקסט של לוח השידורים `match.field` הוא `subtitles` והקטע הוא שורת הכתובית. תוכניות שבהן כל המילים נמצאו במדויק מופיעות ראשונות; `transcript=false` מדלג על הכתוביות.',
    },
    cutClip: {
      summary: 'חיתוך קליפ',
      description: 'מתוך ההקלטה של ערוץ; טווח של עד 6 שעות. `precision: segment` (ברירת מחדל) מוכן (`ready`) מיד: רשימת השמעה על המקטעים המוקלטים, בגבולות המקטעים הקרובים, שפגה יחד עם תקופת השמירה של ההקלטה (`expires_at`; אחר כך הניגון נענה ב-410). `precision: frame` נמצא במצב `finalizing` עד שמשימה חותכת אותו במדויק (קבוצות ה-GOP הפנימיות מועתקות, ורק הקצוות מקודדים מחדש) ושומרת אותו בנפרד מההקלטה: אז הוא `final` (`clip.ready` ואחריו `clip.final`). אם לא הוקלט דבר בטווח: 422 על `start_at`; `asset_id`: 422 (לא מומש); `publish` דורש את ההרשאה `clips:publish` ואינו שומר דבר.',
    },
    listClips: {
      summary: 'רשימת קליפים',
      description: 'מהחדש לישן; `limit` עד 200 (ברירת מחדל 50); `channel_id` לבחירה.',
    },
    getClip: {
      summary: 'קליפ',
      description: 'כולל `playback.hls`; `expired` אמת אחרי שמדיניות השמירה מחקה את ההקלטה שמתחת לקליפ ברמת מקטע.',
    },
    deleteClip: {
      summary: 'מחיקת קליפ',
      description: 'גם הקבצים של קליפ סופי (`final`) נמחקים.',
    },
    publishProgrammeToLibrary: {
      summary: 'פרסום תוכנית לספרייה',
      description: '202. אורזת מחדש את הטווח המוקלט (`play_start`–`play_end`, או `start_at`/`end_at`) בלי קידוד מחדש לנכס חדש בספרייה, שממשיך משם במחזור החיים הרגיל של נכס ובאירועים שלו. ההתקדמות מופיעה ב-`vod.status` של פריט הצפייה החוזרת (`publishing`, `published`, `failed`). תוכניות מוחרגות וטווחים שלא הוקלט בהם דבר: 422; תוכנית שעדיין משודרת, או שכבר פורסמה בלי `replace`: 409.',
    },
    publishProgrammesToLibraryBatch: {
      summary: 'פרסום תוכניות לספרייה (אצווה)',
      description: '202 עם רשומה לכל תוכנית: `accepted` והמשימה, או סיבת הדחייה (אותם כללים כמו בפרסום יחיד).',
    },
    createChannel: {
      summary: 'יצירת ערוץ',
      description: 'מקצה שתי יציאות האזנה של SRT (ראשית וגיבוי) מהטווח של השרת, סיסמת SRT ושני מפתחות שידור של RTMP. הערוץ מתחיל במצב `stopped`.',
    },
    listChannels: {
      summary: 'רשימת ערוצים',
      description: 'מהחדש לישן; `limit` עד 200 (ברירת מחדל 50).',
    },
    getChannel: {
      summary: 'ערוץ',
      description: 'מצב (`stopped`, `waiting`, `live`, `failed`), אות (`primary`, `backup`, `none`), הקלטה (`on`, `off`, `gap`) ומאפייני הקלט שנמדדו.',
    },
    changeChannel: {
      summary: 'שינוי ערוץ',
      description: 'שינויים בפרוטוקול (`ingest.protocol`: הפרוטוקול היחיד שהערוץ מקבל), בהשהיה, באורך המקטע, באריזה או בהקלטה מפעילים מחדש את הקליטה של ערוץ פעיל (כמה שניות בלי אות); שדות שנשלחו בלי שינוי לא מפעילים דבר מחדש.',
    },
    deleteChannel: {
      summary: 'מחיקת ערוץ',
      description: 'עוצרת את הערוץ ומוחקת את אינדקס המקטעים שלו; הקבצים המוקלטים נשארים עד שתקופת השמירה תמחק אותם.',
    },
    ingestEndpointsAndSecrets: {
      summary: 'כתובות קליטה וסודות',
      description: 'כתובות SRT במצב caller ‏(AES-128, `pbkeylen=16`) לקלט הראשי ולגיבוי, וכתובת RTMP עם מפתחות השידור (שולחים אל `url + "/" + stream_key`).',
    },
    rotateIngestSecrets: {
      summary: 'החלפת סודות קליטה',
      description: 'סיסמת SRT ומפתחות שידור RTMP חדשים; הישנים נדחים מיד (ערוץ פעיל מפעיל מחדש את יציאות ההאזנה שלו).',
    },
    startChannel: {
      summary: 'הפעלת ערוץ',
      description: 'פותחת את יציאת ההאזנה של הפרוטוקול שלו; הערוץ במצב `waiting` עד שמגיע אות, ואז `live`. ערוצים שהופעלו חוזרים לפעול אחרי הפעלה מחדש של השרת. ערוץ שאף מוניטור לא עוקב אחריו מקבל מוניטור ברירת מחדל (בשמו: `feed_down` בזמן תוכניות מתוכננות, קריטי, 10 שניות; ראו docs/monitors.md).',
    },
    stopChannel: {
      summary: 'עצירת ערוץ',
      description: 'סוגרת את יציאות ההאזנה ועוצרת את ההקלטה.',
    },
    ingestProcessLogs: {
      summary: 'יומני תהליכי קליטה',
      description: 'שורות ה-stderr האחרונות של ה-ffmpeg של כל קלט (עם סודות מוסתרים) ומספר הפעמים שכל אחד הופעל מחדש.',
    },
    channelHistory: {
      summary: 'היסטוריית ערוץ',
      description: '`from`/`to` ‏(RFC 3339; ברירת מחדל השעה האחרונה; לכל היותר 8 ימים ביניהם). החלפות אות ומעברים בין הקלט הראשי לגיבוי עם הזמן והסיבה, שינויי מצב הקלטה, ופערים בהקלטה (חורים של שנייה ומעלה בין מקטעים מוקלטים, מאינדקס המקטעים; `open` כל עוד לא הוקלט דבר מאז). כל רשימה מכילה עד 500 רשומות, מהישנה לחדשה (`truncated` כשהיו יותר).',
    },
  };
}
