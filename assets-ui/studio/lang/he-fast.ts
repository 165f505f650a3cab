/** Hebrew strings of the FAST schedule editor (the same keys as en-fast.ts). */
export const HE_FAST = {
  fast_title: 'לוח FAST', fast_link: 'לוח FAST', fast_intro: 'הערוץ משדר סרטונים מהספרייה לפי השעון, בלי לקודד אותם מחדש: רשימת השמעה שחוזרת על עצמה, רצועות לשעות היום, והפסקות פרסומות במקומות שכל סרטון מסמן.',
  fast_none: 'לערוץ הזה עדיין אין לוח FAST: בחרו סרטונים ושמרו.', fast_playlist: 'רשימת השמעה', fast_add_video: 'הוספת סרטון', fast_pick: 'סרטון',
  fast_loops: 'מספר פעמים ברצף', fast_up: 'הזזה למעלה', fast_down: 'הזזה למטה', fast_remove: 'הסרת „{title}”', fast_empty_list: 'אין סרטונים ברשימה הזו.',
  fast_dayparts: 'שעות היום', fast_add_daypart: 'הוספת רצועת שעות', fast_daypart_name: 'שם הרצועה', fast_from: 'מ-', fast_until: 'עד',
  fast_remove_daypart: 'הסרת הרצועה', fast_breaks: 'הפסקות פרסומות', fast_slate: 'סרטון שמוצג בהפסקות', fast_no_slate: 'ללא (סימונים בלבד)',
  fast_break_len: 'אורך ההפסקה (שניות)', fast_break_default: 'כאורך הסרטון', fast_breaks_at: 'הפסקות ב-{cues}', fast_no_breaks: 'ללא הפסקות',
  fast_guide_hours: 'שעות של לוח שידורים קדימה', fast_enabled: 'פעיל: הערוץ משדר את הלוח הזה כשהוא מופעל', fast_save: 'שמירת הלוח', fast_saved: 'הלוח נשמר (גרסה {v}).',
  fast_delete: 'מחיקת הלוח', fast_status: 'הכנה', fast_st_ready: 'מוכן', fast_st_preparing: 'בהכנה', fast_st_failed: 'נכשל', fast_st_pending: 'בהכנה',
  fast_mode_copy: 'העתקת זרמים', fast_mode_conform: 'קודד מחדש לערוץ', fast_preview: 'השעה הקרובה', fast_break: 'הפסקת פרסומות', fast_default_list: 'רשימת ההשמעה הראשית',
  fast_sec: '{n} שנ׳', fast_renditions: 'גרסאות הערוץ', fast_pick_first: 'בחרו קודם סרטון.',
};
