/** Hebrew strings of the studio's asset pages (typed against EN_ASSET: a missing key fails the type check). */
import type { EN_ASSET } from './en-asset';

export const HE_ASSET: Record<keyof typeof EN_ASSET, string> = {
  // poster and sprite picker
  ap_poster_title: 'תמונת שער', ap_poster_intro: 'בחרו פריים מהרצועה או עצרו את הנגן במקום הרצוי, ואז הפכו אותו לתמונת השער.',
  ap_current_poster: 'תמונת השער הנוכחית', ap_frames: 'פריימים מהסרטון', ap_frame_at: 'פריים ב-{t}', ap_no_frames: 'אין פריימים ממוזערים לסרטון הזה.',
  ap_use_frame: 'שימוש בפריים שב-{t}', ap_use_player: 'שימוש בפריים הנוכחי של הנגן', ap_poster_saving: 'מצייר את הפריים…', ap_poster_saved: 'תמונת השער היא עכשיו הפריים שב-{t}.',
  ap_pick_first: 'יש לבחור פריים קודם.', ap_no_player: 'הנגן עדיין לא מוכן.',
  // metadata
  ap_meta_title: 'מטא-נתונים', ap_meta_intro: 'ערכי טקסט כשורות; כל השאר (מספרים, רשימות, אובייקטים) כ-JSON למטה.',
  ap_key: 'מפתח', ap_value: 'ערך', ap_add_row: 'הוספת שורה', ap_remove_row: 'הסרת שורה {n}', ap_no_rows: 'אין עדיין ערכי טקסט.',
  ap_json: 'ערכים אחרים (אובייקט JSON)', ap_save_meta: 'שמירת מטא-נתונים ונקודות פרסומת', ap_meta_saved: 'המטא-נתונים ונקודות הפרסומת נשמרו.',
  ap_err_key_empty: 'שורה {n}: המפתח ריק.', ap_err_key_dup: 'המפתח "{k}" מופיע פעמיים.', ap_err_key_ads: 'שורה {n}: את "ads" עורכים תחת נקודות פרסומת.',
  ap_err_json: 'ה-JSON אינו תקין: {m}', ap_err_json_obj: 'ה-JSON חייב להיות אובייקט: {"key": value, …}.', ap_err_json_ads: 'את נקודות הפרסומת עורכים תחת נקודות פרסומת, לא ב-JSON.',
  // ad cues
  ap_ads_title: 'נקודות פרסומת', ap_ads_disabled: 'בלי פרסומות בסרטון הזה', ap_cue_at: 'נקודת פרסומת ב-{t}', ap_cues_bar: 'נקודות הפרסומת על ציר הזמן',
  ap_add_cue_player: 'הוספת נקודה בזמן הנגן', ap_cue_seconds: 'זמן הנקודה (שניות)', ap_add_cue: 'הוספת נקודה', ap_sort_cues: 'מיון הנקודות',
  ap_remove_cue: 'הסרת הנקודה שב-{t}', ap_no_cues: 'אין נקודות פרסומת: פרסומות, אם יש, מוצגות רק לפני הסרטון.', ap_cues_max: 'לכל היותר {n} נקודות.',
  ap_n_cues: '{n} מתוך {max} נקודות', ap_err_cue: 'נקודה היא מספר שניות, 0 או יותר.', ap_err_cues_max: 'יש {n} נקודות; מותרות לכל היותר {max}.',
  ap_cue_past_end: 'הנקודה הזו אחרי סוף הסרטון.', ap_seek: 'ניגון מ-{t}',
  // sections
  sec_title: 'מדורים', sec_intro: 'חלוקת הספרייה למדורים (למדור יכולה להיות תצורת נגן משלו).', sec_none: 'ללא מדור',
  sec_of_asset: 'מדור', sec_saved: 'המדור נשמר.', sec_name: 'שם המדור', sec_create: 'יצירת מדור', sec_empty: 'אין עדיין מדורים. צרו את הראשון למעלה.',
  sec_assets: 'נכסים', sec_rename: 'שינוי שם', sec_rename_n: 'שינוי השם של {name}', sec_delete_n: 'מחיקת {name}', sec_confirm_delete: 'למחוק את המדור "{name}"? הנכסים שבו נשארים בספרייה בלי מדור.',
  sec_created: 'המדור "{name}" נוצר.', sec_renamed: 'שם המדור שונה ל-"{name}".', sec_deleted: 'המדור "{name}" נמחק.', sec_name_needed: 'יש לתת למדור שם.',
  sec_manage: 'ניהול מדורים',
  sec_open_n: 'הצגת {n} הנכסים של {name}', sec_open_hint: 'בחירה במספר מציגה את הנכסים של המדור; אפשר גם לסנן את הספרייה לפי מדור.',
  lib_section_filter: 'מדור', lib_all_sections: 'כל המדורים', lib_section_unknown: 'מדור לא ידוע',
  lib_section_empty: 'אין נכסים במדור {name}.', lib_no_unsectioned: 'כל הנכסים משויכים למדור.',
  // library bulk actions
  lib_select_row: 'בחירת {title}', lib_select_all: 'בחירת כל המוצגים', lib_bulk_actions: 'פעולות על הנכסים שנבחרו',
  lib_n_selected: '{n, plural, one {נבחר נכס אחד} two {נבחרו שני נכסים} other {נבחרו # נכסים}}', lib_bulk_move_to: 'מדור יעד', lib_bulk_move: 'העברה למדור',
  lib_bulk_clear: 'ניקוי הבחירה', lib_bulk_confirm_trash: '{n, plural, one {להעביר נכס אחד לאשפה?} two {להעביר שני נכסים לאשפה?} other {להעביר # נכסים לאשפה?}} אפשר לשחזר אותם עד לריקון האשפה.',
  lib_bulk_done: '{n, plural, one {נכס אחד עודכן.} two {שני נכסים עודכנו.} other {# נכסים עודכנו.}}', lib_bulk_failed: '{n, plural, one {נכס אחד לא שונה} two {שני נכסים לא שונו} other {# נכסים לא שונו}}',
  // description and tags (metadata.description, metadata.tags)
  ap_description: 'תיאור', ap_description_hint: 'מוצג בדף הצפייה ולמנועי חיפוש.', ap_tags: 'תגיות',
  ap_tags_placeholder: 'חדשות, מזג אוויר, תל אביב',
  // per-video statistics, MP4 download, statistics export from the dashboard
  as_title: 'נתוני הצפייה בסרטון', as_export_csv: 'הורדת סשני הצפייה בו (CSV)', ap_download_mp4: 'הורדת MP4',
  dash_export: 'ייצוא', dash_export_report: 'דוח', dash_export_csv: 'הורדת CSV',
  rep_sessions: 'סשני צפייה', rep_player_events: 'אירועי נגן', rep_edge_requests: 'בקשות הפצה', rep_site_events: 'אירועי אתר', rep_programmes: 'תוכניות',
  // dashboard: studio playback is not audience
  dash_studio_now: 'צפיות מקדימות בסטודיו כעת: {n} (אינן נספרות כקהל)',
};
