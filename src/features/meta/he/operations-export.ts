/** Hebrew text of the event export operations (issue 47), keyed by operationId. */
export const HE_EXPORT: Record<string, { summary: string; description: string }> = {
  createEventDestination: {
    summary: 'יצירת יעד ייצוא אירועים',
    description: 'יוצר יעד שמקבל את אירועי הפלטפורמה (סוגי אירועי ה-webhook) ולפי הבחירה גם אירועי סטטיסטיקה (`player_events`, `edge_requests`), כל אחד כשורת `vs.event.v1` ‏`{schema, id, type, at, tenant_id, data}` (ה-`id` קבוע: מפתח למניעת כפילויות). סוגים: `s3` (אובייקט NDJSON דחוס ב-gzip לכל אצווה, במפתח קבוע, כך שניסיון חוזר דורס ולא משכפל), `kafka` (הודעה לכל אירוע, ממופתחת לפי הדייר כדי לשמור על הסדר, המזהה בכותרת `vs-event-id`), `https` (‏POST של NDJSON חתום כמו webhooks: `X-VS-Timestamp`, `X-VS-Signature`, `X-VS-Batch`; הסוד מוחזר פעם אחת, כאן; עם `https.gzip` הגוף דחוס ב-gzip והחתימה מכסה את הבייטים הדחוסים כפי שנשלחו) ו-`ga4` (‏Measurement Protocol, עד 25 אירועים לבקשה; המטען נבדק עכשיו מול `/debug/mp/collect`, ודחייה נענית ב-422 עם הודעות GA4). היעד מתחיל מעכשיו; היסטוריה שולחים בשליחה חוזרת. כתובות פרטיות נדחות אלא אם הותרו (VS_PRIVATE_ALLOWLIST). פרטי הגישה מוצפנים במנוחה ואינם מוצגים לעולם. משלוח: אצוות של `max_events` או `max_age_s`, אחת בכל פעם ולפי הסדר, לפחות פעם אחת; אצווה שנכשלה נשלחת שוב (5 שניות, 5 דקות, 30 דקות, 2, 5, 10 ו-10 שעות) ואז עוברת לתור המכתבים המתים. docs/event-export.md.',
  },
  listEventDestinations: { summary: 'רשימת יעדי ייצוא אירועים', description: 'כל יעדי הדייר עם המיקום והתור שלהם (אצוות ממתינות ומתות).' },
  getEventDestination: { summary: 'יעד ייצוא אירועים', description: 'יעד אחד עם המיקום והתור שלו.' },
  changeEventDestination: { summary: 'שינוי יעד ייצוא אירועים', description: 'שם, בחירת אירועים, אצוות או `enabled`. יעד מושבת שומר על מיקומו: כשמפעילים אותו שוב הוא ממשיך משם (בלי לדלג ובלי לשלוח פעמיים).' },
  deleteEventDestination: { summary: 'מחיקת יעד ייצוא אירועים', description: 'מוחק את היעד עם יומן המשלוחים והמכתבים המתים שלו.' },
  eventDestinationDeliveryLog: { summary: 'יומן המשלוחים של יעד ייצוא', description: 'אצוות, מהחדשה לישנה: מקור, טווח, אירועים, בייטים, ניסיונות, זמן תגובה, תוצאה והניסיון הבא.' },
  eventDestinationDeadLetters: { summary: 'מכתבים מתים של יעד ייצוא', description: 'אצוות שמוצו כל הניסיונות החוזרים שלהן, מהחדשה לישנה, עם השגיאה האחרונה.' },
  replayDeadLetter: { summary: 'שליחה חוזרת של מכתב מת', description: 'מחזיר אצווה מתה לראש התור עם ניסיונות חדשים (אותו מזהה אצווה: אותו מפתח אובייקט ב-S3 ואותם מזהי הודעות). אצווה שאינה מתה נענית ב-409.' },
  replayEventsByTimeRange: { summary: 'שליחה חוזרת של אירועים לפי טווח זמן', description: 'מכניס שוב לתור את האירועים הנבחרים של [from, to), כאצוות שליחה חוזרת אחרי אלה שכבר בתור (עד 31 יום ו-1000 אצוות). האירועים שומרים על המזהים שלהם, כך שהמקבל יכול להשמיט את מה שכבר קיבל.' },
};
