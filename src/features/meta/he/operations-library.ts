/** Hebrew text of the player configuration and library section operations, keyed by operationId. */
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
};
