/** Hebrew strings of the guide-to-partners pages (typed against EN_GUIDE_PARTNERS: a missing key fails the type check). */
import type { EN_GUIDE_PARTNERS } from './en-guide-sources';

export const HE_GUIDE_PARTNERS: Record<keyof typeof EN_GUIDE_PARTNERS, string> = {
  gp_nav: 'חלקי לוח השידורים', gp_nav_guide: 'שבוע', gp_nav_sources: 'מקורות EPG', gp_nav_templates: 'תבניות', gp_nav_destinations: 'יעדים',
  gp_sources_title: 'מקורות EPG', gp_sources_intro: 'כל ערוץ יכול לקרוא את לוח השידורים שלו מכתובת XMLTV לפי לוח זמנים. מסמך שהשתנה ממתין כטיוטה לבדיקה, אלא אם הוא מתפרסם מיד.',
  gp_add_source: 'הוספת מקור', gp_source_url: 'כתובת ה-XMLTV', gp_interval: 'משיכה כל (דקות)', gp_auto_publish: 'פרסום השינויים מיד (בלי בדיקה)',
  gp_xml_channel: 'הערוץ במסמך (לא חובה)', gp_no_sources: 'עדיין אין מקורות EPG.', gp_fetch_now: 'משיכה עכשיו', gp_fetch_log: 'יומן משיכות', gp_hide_log: 'הסתרת היומן',
  gp_last_fetch: 'משיכה אחרונה', gp_mode: 'שינויים', gp_mode_review: 'טיוטה לבדיקה', gp_mode_auto: 'מתפרסמים מיד', gp_every: 'כל {n} דק׳',
  gp_items: 'תוכניות', gp_reason: 'סיבה', gp_never: 'עוד לא', gp_fetched: 'נמשך: {status}.',
  gp_st_not_modified: 'לא השתנה (304)', gp_st_unchanged: 'ללא שינוי', gp_st_staged: 'נשמר כטיוטה', gp_st_published: 'פורסם', gp_st_error: 'שגיאה',
  gp_st_delivered: 'נמסר', gp_st_retrying: 'ינסה שוב', gp_st_failed: 'נכשל',
  gp_trigger_schedule: 'מתוזמן', gp_trigger_manual: 'ידני', gp_no_log: 'עדיין לא נרשם דבר.',
  gp_templates_title: 'תבניות לוח שידורים', gp_templates_intro: 'שבוע של משבצות קבועות. כשמחילים אותה על ערוץ וטווח ימים היא הופכת לטיוטה של לוח השידורים: בודקים אותה בתצוגת השבוע ואז מפרסמים או מבטלים.',
  gp_template: 'תבנית', gp_new_template: 'תבנית חדשה', gp_template_name: 'שם התבנית', gp_save_template: 'שמירת התבנית', gp_saved: 'התבנית נשמרה.',
  gp_add_slot: 'הוספת משבצת', gp_weekday: 'יום בשבוע', gp_start: 'התחלה', gp_minutes: 'אורך (דקות)', gp_slot_title: 'כותרת', gp_remove_slot: 'הסרת „{title}”',
  gp_no_slots: 'אין משבצות ביום הזה.', gp_apply: 'החלה על ימים', gp_apply_from: 'היום הראשון', gp_apply_to: 'היום האחרון', gp_apply_mode: 'אופן',
  gp_mode_fill: 'מילוי החורים בלבד', gp_mode_replace: 'החלפת הימים האלה', gp_apply_btn: 'החלה ופתיחת הטיוטה', gp_applied: 'נשמרו {n} תוכניות כטיוטה; {skipped} משבצות דולגו כי כבר יש שם תוכנית בלוח.',
  gp_no_templates: 'עדיין אין תבניות: תנו לחדשה שם ומשבצות.', gp_delete_template: 'מחיקת התבנית',
  gp_dest_title: 'יעדי פרסום', gp_dest_intro: 'אחרי כל פרסום, לוח השידורים המפורסם נשלח לשותפים; לכל יעד יש גם כתובת פרטית שממנה השותף יכול לקרוא אותו.',
  gp_add_dest: 'הוספת יעד', gp_dest_name: 'שם', gp_kind: 'אופן המסירה', gp_kind_https: 'כתובת אינטרנט (בקשה חתומה)', gp_kind_sftp: 'שרת קבצים (SFTP)', gp_kind_s3: 'אחסון אובייקטים (S3)', gp_kind_pull: 'השותף קורא בעצמו (כתובת בלבד)',
  gp_format: 'מסמך', gp_channels: 'ערוצים', gp_days_behind: 'ימים לפני היום', gp_days_ahead: 'ימים אחרי היום', gp_timezone: 'אזור זמן', gp_retries: 'ניסיונות חוזרים', gp_retry_delay: 'ניסיון חוזר ראשון אחרי (שניות)',
  gp_url: 'כתובת המקבל', gp_method: 'שיטה', gp_host: 'שרת', gp_port: 'פורט', gp_username: 'שם משתמש', gp_path: 'נתיב הקובץ בשרת', gp_private_key: 'מפתח פרטי', gp_password: 'סיסמה', gp_host_key: 'טביעת מפתח השרת (לא חובה)',
  gp_endpoint: 'כתובת האחסון', gp_bucket: 'דלי (bucket)', gp_key: 'שם האובייקט', gp_access_key: 'מפתח גישה', gp_secret_key: 'מפתח סודי',
  gp_secret_once: 'סוד החתימה מוצג רק עכשיו. מסרו אותו לשותף כדי שיוכל לבדוק כל מסירה.', gp_signing_secret: 'סוד חתימה',
  gp_pull_url: 'הכתובת שממנה השותף קורא', gp_test: 'שליחת בדיקה', gp_test_ok: 'הבדיקה הגיעה ({bytes} בתים, {ms} מ״ש).', gp_test_failed: 'הבדיקה לא הגיעה: {why}',
  gp_deliveries: 'יומן מסירות', gp_no_dest: 'עדיין אין יעדים.', gp_attempt: 'ניסיון', gp_window: '{behind, plural, one {יום אחד} two {יומיים} other {# ימים}} אחורה, {ahead, plural, one {יום אחד} two {יומיים} other {# ימים}} קדימה ({tz})',
  gp_last_delivery: 'מסירה אחרונה', gp_choose_channel: 'בחרו לפחות ערוץ אחד.',
};
