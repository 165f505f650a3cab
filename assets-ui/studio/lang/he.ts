/** Hebrew dictionary of the studio (typed against the English keys: a missing key fails the type check). */
import type { Key } from './en';
import { HE_ASSET } from './he-asset';
import { HE_LIVE } from './he-live';
import { HE_GUIDE } from './he-guide';
import { HE_GUIDE_PARTNERS } from './he-guide-sources';
import { HE_FAST } from './he-fast';
import { HE_CLIPS } from './he-clips';
import { HE_NAMES } from './he-names';
import { HE_PEOPLE } from './he-people';
import { HE_SUBTITLES } from './he-subtitles';
import { HE_ARTICLES } from './he-articles';
import { HE_SITES } from './he-sites';
import { HE_IMPORTS } from './he-imports';
import { HE_INPUT_CHECKS } from './he-input-checks';
import { HE_SETTINGS } from './he-settings';

export const HE: Record<Key, string> = {
  ...HE_ASSET, ...HE_LIVE, ...HE_GUIDE, ...HE_GUIDE_PARTNERS, ...HE_FAST, ...HE_CLIPS, ...HE_NAMES, ...HE_PEOPLE, ...HE_SUBTITLES, ...HE_ARTICLES, ...HE_SITES, ...HE_IMPORTS, ...HE_INPUT_CHECKS, ...HE_SETTINGS,
  studio: 'סטודיו', tenant: 'ארגון', skip: 'דילוג לתוכן', nav: 'ראשי', loading: 'טוען…', failed: 'הפעולה לא הצליחה:', retry: 'לנסות שוב', not_found: 'אין דף כזה.',
  copy: 'העתקה', copied: 'הועתק', show: 'הצגה', hide: 'הסתרה', save: 'שמירה', saved: 'נשמר.', cancel: 'ביטול', done: 'סיום', create: 'יצירה', delete: 'מחיקה', refresh: 'רענון',
  nav_dashboard: 'לוח בקרה', nav_library: 'ספרייה', nav_live: 'שידור חי', nav_integrations: 'שילובים', nav_team: 'צוות והגדרות',
  sign_in: 'כניסה', signing_in: 'נכנסים…', sign_out: 'יציאה', signin_title: 'כניסה לסטודיו', signin_intro: 'יש להזין את כתובת הדואר והסיסמה של חשבון הסטודיו.',
  email: 'דואר אלקטרוני', password: 'סיסמה', no_permission: 'התפקיד שלך אינו מתיר דף זה.',
  period: 'תקופה', time: 'זמן', range_24h: '24 שעות', range_7d: '7 ימים', range_30d: '30 ימים', headline: 'מספרים עיקריים',
  viewers_now: 'צופים עכשיו', live_updating: 'חי', plays: 'הפעלות', watch_time: 'זמן צפייה', viewers: 'צופים', watch_minutes: 'דקות צפייה',
  plays_watch: 'הפעלות וזמן צפייה', qoe: 'איכות החוויה', startup: 'זמן עלייה', rebuffer: 'טעינה חוזרת', errors: 'שגיאות',
  top_content: 'התוכן המוביל', channel_health: 'ערוצים חיים', recent_events: 'אירועים אחרונים', waiting_events: 'ממתינים לאירועים… הם יופיעו כאן ברגע שיקרו.',
  no_data: 'עדיין אין נתונים לתקופה זו.', no_channels: 'עדיין אין ערוצים.',
  view: 'תצוגה', all_assets: 'כל הנכסים', trash: 'אשפה', search_assets: 'חיפוש בכותרות, מזהים ומטא־נתונים', n_shown: '{n} מוצגים',
  library_empty: 'הספרייה ריקה. אפשר לגרור לכאן קובצי וידאו כדי להעלות אותם.', trash_empty: 'האשפה ריקה.', no_match: 'אין תוצאות לחיפוש זה.',
  upload: 'העלאה', drop_here: 'גררו לכאן קובצי וידאו, או', choose_files: 'בחירת קבצים', resumed: 'חודש',
  up_starting: 'מתחילים…', up_uploading: 'מעלים…', up_retrying: 'החיבור נותק, מנסים שוב…', up_completing: 'מסיימים…', up_done: 'הועלה — לפתיחה', up_failed: 'ההעלאה נכשלה',
  back_library: 'חזרה לספרייה', processing: 'בעיבוד… הנגן יופיע כשהווידאו יהיה מוכן.', details: 'פרטים', title: 'כותרת',
  duration: 'משך', ladder: 'סולם קידוד', created: 'נוצר', publish: 'פרסום', move_trash: 'העברה לאשפה', restore: 'שחזור',
  confirm_trash: 'להעביר את הנכס לאשפה? אפשר לשחזר אותו עד לריקון האשפה.',
  timeline: 'ציר מצבים', tl_registered: 'נרשם', tl_started: 'התחיל', tl_finished: 'הסתיים', renditions: 'גרסאות קידוד', resolution: 'רזולוציה',
  bitrate: 'קצב נתונים', codecs: 'מקודדים', poster: 'תמונת פתיחה',
  channels: 'ערוצים', create_channel: 'יצירת ערוץ', name: 'שם', slug: 'שם קצר (slug)', slug_hint: 'אותיות לטיניות קטנות, ספרות ומקפים; נגזר מהשם אם ריק.',
  packaging: 'אריזה', passthrough: 'העברה ישירה (השידור כפי שהוא)', abr: 'מסתגל (720p, 480p, 360p)', state: 'מצב', feed: 'מקור', recording: 'הקלטה', input: 'קלט',
  feed_primary: 'ראשי', feed_backup: 'גיבוי', feed_none: 'אין', start: 'הפעלה', stop: 'עצירה', health: 'תקינות', collecting: 'אוספים מדידות של קצב הנתונים…',
  live_player: 'שידור', ingest: 'כתובות קליטה', operators_only: 'רק מפעילים רואים כתובות קליטה וסודות.', primary: 'ראשי', backup: 'גיבוי',
  stream_key: 'מפתח שידור', rotate: 'החלפת סודות', confirm_rotate: 'להחליף את סודות הקליטה? מקודדים שמשתמשים בישנים ינותקו.',
  playback: 'ניגון', ffmpeg_logs: 'יומני ffmpeg', restarts: 'הפעלות מחדש',
  webhooks: 'קריאות יוצאות', endpoint_url: 'כתובת היעד', events: 'אירועים', all_events: 'כל האירועים', add_webhook: 'הוספת כתובת לקריאות', no_webhooks: 'עדיין אין קריאות יוצאות.',
  secret_once: 'העתיקו את סוד החתימה עכשיו: הוא לא יוצג שוב.', signing_secret: 'סוד חתימה', send_test: 'שליחת בדיקה', enable: 'הפעלה', disable: 'השבתה',
  confirm_delete: 'למחוק? אי אפשר לבטל זאת.', deliveries: 'משלוחים', no_deliveries: 'עדיין אין משלוחים.', event: 'אירוע', response: 'תשובה',
  attempts: 'ניסיונות', when: 'מתי', redeliver: 'שליחה מחדש',
  api_keys: 'מפתחות API', api_key: 'מפתח API', key_once: 'העתיקו את המפתח עכשיו: הוא מוצג פעם אחת בלבד.', role: 'תפקיד', create_key: 'יצירת מפתח', no_keys: 'עדיין אין מפתחות.',
  prefix: 'מתחיל ב־', revoke: 'ביטול', revoked: 'בוטל', confirm_revoke: 'לבטל את המפתח? תוכנות שמשתמשות בו יפסיקו לעבוד מיד.',
  role_viewer: 'צופה', role_editor: 'עורך', role_publisher: 'מפרסם', role_engineer: 'מהנדס', role_admin: 'מנהל', role_owner: 'בעלים',
  audit_log: 'יומן ביקורת', no_audit: 'עדיין לא נרשם דבר.', action: 'פעולה', who: 'מי',
  members: 'חברי צוות', joined: 'הצטרף', invitations: 'הזמנות', invite: 'הזמנה', invite_link: 'לא הוגדר שרת דואר: שלחו את הקישור בעצמכם.', link: 'קישור',
  no_invitations: 'אין הזמנות ממתינות.', expires: 'בתוקף עד', branding: 'מיתוג והגדרות', tenant_name: 'שם הארגון', logo_url: 'כתובת הלוגו',
  logo_hint: 'כתובת https של תמונה.', primary_colour: 'צבע ראשי', accent_colour: 'צבע הדגשה', time_zone: 'אזור זמן',
  nav_guide: 'לוח שידורים', nav_clips: 'קטעים', channel: 'ערוץ', week: 'שבוע', prev_week: 'השבוע הקודם', next_week: 'השבוע הבא', today: 'היום', draft: 'טיוטה',
  draft_waiting: '{n, plural, one {שינוי אחד ממתין} two {שני שינויים ממתינים} other {# שינויים ממתינים}} לבדיקה.', publish_guide: 'פרסום לוח השידורים', add_programme: 'הוספת תוכנית', day: 'יום', from: 'משעה', to: 'עד שעה', add: 'הוספה',
  cut_clip: 'חיתוך קטע מההקלטה', clip_in: 'התחלה', clip_out: 'סיום', precision: 'דיוק', precision_segment: 'מקטע (מוכן מיד)',
  precision_frame: 'פריים (מדויק, בחיתוך ברקע)', cut: 'חיתוך', clip: 'קטע', clips: 'קטעים', no_clips: 'עדיין אין קטעים.', watch: 'צפייה',
  st_finalizing: 'בהשלמה', st_final: 'סופי', st_expired: 'פג תוקף',
  nav_delivery: 'הפצה ואבטחה', policies: 'מדיניות ניגון', no_policies: 'אין מדיניות: הניגון פתוח.', token_required: 'נדרש אסימון חתום',
  referrers: 'אתרים מורשים', referrers_hint: 'שמות מארחים, מופרדים בפסיקים.', deny_countries: 'מדינות חסומות', attached: 'חל על', attach_tenant: 'החלה על הכול',
  signing_keys: 'מפתחות חתימה', confirm_rotate_key: 'להחליף את מפתח החתימה? אסימונים שנחתמו במפתח הישן ימשיכו לעבוד עד שיוצא משימוש.', revocations: 'הפעלות שבוטלו',
  no_revocations: 'אין הפעלות שבוטלו.', player_configs: 'תצורות נגן', no_configs: 'עדיין אין תצורות נגן.', preview_needs_asset: 'לתצוגה מקדימה נדרש נכס מוכן בספרייה.',
  recent_alerts: 'התראות אחרונות', no_alerts: 'אין התראות.', reencode: 'קידוד מחדש',
  st_registered: 'נרשם', st_probing: 'בבדיקה', st_queued: 'בתור', st_encoding: 'בקידוד', st_packaging: 'באריזה', st_ready: 'מוכן', st_failed: 'נכשל',
  st_published: 'פורסם', st_live: 'בשידור', st_stopped: 'עצור', st_waiting: 'ממתין לשידור', st_gap: 'פער', st_rec_on: 'מקליט', st_rec_off: 'לא מקליט',
  st_rec_gap: 'פער בהקלטה', st_enabled: 'פעיל', st_disabled: 'מושבת', st_pending: 'ממתין', st_delivered: 'נמסר', st_dead: 'נכשל סופית', st_firing: 'פעילה', st_previous: 'קודם', st_resolved: 'נפתרה',
};
