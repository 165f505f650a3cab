/** Hebrew text of the site-connection and tenant-settings operations (issue 17), keyed by operationId. */
export const HE_PEOPLE: Record<string, { summary: string; description: string }> = {
  whoAmI: {
    summary: 'מי אני',
    description: 'הקורא ושם המארח של ההפצה של הדייר (`cdn_hostname`). עם מפתח API: `user` הוא null, הדייר של המפתח הוא `tenants[0]` וגם `current_tenant`, והתפקיד `api_key`. עם הפעלת סטודיו: האדם, כל חברות שלו עם התפקיד בה, הדייר הנוכחי (null עד שנבחר) וההרשאות של התפקיד שלו.',
  },
  approveSiteConnection: {
    summary: 'אישור חיבור אתר',
    description: 'נקראת מדף ההסכמה בסטודיו על ידי אדם מחובר בעל ההרשאה `keys:manage` (מפתח API נענה ב-403). חובה PKCE מסוג S256 ו-`state` לא ריק; `redirect_uri` חייבת להיות https (‏http רגיל רק עבור localhost), בלי פרטי משתמש ובלי fragment; ההרשאות חייבות להיות תת-קבוצה של הרשאות האדם. התשובה היא קוד חד-פעמי שתקף 60 שניות; רק הגיבוב שלו נשמר.',
  },
  exchangeConnectionCodeForKey: {
    summary: 'החלפת קוד חיבור במפתח',
    description: 'משרת לשרת. `code_verifier` חייב להתאים לאתגר שאושר ו-`redirect_uri` חייבת להיות זהה לזו שאושרה; verifier או כתובת שגויים מבטלים את הקוד (400 `invalid_grant`), וקוד פועל פעם אחת בלבד ולמשך 60 שניות. לכל היותר 10 בקשות בדקה לכל כתובת IP ‏(429 עם `Retry-After`).',
  },
  disconnectSite: {
    summary: 'ניתוק אתר',
    description: 'נקראת עם המפתח של האתר ומבטלת אותו (הבקשה הבאה איתו נענית ב-401).',
  },
  readTenantSettingsAndBranding: {
    summary: 'קריאת הגדרות ומיתוג הדייר',
    description: 'שם, לוגו, צבעים, אזור זמן, סולם קידוד ברירת מחדל, פרסום אוטומטי ושפות ברירת מחדל, עם ערכי ברירת המחדל. החרגות מצפייה חוזרת נמצאות בלוח השידורים.',
  },
  changeTenantSettingsAndBranding: {
    summary: 'שינוי הגדרות ומיתוג הדייר',
    description: 'כל תת-קבוצה של השדות; הצבעים מתמזגים עם הקיימים. `logo_url` חייבת להיות https; `time_zone` שם IANA; `default_ladder` אחד מהסולמות המוגדרים. כל שינוי נרשם ביומן הביקורת (`settings.changed`, עם הערך הקודם והחדש).',
  },
};
