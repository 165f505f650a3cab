/** Hebrew strings of the AI articles inbox and review page (same keys as en-articles.ts). */
import type { EN_ARTICLES } from './en-articles';

export const HE_ARTICLES: Record<keyof typeof EN_ARTICLES, string> = {
  nav_articles: 'כתבות', ar_inbox: 'כתבות AI', ar_filter_status: 'מצב', ar_all: 'הכול', ar_st_draft: 'טיוטה', ar_st_published: 'פורסמה', ar_st_rejected: 'נדחתה',
  ar_headline: 'כותרת', ar_programme: 'תוכנית', ar_engine: 'מנוע', ar_created: 'נכתבה', ar_open: 'סקירה',
  ar_none: 'אין כאן כתבות עדיין. אפשר לבקש טיוטה לתוכנית שהסתיימה ויש לה כתוביות (POST /v1/programmes/{id}/article).',
  ar_more: 'כתבות ישנות יותר', ar_eng_extractive: 'חילוץ (בלי מודל)', ar_eng_llm: 'מודל שפה',
  ar_review: 'סקירה · {title}', ar_back: 'חזרה לכתבות', ar_video: 'וידאו התוכנית', ar_transcript: 'תמליל', ar_draft: 'טיוטה',
  ar_standfirst: 'כותרת משנה', ar_summary: 'תקציר', ar_chapters: 'פרקים', ar_chapter_n: 'פרק {n}', ar_ch_title: 'כותרת', ar_ch_description: 'תיאור',
  ar_quotes: 'ציטוטים', ar_quote_role: 'דובר', ar_role_presenter: 'מגיש', ar_role_guest: 'אורח', ar_role_report: 'דיווח', ar_remove_quote: 'הסרת הציטוט',
  ar_play_at: 'ניגון מ-{t}', ar_entities: 'שמות מהתמליל', ar_tags: 'תגיות', ar_save: 'שמירת השינויים', ar_saved: 'נשמר כתיקונים.', ar_nothing: 'לא השתנה דבר.',
  ar_corrections: 'תיקונים', ar_no_corrections: 'אין תיקונים עדיין.', ar_corr_line: '{field} · על ידי {who} · {at}',
  ar_approve: 'אישור ופרסום', ar_confirm_approve: 'לפרסם את הכתבה? האתר יציג אותה ויישלח ה-webhook‏ artifact.published.',
  ar_reject: 'דחייה', ar_reject_reason: 'מדוע הטיוטה נדחית?', ar_reject_send: 'דחיית הטיוטה', ar_reason_needed: 'יש לכתוב סיבה.',
  ar_read_only: 'הכתבה במצב {status}: אי אפשר לשנות אותה עוד.', ar_rejected_why: 'נדחתה: {reason}',
  ar_warnings: 'תיקונים שנעשו בתשובת המודל', ar_verbatim: 'הציטוטים הם המילים של התמליל עצמו; אפשר לשנות רק את הדובר.',
  ar_no_transcript: 'התמליל שממנו נכתבה הטיוטה כבר לא קיים.', ar_cue: 'כתובית {n}',
  ar_cannot_publish: 'פרסום דורש את תפקיד המפרסם.',
  ar_request: 'טיוטת כתבה לתוכנית', ar_no_ended: 'אף תוכנית של הערוץ הזה לא הסתיימה ביומיים האחרונים.',
  ar_draft_it: 'כתיבת טיוטה', ar_drafting: 'הטיוטה נכתבת…',
};
