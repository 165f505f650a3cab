/** Hebrew strings of the studio's live pages (typed against EN_LIVE: a missing key fails the type check). */
import type { EN_LIVE } from './en-live';

export const HE_LIVE: Record<keyof typeof EN_LIVE, string> = {
  // channel settings
  lv_edit: 'עריכת הגדרות', lv_settings: 'הגדרות הערוץ', lv_save: 'שמירת השינויים', lv_saving: 'שומר…', lv_saved: 'ההגדרות נשמרו.', lv_cancel: 'ביטול',
  lv_protocol: 'פרוטוקול המקודד', lv_latency: 'השהיית SRT (אלפיות שנייה)', lv_failover: 'מעבר לגיבוי אחרי (שניות של שקט בקלט הראשי)',
  lv_segment: 'אורך מקטע (שניות)', lv_dvr: 'חלון שידור חי (שניות שצופה יכול להחזיר אחורה)', lv_rec_enabled: 'הקלטה רציפה',
  lv_retention: 'שמירת הקלטות (שעות)', lv_timezone: 'אזור הזמן של לוח השידורים', lv_timezone_hint: 'שם IANA כמו Asia/Jerusalem או UTC.',
  lv_restart_note: 'שינוי פרוטוקול המקודד, ההשהיה, אורך המקטע, האריזה או ההקלטה מפעיל מחדש ערוץ פעיל (הצופים רואים הפסקה קצרה).',
  lv_custom_ladder: 'שלבים מותאמים (נשארים כפי שהם)', lv_no_changes: 'לא שונה דבר.', lv_fix_fields: 'יש לבדוק את השדות המסומנים למטה.',
  // per-input health
  lv_inputs: 'קלטים', lv_connected: 'מקבל', lv_not_connected: 'לא מגיע דבר', lv_on_air: 'בשידור', lv_fps: 'קצב פריימים', lv_restarts: 'הפעלות מחדש',
  lv_fps_unit: 'פריימים/שנייה', lv_input_graph: '{input}: קצב סיביות וקצב פריימים', lv_collecting_input: 'ממתין למדיה בקלט הזה…',
  // history
  lv_history: 'מעברים והקלטה', lv_history_hint: '{h} השעות האחרונות, מהחדש לישן.', lv_no_history: 'אין החלפות אות או פערים בהקלטה בתקופה הזו.',
  lv_ev_failover: 'מעבר: {from} ← {to}', lv_ev_feed: 'אות: {from} ← {to}', lv_ev_rec: 'הקלטה: {to}', lv_ev_gap: 'פער בהקלטה של {d}',
  lv_gap_open: 'פער בהקלטה מאז {t} (עדיין פתוח)', lv_recorded: 'הוקלט בתקופה הזו', lv_failovers: 'מעברים', lv_gaps: 'פערים',
  lv_r_start: 'הערוץ הופעל', lv_r_primary_silent: 'הקלט הראשי שקט', lv_r_backup_silent: 'קלט הגיבוי שקט', lv_r_primary_returned: 'הקלט הראשי חזר', lv_r_no_feed: 'אין אות',
  lv_reason: 'סיבה: {r}',
  // alert bell
  lv_alerts: 'התראות', lv_alerts_n: '{n} התראות פעילות', lv_no_firing: 'אין התראות פעילות.', lv_ack: 'אישור קבלה', lv_acked: 'אושרה {t}',
  st_critical: 'קריטית', st_warning: 'אזהרה', st_info: 'מידע',
  lv_since: 'מאז {t}', lv_close: 'סגירה',
  // ingest rule, confirmations
  lv_listens_srt: 'הערוץ הזה מקבל SRT בלבד: שידור ב-RTMP נדחה. כדי לקבל RTMP יש לשנות את פרוטוקול המקודד בהגדרות.',
  lv_listens_rtmp: 'הערוץ הזה מקבל RTMP בלבד: שידור ב-SRT נדחה. כדי לקבל SRT יש לשנות את פרוטוקול המקודד בהגדרות.',
  lv_rtmp_server: 'שרת', lv_refused_title: 'שידור שנדחה לאחרונה', lv_refused_at: '{t} מהכתובת {from}',
  lv_refused_wrong_protocol: 'שידור ב-{proto} נדחה: הערוץ הזה מקבל {listens} בלבד.',
  lv_refused_stopped: 'שידור ב-{proto} נדחה: הערוץ היה עצור.',
  lv_confirm_stop: 'לעצור את „{name}”? הערוץ משדר עכשיו: הצופים יאבדו את התמונה וההקלטה תיפסק.',
  lv_confirm_protocol: 'להחליף את פרוטוקול המקודד ל-{proto}? הקליטה של הערוץ תופעל מחדש והשידור ייפסק לכמה שניות; מקודדים שעדיין משדרים ב-{old} יידחו.',
  lv_confirm_restart: 'לשמור ולהפעיל מחדש את הערוץ הפעיל? השידור ייפסק לכמה שניות.',
  // alerts page
  nav_alerts: 'התראות', al_title: 'התראות וניטור', al_monitors: 'מוניטורים', al_new: 'מוניטור חדש', al_edit: 'עריכה', al_delete: 'מחיקה',
  al_confirm_delete: 'למחוק את המוניטור „{name}”? ההתראות שלו יישארו בהיסטוריה.', al_none: 'אין עדיין מוניטורים. ערוץ שמופעל מקבל מוניטור שעוקב אחרי האות שלו בזמן תוכניות מתוכננות.',
  al_name: 'שם', al_target: 'עוקב אחרי', al_target_channel: 'ערוץ', al_target_tenant: 'החשבון כולו', al_channel: 'ערוץ', al_checks: 'בדיקות',
  al_add_check: 'הוספת בדיקה', al_remove_check: 'הסרה', al_threshold: 'סף', al_for: 'נמשך (שניות)', al_window: 'חלון (שניות)', al_severity: 'חומרה',
  al_during_programme: 'רק בזמן תוכניות מתוכננות', al_destinations: 'שליחה אל', al_no_destinations: 'אין עדיין יעדים: ההתראות מופיעות רק בפעמון ונשלחות למערכות המחוברות.',
  al_inapp: 'הצגה בפעמון', al_notify_resolve: 'הודעה כשההתראה נסגרת', al_repeat: 'חזרה כל עוד ההתראה פעילה (דקות, 0 = אף פעם)',
  al_quiet: 'שעות שקטות', al_quiet_on: 'עיכוב דואר וטלגרם בשעות השקטות', al_quiet_from: 'מ-', al_quiet_to: 'עד', al_quiet_tz: 'אזור זמן', al_quiet_critical: 'התראות קריטיות עוברות בכל זאת',
  al_save: 'שמירת המוניטור', al_saved: 'המוניטור נשמר.', al_cancel: 'ביטול', al_state_normal: 'תקין', al_state_pending: 'ממתינה', al_state_firing: 'פעילה',
  al_snooze: 'השתקה', al_snooze_for: 'השתקה למשך', al_unsnooze: 'ביטול ההשתקה', al_snoozed_until: 'מושתק עד {t}', al_minutes: '{n} דקות', al_hours: '{n, plural, one {שעה אחת} two {שעתיים} other {# שעות}}',
  al_dest_title: 'יעדי התראות', al_dest_email: 'כתובת דואר אלקטרוני', al_dest_add: 'הוספה', al_dest_telegram: 'קישור צ׳אט בטלגרם',
  al_dest_telegram_code: 'יש לשלוח לבוט ‎/start {code}‏ מהצ׳אט, או לפתוח את הקישור:', al_dest_active: 'פעיל', al_dest_pending: 'ממתין לאישור',
  al_dest_remove: 'הסרה', al_confirm_dest_remove: 'להסיר את היעד {target}?', al_history: 'התראות אחרונות', al_no_alerts: 'אין עדיין התראות.',
  al_resolved: 'נסגרה {t}', al_firing_since: 'פעילה מאז {t}', al_admins_only: 'רק מנהלים מגדירים מוניטורים ויעדים.',
  ck_feed_down: 'אין אות', ck_backup_feed_down: 'אין אות גיבוי', ck_failover: 'מעבר לגיבוי', ck_recorder_gap: 'פער בהקלטה', ck_input_bitrate_low: 'קצב סיביות נמוך בכניסה', ck_input_errors: 'שגיאות בכניסה', ck_disk_free_low: 'מעט מקום פנוי בדיסק', ck_startup_p95: 'זמן פתיחה (אחוזון 95)', ck_error_rate: 'שיעור שגיאות', ck_rebuffer_ratio: 'יחס עצירות לטעינה', ck_concurrent_drop: 'ירידה בצופים בו-זמניים', ck_lip_sync: 'היסט סנכרון שפתיים',
  al_muted_snooze: 'מושתקת (השתקה)', al_muted_quiet: 'מושתקת (שעות שקטות)',
  al_sum_feed_down: 'אין אות בשידור בערוץ „{channel}”.', al_sum_feed_down_prog: 'אין אות בשידור בערוץ „{channel}” בזמן „{programme}”.',
};
