/** Hebrew text of the player configuration, library section and team operations, keyed by operationId. */
export const HE_LIBRARY: Record<string, { summary: string; description: string }> = {
  listPlayerConfigurations: {
    summary: 'רשימת תצורות נגן',
    description: 'מהחדשה לישנה; כל התצורות.',
  },
  createPlayerConfiguration: {
    summary: 'יצירת תצורת נגן',
    description: 'מסמך JSON בעל שם: ערכת עיצוב (skin), אסימוני ערכת נושא, שפה, מיתוג ולוגו, פקדים, ברירות מחדל לניגון, שכבת לוח שידורים בשידור חי, פרסומות, beacon ‏{enabled, heartbeat_s בין 5 ל-120, ברירת מחדל 15}, הגדרות אריחים, embed.allowed_domains, ‏version_pin. מסמך לא תקין נענה ב-422 עם errors[]; שדה לא מוכר נענה ב-400.',
  },
  listPlayerSkins: {
    summary: 'רשימת ערכות עיצוב לנגן',
    description: 'שבע ערכות העיצוב בעלות השם, ואחריהן 100 ערכות הספרייה.',
  },
  getPlayerConfiguration: {
    summary: 'תצורת נגן',
    description: 'תצורה אחת.',
  },
  changePlayerConfiguration: {
    summary: 'עדכון תצורת נגן',
    description: 'שדות עליונים שנשלחו מחליפים את השמורים; השאר נשארים כפי שהם.',
  },
  deletePlayerConfiguration: {
    summary: 'מחיקת תצורת נגן',
    description: 'השיוכים שלה נמחקים איתה; התוכן עובר לתצורה הכללית יותר הבאה.',
  },
  listPlayerConfigurationAssignments: {
    summary: 'רשימת שיוכי תצורות נגן',
    description: 'היכן חלה כל תצורה.',
  },
  assignPlayerConfiguration: {
    summary: 'שיוך תצורת נגן',
    description: 'יעדים: `tenant` (ברירת מחדל), `live_default`, `library_default`, `section` (מזהה), `channel` (מזהה או slug), `asset` (מזהה). מחליף את מה שחל על היעד הזה. סדר ההכרעה: ערוץ, אחר כך ברירת המחדל לשידור חי, אחר כך הדייר; נכס, אחר כך המדור, אחר כך ברירת המחדל של הספרייה, אחר כך הדייר.',
  },
  removeAssignment: {
    summary: 'הסרת שיוך תצורת נגן',
    description: 'היעד עובר לתצורה הכללית יותר הבאה.',
  },
  listLibrarySections: {
    summary: 'רשימת מדורי ספרייה',
    description: 'כל המדורים, מהחדש לישן, עם מספר הנכסים בכל אחד.',
  },
  createLibrarySection: {
    summary: 'יצירת מדור ספרייה',
    description: 'שמות המדורים ייחודיים אצל כל דייר (409).',
  },
  getLibrarySection: {
    summary: 'מדור ספרייה',
    description: 'מדור אחד.',
  },
  renameLibrarySection: {
    summary: 'שינוי שם מדור',
    description: 'שמות המדורים ייחודיים אצל כל דייר (409).',
  },
  deleteLibrarySection: {
    summary: 'מחיקת מדור ספרייה',
    description: 'הנכסים שלו ממשיכים להתקיים עם `section_id` ריק (null); שיוך הנגן שלו נמחק.',
  },
  setAssetSection: {
    summary: 'קביעת מדור לנכס',
    description: '`section_id` ריק (null) מוציא את הנכס מהמדור שלו. מדור לא מוכר נענה ב-422.',
  },
  getAssetSection: {
    summary: 'מדור של נכס',
    description: 'ה-`section_id` של הנכס (null כשאין).',
  },
  listTeamMembers: {
    summary: 'רשימת חברי הצוות',
    description: 'כל מי שיש לו תפקיד אצל הדייר (כולם, לפי מועד ההצטרפות).',
  },
  changeMemberRole: {
    summary: 'שינוי תפקיד של חבר צוות',
    description: 'נכנס לתוקף מהבקשה הבאה של חבר הצוות. הקורא יכול לתת (או לקחת) רק תפקיד שכל ההרשאות שלו נמצאות בידיו (אחרת 403); אי אפשר להוריד בדרגה את הבעלים האחרון (409).',
  },
  removeMember: {
    summary: 'הסרת חבר צוות',
    description: 'האדם מאבד את הגישה לדייר מהבקשה הבאה שלו. אי אפשר להסיר את הבעלים האחרון (409).',
  },
  invitePersonByEMail: {
    summary: 'הזמנת אדם בדואר אלקטרוני',
    description: 'שולחת קישור חד-פעמי שתקף 7 ימים. כשלא מוגדר SMTP, הקישור מוחזר בשדה `accept_url` במקום זאת. הקורא יכול להזמין רק לתפקיד שכל ההרשאות שלו נמצאות בידיו. קבלת הזמנה לכתובת שכבר יש לה חשבון דורשת את הסיסמה של אותו חשבון, והניסיונות נספרים באותה מגבלה של הכניסה לסטודיו (5 ב-15 דקות לחשבון, ואז 429 עם `Retry-After`, גם לסיסמה הנכונה).',
  },
  listPendingInvitations: {
    summary: 'רשימת הזמנות ממתינות',
    description: 'הזמנות שעדיין לא התקבלו, לא בוטלו ולא פגו, מהחדשה לישנה.',
  },
  sendMemberPasswordReset: {
    summary: 'שליחת איפוס סיסמה לחבר צוות',
    description: 'קישור איפוס לשעה אחת: נשלח בדואר לחבר הצוות כשמוגדר SMTP (`mailed: true`), אחרת מוחזר ב-`reset_url` כדי שהמנהל יעביר אותו. רק לתפקיד שהקורא יכול להעניק (אחרת 403), ולא לאנשים ששייכים גם לארגונים אחרים (409).',
  },
  withdrawInvitation: {
    summary: 'ביטול הזמנה',
    description: 'מעכשיו הקישור שלה נענה ב-410.',
  },
  readAuditLog: {
    summary: 'קריאת יומן הביקורת',
    description: 'מהחדש לישן; `limit` עד 200 (ברירת מחדל 50). פעולות: `key.created`, `key.revoked`, `member.added`, `member.removed`, `member.role_changed`, `invitation.created`, `invitation.revoked`, `settings.changed`, `connect.approved`, `connect.disconnected`, `signin.failed`, `signin.throttled`, `password.reset`, `password.reset_sent`, `asset.published`, `asset.unpublished`, `asset.trashed`, `asset.restored`, `asset.purged`, `asset.trash_emptied`, `asset.poster_changed`, `programme.to_library`, `guide.published`, `guide.rolled_back`, `guide.changed`, `channel.started`, `channel.stopped`, ופעולות נוספות בהמשך (רשימה פתוחה). שינוי תפקיד מציין את כתובת הדואר והשם של חבר הצוות ואת התפקיד הקודם והחדש (`details.from`, `details.to`). כל רשומה מציינת את מבצע הפעולה (משתמש, מפתח API, או אנונימי עם כתובת הדואר האלקטרוני שנוסתה), את כתובת ה-IP של הלקוח ואת הזמן.',
  },
};
