/** Hebrew strings of the studio's clips pages (typed against EN_CLIPS: a missing key fails the type check). */
import type { EN_CLIPS } from './en-clips';

export const HE_CLIPS: Record<keyof typeof EN_CLIPS, string> = {
  c_programmes: 'תוכניות מוקלטות', c_no_programmes: 'אין תוכניות ב-24 השעות האחרונות. אפשר להוסיף אותן בלוח השידורים; עדיין אפשר לחתוך קליפים למטה.',
  c_when: 'מתי', c_coverage: 'הוקלט', c_cut_here: 'חיתוך על ציר הזמן', c_publish_vod: 'פרסום לספרייה',
  c_publish_progress: 'התקדמות הפרסום', c_vod_remux: 'מעתיקים את ההקלטה…', c_vod_library: 'מעבדים בספרייה…', c_vod_ready: 'בספרייה', c_vod_failed: 'הפרסום נכשל',
  c_open_asset: 'פתיחת הנכס', c_snap: 'הצמדה אל', c_snap_frames: 'פריימים', c_snap_programmes: 'גבולות תוכניות',
  c_zoom_sel: 'התמקדות בבחירה', c_zoom_out: 'הרחקה', c_recent: '2 הדקות האחרונות', c_preview: 'תצוגה מקדימה',
  c_no_recording: 'לא הוקלט דבר בחלק הזה של ציר הזמן.', c_frames_note: '{n} פריימים מההקלטה · {fps} פריימים לשנייה · גוררים את הידיות, או משתמשים בחצים (Shift: מקטע שלם)',
  c_segments_note: '{n} פריימים מההקלטה · {s} מקטעים · הידיות נצמדות לגבולות המקטעים (חצים: מקטע אחד)',
  c_frame_hint: 'חיתוך מדויק בידיות; מוכן אחרי משימה קצרה.', c_segment_hint: 'מוכן מיד; מתחיל ונגמר בגבולות המקטעים הקרובים.',
  st_recorded: 'הוקלט', st_partial: 'הוקלט בחלקו', st_not_recorded: 'לא הוקלט', st_publishing: 'בפרסום',
  h_title: 'קריאות נכנסות', h_intro: 'מערכת התוכן שלכם קוראת לכתובת הזו, חתומה בסוד, כדי לפרסם את הנכסים שהיא מציינת.', h_path: 'הנתיב להפניות לנכסים ב-JSON שלה', h_match: 'ההפניות הן',
  h_match_external: 'מזהים חיצוניים', h_match_id: 'מזהי נכסים', h_create: 'יצירת כתובת לקריאות', h_none: 'עדיין אין קריאות נכנסות.', h_address: 'כתובת', h_secret: 'סוד חתימה',
  h_secret_once: 'העתיקו את הסוד עכשיו: הוא מוצג רק הפעם.', h_confirm_delete: 'למחוק את הכתובת לקריאות נכנסות? קריאות אליה יידחו.', h_kind: 'סוג', h_hint: 'סוד',
  i_title: 'תיבת אירועים', i_all: 'כל הסוגים', i_type: 'סוג', i_none: 'אין עדיין אירועים. הם יופיעו כאן כשיקרו.', i_new: 'חדש', i_unread: '{n} שלא נקראו',
  i_mark_read: 'סימון הכול כנקרא', i_more: 'אירועים קודמים', i_live: 'חי', i_details: 'פרטים', i_when: 'מתי',
};
