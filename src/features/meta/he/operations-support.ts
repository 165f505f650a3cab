/** Hebrew summaries and descriptions of the support request operations and POST /mcp (issue 19), keyed by operationId. */
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
  callAssistantEndpoint: {
    summary: 'קריאה לנקודת הקצה של העוזר',
    description: 'פרוטוקול Model Context Protocol על Streamable HTTP ללא מצב (תשובות JSON, ללא מזהה הפעלה וללא זרם שהשרת יוזם; GET נענה ב-405). '
      + 'הודעת JSON-RPC 2.0 אחת, או אצווה של עד 20 הודעות בגרסת הפרוטוקול 2025-03-26; כל הודעה באצווה נספרת כבקשה אחת במגבלת הקצב של המפתח (מעבר לה 429 עם `Retry-After`). הכותרת `MCP-Protocol-Version` ‏(2025-11-25, ‏2025-06-18, ‏2025-03-26) נבדקת כשהיא נשלחת (אחרת 400); `Accept` לא יכול להוציא את application/json; '
      + 'הגוף עד 1MiB ‏(413) ובפורמט JSON ‏(415); `Origin` של דפדפן שאינו המערכת עצמה נענה ב-403; עוגיות הפעלה של הסטודיו נדחות (401 עם `WWW-Authenticate: Bearer`). '
      + '`tools/list` מציג רק את הכלים שההרשאות של המפתח מתירות (קריאה: channels:read, ‏assets:read, ‏stats:read; כתיבה: clips:write, ‏assets:write, ‏support:write; אין כלי מחיקה). תוצאות הכלים כוללות `structuredContent` ומוגבלות לכ-60KB ‏(`_truncated`); כלי שנכשל עונה `isError: true` עם פרטי הבעיה. כל קריאה לכלי נרשמת ביומן הביקורת כ-`mcp.tool_call`. '
      + 'משאבים: `viewstream://docs/{en|he}/{topic}`, ‏`viewstream://openapi`, ‏`viewstream://openapi/{operationId}`; משאב לא מוכר נענה בשגיאת JSON-RPC ‏-32002 (המשאב לא נמצא). הודעות (notifications) נענות ב-202 ללא גוף.',
  },
  closeSupportRequest: {
    summary: 'סגירת פנייה',
    description: 'מסמנת את הפנייה כסגורה; סגירה נוספת אינה משנה דבר.',
  },
};
