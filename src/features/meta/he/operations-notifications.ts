/** Hebrew text of the notification rules and inbox operations (issue 48), keyed by operationId. */
export const HE_NOTIFICATIONS: Record<string, { summary: string; description: string }> = {
  listNotificationRules: { summary: 'רשימת כללי התראות', description: 'כללי ההתראות של האדם המחובר: אילו אירועים (סוגים, ערוצים, חומרה מינימלית) מגיעים לתיבת ההתראות שלו בסטודיו ו/או לדואר האלקטרוני. `all=true` מציג את הכללים של כולם (הרשאה notifications:manage).' },
  createNotificationRule: { summary: 'יצירת כלל התראות', description: 'כלל של אדם: `event_types` (סוגים כמו `alert.firing`, משפחות כמו `asset.*`, או `*`), `channels` (ריק: כל ערוץ), `min_severity` (להתראות ניטור יש חומרה משלהן; כשלים ואירועי אבטחה נחשבים אזהרה; כל השאר מידע) ו-`deliver` (`inbox`, `email`). כל אירוע מתאים הופך לפריט אחד בתיבה לכל אדם (גם כשכמה מכלליו מתאימים) ולהודעת דואר אחת לכתובתו. כללים של חבר צוות אחר (`person_id`) דורשים הרשאה notifications:manage.' },
  changeNotificationRule: { summary: 'שינוי כלל התראות', description: 'כל תת-קבוצה של השדות; כללים של עצמך, או כל כלל עם הרשאה notifications:manage.' },
  deleteNotificationRule: { summary: 'מחיקת כלל התראות', description: 'פריטים שכבר הגיעו לתיבה נשארים בה.' },
  listInbox: { summary: 'רשימת תיבת ההתראות', description: 'תיבת ההתראות של האדם המחובר בסטודיו (הפעמון): אירועים שכללי ההתראות שלו ניתבו לכאן, מהחדש לישן, עם מספר הפריטים שלא נקראו.' },
  countUnreadInboxItems: { summary: 'ספירת התראות שלא נקראו', description: 'המספר שעל הפעמון בסטודיו.' },
  markInboxItemRead: { summary: 'סימון התראה כנקראה', description: 'מסמן פריט אחד כנקרא (זמן הקריאה הראשון נשמר) ומחזיר את מספר הפריטים שלא נקראו.' },
  markEveryInboxItemRead: { summary: 'סימון כל ההתראות כנקראו', description: 'מסמן את כל הפריטים שלא נקראו כנקראים ומחזיר כמה סומנו.' },
};
