/** Hebrew summaries and descriptions of the support request operations (issue 19), keyed by operationId. */
export const HE_SUPPORT: Readonly<Record<string, { summary: string; description: string }>> = {
  openSupportRequest: {
    summary: 'פתיחת פנייה לתמיכה',
    description: '`subject`, ‏`body` (ההודעה הראשונה) ו-`category`. לכל היותר 10 פניות חדשות לדייר בשעה; הפנייה ה-11 נענית ב-429 עם `Retry-After`.',
  },
  listSupportRequests: {
    summary: 'רשימת פניות לתמיכה',
    description: 'מהחדשה לישנה; `status` משאיר רק פניות `open` (פתוחות) או `closed` (סגורות).',
  },
  getSupportRequest: {
    summary: 'קבלת פנייה לתמיכה',
    description: 'הפנייה עם השרשור שלה (`messages`, מהישנה לחדשה).',
  },
  replyToSupportRequest: {
    summary: 'תגובה לפנייה',
    description: 'מוסיפה הודעה לשרשור; פנייה סגורה נענית ב-409.',
  },
  closeSupportRequest: {
    summary: 'סגירת פנייה',
    description: 'מסמנת את הפנייה כסגורה; סגירה נוספת אינה משנה דבר.',
  },
};
