/** Hebrew strings of the studio's cue editor (same keys as en-subtitles.ts). */
import type { EN_SUBTITLES } from './en-subtitles';

export const HE_SUBTITLES: Record<keyof typeof EN_SUBTITLES, string> = {
  se_open: 'כתוביות', se_title: 'כתוביות · {title}', se_back_asset: 'חזרה לסרטון',
  // tracks
  se_track: 'רצועה', se_beside: 'זו לצד זו', se_beside_none: 'בלי רצועה שנייה', se_published: 'מפורסמת (הצופים יכולים להפעיל אותה)',
  se_download: 'הורדת {f}', se_no_tracks: 'לסרטון הזה אין עדיין כתוביות. אפשר לזהות את הדיבור בו או להעלות קובץ WebVTT או SRT.',
  se_new_track: 'רצועה חדשה', se_language: 'שפה', se_recognise: 'זיהוי דיבור', se_upload: 'העלאת WebVTT / SRT',
  se_file_too_big: 'הקובץ גדול מ-10 MB.', se_recognising: 'מזהים את הדיבור… הכתוביות יופיעו כאן בסיום.',
  se_track_failed: 'לא ניתן היה ליצור את הרצועה:', se_no_cues: 'אין עדיין כתוביות להצגה.',
  se_translate: 'תרגום', se_translate_into: 'תרגום לשפה', se_translating: 'מתרגמים… הכתוביות יופיעו כאן בסיום.',
  se_src_upload: 'הועלתה', se_src_asr: 'זוהתה', se_src_translation: 'תרגום', se_src_edited: 'נערכה',
  // waveform
  se_waveform: 'צורת הגל של השמע עם הכתוביות', se_wave_loading: 'משרטטים את צורת הגל…', se_wave_failed: 'לא ניתן היה לשרטט את צורת הגל.',
  se_wave_silent: 'לסרטון הזה אין שמע.', se_wave_span: 'מוצגות {n} שניות', se_zoom_in: 'התקרבות', se_zoom_out: 'התרחקות',
  // cue list
  se_cues: 'כתוביות', se_n_cues: '{n, plural, one {כתובית אחת} two {שתי כתוביות} other {# כתוביות}}',
  se_n_over: '{n, plural, one {אחת חורגת ממגבלה} two {שתיים חורגות ממגבלה} other {# חורגות ממגבלה}}',
  se_play_from: 'ניגון מ-{t}', se_cps: '{n} תווים לשנייה', se_cps_title: 'מהירות קריאה: תווים בשנייה', se_cue_text: 'הטקסט של כתובית {n}',
  se_flag_reading_speed: 'מהירה מדי לקריאה', se_flag_duration_min: 'קצרה משנייה', se_flag_duration_max: 'ארוכה מ-7 שניות', se_flag_gap: 'קרובה מדי לכתובית הקודמת',
  se_flag_line_length: 'שורה ארוכה מ-42 תווים', se_flag_lines: 'יותר משתי שורות',
  // selected cue
  se_selected: 'כתובית {n}', se_pick_cue: 'בחרו כתובית ברשימה או על צורת הגל.', se_set_start: 'התחלה כאן', se_set_end: 'סיום כאן',
  se_split: 'פיצול בנקודת הניגון', se_merge: 'מיזוג עם הבאה', se_insert: 'כתובית חדשה כאן', se_delete: 'מחיקת הכתובית',
  se_insert_text: 'הטקסט של הכתובית החדשה', se_insert_add: 'הוספה', se_confirm_delete: 'למחוק את הכתובית ב-{t}? ביטול השינוי יחזיר אותה.',
  se_changed_elsewhere: 'מישהו אחר שינה את הרצועה הרגע: היא נקראה מחדש. בצעו את השינוי שוב.',
  // shortcuts
  se_shortcuts: 'קיצורי מקלדת', se_k_toggle: 'ניגון / השהיה', se_k_back: 'אחורה 2 שניות', se_k_forward: 'קדימה 2 שניות',
  se_k_set_start: 'הכתובית הנבחרת מתחילה בנקודת הניגון', se_k_set_end: 'הכתובית הנבחרת מסתיימת בנקודת הניגון', se_k_next: 'הכתובית הבאה',
  se_k_prev: 'הכתובית הקודמת', se_k_split: 'פיצול הכתובית הנבחרת בנקודת הניגון (או במקום הסמן בטקסט)', se_k_merge: 'מיזוג עם הכתובית הבאה',
  se_k_insert: 'כתובית חדשה בנקודת הניגון', se_k_delete: 'מחיקת הכתובית הנבחרת', se_k_undo: 'ביטול השינוי האחרון', se_k_edit: 'עריכת הטקסט של הכתובית הנבחרת',
  se_k_leave: 'יציאה מהטקסט (Esc מבטל את ההקלדה, Ctrl+Enter שומר)',
  // tools
  se_shift: 'הזזת זמנים', se_shift_ms: 'מילישניות (− מוקדם יותר)', se_shift_scope: 'אילו כתוביות', se_shift_all: 'כל הכתוביות',
  se_shift_following: 'הנבחרת וכל שאחריה', se_shift_apply: 'הזזה', se_shift_err: 'הקלידו מספר שלם של מילישניות, למשל 500 או ‎−250.',
  se_find: 'חיפוש והחלפה', se_find_text: 'חיפוש', se_replace_text: 'החלפה ב-', se_whole_word: 'מילים שלמות', se_match_case: 'התאמת רישיות',
  se_found: '{n, plural, =0 {לא נמצא} one {בכתובית אחת} two {בשתי כתוביות} other {ב-# כתוביות}}', se_find_prev: 'הקודם', se_find_next: 'הבא', se_replace_all: 'החלפת הכול',
  se_apply_glossary: 'החלת המילון', se_replaced: '{n, plural, one {החלפה אחת} two {שתי החלפות} other {# החלפות}} ב{cues, plural, one {כתובית אחת} two {שתי כתוביות} other {-# כתוביות}}',
  se_replaced_none: 'אין מה להחליף.', se_glossary_hints: 'הצעות מהמילון (בטקסט יש כתיב שהמילון מתקן):',
  se_in_cues: '{n, plural, one {בכתובית אחת} two {בשתי כתוביות} other {ב-# כתוביות}}',
  se_revisions: 'שינויים', se_no_revisions: 'אין עדיין שינויים.', se_undo: 'ביטול', se_undone: 'בוטל', se_system: 'המערכת', se_author_key: 'מפתח API',
  se_op_insert: 'כתובית חדשה', se_op_edit: 'עריכה', se_op_delete: 'מחיקה', se_op_split: 'פיצול', se_op_merge: 'מיזוג', se_op_shift: 'הזזה',
  se_op_replace: 'החלפה', se_op_glossary: 'מילון', se_op_undo: 'ביטול',
};
