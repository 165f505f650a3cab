/** Hebrew names of event types, job types and audit actions (typed against the English keys in en-names.ts). */
import type { EN_NAMES } from './en-names';

export const HE_NAMES: Record<keyof typeof EN_NAMES, string> = {
  ev_asset_ready: 'הסרטון מוכן', ev_asset_preview_ready: 'תצוגה מקדימה של הסרטון זמינה', ev_asset_published: 'הסרטון פורסם', ev_asset_failed: 'עיבוד הסרטון נכשל', ev_clip_ready: 'הקטע מוכן',
  ev_clip_final: 'הקטע הושלם (מדויק לפריים)', ev_channel_feed_changed: 'מקור השידור של הערוץ התחלף', ev_channel_ingest_failover: 'הקליטה עברה לגיבוי',
  ev_channel_recording_status: 'ההקלטה התחילה או נעצרה', ev_channel_programme_started: 'תוכנית עלתה לאוויר', ev_prewarm_finished: 'החימום המוקדם של שרתי הקצה הסתיים',
  ev_security_leak_suspected: 'חשד לדליפת ניגון', ev_security_revoked: 'הפעלות ניגון בוטלו', ev_policy_changed: 'מדיניות הניגון השתנתה',
  ev_epg_published: 'לוח השידורים פורסם', ev_epg_delivery_failed: 'מסירת לוח השידורים נכשלה', ev_alert_firing: 'התראה פעילה', ev_alert_resolved: 'ההתראה נפתרה',
  ev_artifact_published: 'כתבה פורסמה', ev_ping: 'אירוע בדיקה', ev_family: 'כל אירועי „{name}”',
  evf_asset: 'סרטון', evf_clip: 'קטע', evf_channel: 'ערוץ', evf_prewarm: 'חימום מוקדם', evf_security: 'אבטחה', evf_policy: 'מדיניות', evf_epg: 'לוח שידורים',
  evf_alert: 'התראה', evf_artifact: 'כתבה',
  ev_of_asset: 'סרטון: {title}', ev_of_clip: 'קטע: {title}', ev_of_channel: 'ערוץ: {title}', ev_status: 'מצב: {s}', ev_error: 'שגיאה: {e}',
  ev_unknown_asset: 'סרטון שכבר אינו בספרייה',
  job_asset_process: 'בדיקת קובץ המקור', job_asset_encode: 'קידוד', job_asset_fetch: 'הורדת קובץ המקור', job_vod_publish: 'העתקת ההקלטה',
  job_clip_finalize: 'חיתוך הקטע', job_other: 'עיבוד',
  au_key_created: 'נוצר מפתח API', au_key_revoked: 'בוטל מפתח API', au_member_added: '{who} הצטרף לצוות בתפקיד {role}', au_member_removed: '{who} הוסר מהצוות',
  au_member_role_changed: 'התפקיד של {who} שונה מ{from} ל{to}', au_invitation_created: 'נשלחה הזמנה אל {who} ({role})', au_invitation_revoked: 'הזמנה בוטלה',
  au_settings_changed: 'ההגדרות שונו', au_connect_approved: 'חיבור אתר אושר', au_connect_disconnected: 'אתר נותק',
  au_signin_failed: 'כניסה שנכשלה', au_signin_throttled: 'הכניסה נחסמה אחרי כישלונות חוזרים', au_password_reset: 'הסיסמה שונתה בקישור איפוס',
  au_password_reset_sent: 'נשלח איפוס סיסמה אל {who}', au_asset_published: 'פורסם „{title}”', au_asset_unpublished: 'הפרסום של „{title}” בוטל',
  au_asset_trashed: '„{title}” הועבר לאשפה', au_asset_restored: '„{title}” שוחזר', au_asset_purged: 'סרטון נמחק לצמיתות', au_asset_poster_changed: 'תמונת הפתיחה של סרטון הוחלפה', au_asset_trash_emptied: 'האשפה רוקנה ({n})',
  au_guide_published: 'לוח השידורים של {name} פורסם (גרסה {v})', au_guide_rolled_back: 'לוח השידורים של {name} הוחזר (גרסה {v})',
  au_guide_changed: 'לוח השידורים של {name} שונה ישירות, בלי בדיקה (גרסה {v})',
  au_channel_stopped: 'הערוץ {name} נעצר', au_channel_started: 'הערוץ {name} הופעל', au_programme_to_library: 'תוכנית נשלחה לספרייה',
  au_programme_to_library_pub: 'תוכנית פורסמה בספרייה', au_mcp_tool_call: 'נעשה שימוש בכלי של העוזר', au_other: 'פעולה אחרת', au_code: 'קוד הפעולה',
  au_target: 'נושא', au_system: 'המערכת',
};
