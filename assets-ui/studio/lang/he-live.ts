/** Hebrew strings of the studio's live pages (typed against EN_LIVE: a missing key fails the type check). */
import type { EN_LIVE } from './en-live';

export const HE_LIVE: Record<keyof typeof EN_LIVE, string> = {
  // channel settings
  lv_edit: 'עריכת הגדרות', lv_settings: 'הגדרות הערוץ', lv_save: 'שמירת השינויים', lv_saving: 'שומר…', lv_saved: 'ההגדרות נשמרו.', lv_cancel: 'ביטול',
  lv_protocol: 'פרוטוקול המקודד', lv_latency: 'השהיית SRT (אלפיות שנייה)', lv_failover: 'מעבר לגיבוי אחרי (שניות של שקט בקלט הראשי)',
  lv_segment: 'אורך מקטע (שניות)', lv_dvr: 'חלון שידור חי (שניות שצופה יכול להחזיר אחורה)', lv_rec_enabled: 'הקלטה רציפה',
  lv_retention: 'שמירת הקלטות (שעות)', lv_timezone: 'אזור הזמן של לוח השידורים', lv_timezone_hint: 'שם IANA כמו Asia/Jerusalem או UTC.',
  lv_restart_note: 'שינוי ההשהיה, אורך המקטע, האריזה או ההקלטה מפעיל מחדש ערוץ פעיל (הצופים רואים הפסקה קצרה).',
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
};
