/** Hebrew webhook delivery rules and event-type table for the Hebrew document. */
import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../../webhooks/event-types';
import { VERIFY_SNIPPET_JS } from '../../webhooks/docs';

/** What each event type means (the `data` shape itself comes from the English catalogue). */
const MEANING_HE: Record<string, string> = {
  'asset.ready': 'העיבוד הסתיים (`status` הוא `ready`); `playback` מכיל את כתובות הניגון כשהן ידועות.',
  'asset.preview_ready': 'קיימת תצוגה מקדימה שאפשר לנגן בזמן שהנכס עדיין בעיבוד (`source`: ‏`remux`, ‏`quick-encode` או `ladder`); `preview.hls` ממשיכה לענות (רשימת ההשמעה של סולם האיכויות) גם כשהנכס מוכן.',
  'asset.published': 'נכס מוכן פורסם.',
  'asset.failed': 'העיבוד נכשל (`status` הוא `failed`); `error` הוא סיבה קצרה.',
  'clip.ready': 'אפשר לנגן את הקליפ (קליפים ברמת מקטע מיד, קליפים ברמת פריים עוד לפני הקידוד מחדש).',
  'clip.final': 'קליפ ברמת פריים סיים את הקידוד מחדש.',
  'channel.feed_changed': '`{channel_id, slug, feed, previous, reason, warnings?}` — האות המשודר התחלף (החלפת קלט, שקופית), או שהשתנו אזהרות התקינות שלו (`warnings: [{code, detail}]`: קודק, פרופיל או פורמט פיקסלים שדפדפנים אינם יכולים לנגן).',
  'channel.ingest_failover': 'הקליטה עברה לקלט הגיבוי.',
  'channel.recording_status': 'ההקלטה הרציפה התחילה או נעצרה.',
  'channel.input_black': 'התמונה המשודרת השחירה למשך `black.min_duration_s` של הערוץ (`state: "started"`, ‏`since`: מתי זה התחיל), או שהתמונה חזרה (`state: "ended"` עם `ended_at` ו-`duration_s`; ‏`reason` כשהמנתח הופעל מחדש או נעצר).',
  'channel.input_freeze': 'התמונה המשודרת לא השתנתה במשך `freeze.min_duration_s` (`started`), או שזזה שוב (`ended`).',
  'channel.input_silence': 'השמע המשודר נשאר מתחת ל-`silence.noise_db` במשך `silence.min_duration_s` (`started`), או שהקול חזר (`ended`).',
  'channel.input_loudness': 'עוצמת השמע לטווח קצר (EBU R128) נשארה מחוץ ל-`loudness.target_lufs` ± `tolerance_lu` במשך `min_duration_s` (`started`; ‏`value`: ‏LUFS לטווח קצר), או חזרה לטווח (`ended`).',
  'channel.programme_started': 'תוכנית מלוח השידורים עלתה לאוויר.',
  'prewarm.finished': 'בקשה לחימום מוקדם של שרתי הקצה הסתיימה.',
  'security.leak_suspected': 'יש חשד לדליפת ניגון.',
  'security.revoked': 'הפעלות ניגון או אסימונים בוטלו.',
  'policy.changed': 'מדיניות ניגון השתנתה.',
  'epg.published': 'גרסה של לוח השידורים פורסמה; וגם, לכל יעד פרסום שקיבל אותה, עם `destination_id` ו-`bytes`.',
  'epg.delivery_failed': 'מסירת לוח השידורים ליעד נכשלה אחרי הניסיון האחרון (`destination_id`, ‏`attempts`, ‏`error`).',
  'alert.firing': 'בדיקה של מוניטור התחילה להתריע.',
  'alert.resolved': 'התראה פעילה נפתרה.',
  'artifact.published': 'כתבת AI אושרה (פעם אחת).',
  ping: 'נשלח על ידי POST /v1/webhooks/{id}/test לנקודה זו בלבד.',
};

/** Markdown table of event types: the `data` shape and its Hebrew meaning. */
export function eventTypesMarkdownHe(): string {
  const row = (t: string) => {
    const [shape, en] = EVENT_TYPES[t].split(' — ');
    return `| \`${t}\` | ${shape} — ${MEANING_HE[t] ?? en} |`;
  };
  return ['| סוג האירוע | `data` |', '|---|---|', ...EVENT_TYPE_NAMES.map(row)].join('\n');
}

/** Delivery rules and the receiver's verification code (the code itself stays as it is). */
export const DELIVERY_DOC_HE = `**משלוחים.** כל אירוע נשלח ב-POST בתור \`{id, type, at, customer_id, data}\` עם הכותרות \`X-VS-Event\`, \`X-VS-Delivery\` (קבוע בין ניסיונות חוזרים), \`X-VS-Timestamp\` (שניות Unix), \`X-VS-Signature\` (\`sha256=\` ואחריו HMAC-SHA256 בהקסדצימלי, בסוד של הנקודה, על \`timestamp + "." + raw body\`) ו-\`User-Agent: ViewStream-Webhooks/1\`. כל תשובת 2xx בתוך 10 שניות היא אישור קבלה; הפניות (redirects) אינן נעקבות ונחשבות לכישלון. ניסיונות חוזרים אחרי 10 שניות, דקה, 5 דקות, 30 דקות, שעתיים ו-12 שעות; הניסיון השביעי שנכשל הופך את המשלוח ל-\`dead\`. המשלוחים רצים במקביל ועלולים להגיע שלא לפי הסדר: יש למיין לפי \`at\` ולהסיר כפילויות לפי \`X-VS-Delivery\`.

יש לאמת על הגוף הגולמי לפני פענוח ה-JSON (Node/Bun):

${VERIFY_SNIPPET_JS}`;
