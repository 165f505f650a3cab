/** Hebrew strings of the library imports pages (same keys as en-imports.ts). */
import type { EN_IMPORTS } from './en-imports';

export const HE_IMPORTS: Record<keyof typeof EN_IMPORTS, string> = {
  nav_imports: 'ייבוא',
  im_title: 'ייבוא לספרייה', im_intro: 'הכנסת הסרטונים של אתר לספרייה: קריאת מפת הווידאו שלו (או אינדקס מפות אתר, או פיד media RSS), סקירה של מה שנמצא, בחירה והפעלה.',
  im_new: 'ייבוא חדש', im_url: 'כתובת מפת האתר (URL)', im_read: 'קריאת מפת האתר', im_none: 'עדיין אין ייבואים.',
  im_col_source: 'מפת אתר', im_col_status: 'מצב', im_col_found: 'נמצאו', im_col_created: 'נוצר',
  im_st_fetching: 'בקריאה', im_st_review: 'בסקירה', im_st_running: 'מייבא', im_st_done: 'הסתיים', im_st_failed: 'נכשל',
  im_found: '{items} סרטונים · {new} חדשים · {skipped} כבר בספרייה',
  im_reading: 'קורא מסמכים: {read} מתוך {total} · {videos} סרטונים נמצאו עד כה',
  im_failed: 'לא ניתן היה לקרוא את מפת האתר:', im_back: 'כל הייבואים',
  im_fmt_sitemap: 'מפת וידאו', im_fmt_sitemap_index: 'אינדקס מפות אתר', im_fmt_media_rss: 'פיד media RSS',
  im_documents: 'מסמכים שנקראו', im_doc_videos: '{n} סרטונים', im_truncated: 'מעבר למגבלה: שאר הסרטונים לא נכללו.',
  im_items: 'סרטונים', im_col_title: 'כותרת', im_col_page: 'דף', im_col_video: 'וידאו', im_col_duration: 'משך', im_col_state: 'בספרייה', im_col_result: 'תוצאה',
  im_item_new: 'חדש', im_item_skipped: 'מדולג', im_untitled: '(ללא כותרת)', im_player_only: 'דף נגן',
  im_select: 'לייבא את הסרטון הזה', im_select_all: 'לבחור את כל הסרטונים החדשים', im_select_none: 'לבטל את כל הבחירות',
  im_start: 'הפעלת הייבוא ({n})', im_start_hint: 'כל סרטון שנבחר נרשם כנכס מכתובת הווידאו שלו ומקודד כמו כל העלאה.',
  im_progress: '{done} מתוך {n} סרטונים טופלו · {registered} נרשמו · {failed} נכשלו',
  im_res_pending: 'ממתין', im_res_registered: 'נרשם', im_res_failed: 'נכשל', im_res_skipped: 'דולג בינתיים', im_open_asset: 'פתיחת הנכס',
  im_more: 'להציג עוד', im_counts: '{selected} מתוך {new} סרטונים חדשים נבחרו',
};
