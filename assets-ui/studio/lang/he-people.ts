/** Hebrew strings of sign-in, team members, publishing and problem reasons (typed against en-people.ts). */
import type { EN_PEOPLE } from './en-people';

export const HE_PEOPLE: Record<keyof typeof EN_PEOPLE, string> = {
  si_forgot: 'שכחת את הסיסמה?', si_forgot_title: 'איפוס סיסמה', si_forgot_intro: 'יש להזין את כתובת הדואר של חשבון הסטודיו: נשלח אליה קישור לבחירת סיסמה חדשה.',
  si_forgot_send: 'שליחת הקישור', si_forgot_sent: 'אם הכתובת שייכת לחשבון, קישור בדרך אליה. הוא בתוקף שעה אחת. לא הגיע דואר? אפשר לבקש ממנהל הצוות לשלוח קישור איפוס.',
  si_back: 'חזרה לכניסה',
  pr_invalid_credentials: 'כתובת הדואר או הסיסמה שגויות.', pr_rate_limited: 'יותר מדי ניסיונות. אפשר לנסות שוב בעוד {s} שניות.', pr_rate_limited_soon: 'יותר מדי ניסיונות. אפשר לנסות שוב בעוד רגע.',
  pr_validation_error: 'חלק מהפרטים אינם תקינים.', pr_not_an_email: 'זו אינה כתובת דואר אלקטרוני.', pr_forbidden: 'התפקיד שלך אינו מתיר זאת.', pr_insufficient_scope: 'התפקיד שלך אינו מתיר זאת.',
  pr_not_found: 'זה כבר לא קיים.', pr_conflict: 'אי אפשר לעשות זאת במצב הנוכחי.', pr_gone: 'הקישור כבר נוצל או שפג תוקפו.',
  pr_unauthorized: 'יש להיכנס מחדש.', pr_network: 'החיבור נכשל. כדאי לבדוק את הרשת ולנסות שוב.', pr_server: 'השרת לא הצליח לעשות זאת כרגע.',
  pr_weak_password: 'הסיסמה חלשה מדי: לפחות 10 תווים, לא סיסמה נפוצה ולא שם הדואר שלך.', pr_last_owner: 'זהו הבעלים האחרון של הארגון.',
  tm_remove: 'הסרה', tm_remove_n: 'הסרת {name} מהצוות', tm_confirm_remove: 'להסיר את {name} מהצוות? הגישה תיחסם מיד.', tm_removed: '{name} הוסר מהצוות.',
  tm_reset: 'שליחת איפוס סיסמה', tm_reset_n: 'שליחת איפוס סיסמה אל {name}', tm_reset_mailed: 'קישור איפוס נשלח בדואר אל {name}.', tm_reset_link: 'לא הוגדר שרת דואר: שלחו אל {name} את הקישור הזה בעצמכם (בתוקף שעה אחת).',
  tm_you: 'את/ה', tm_role_saved: 'התפקיד של {name} הוא עכשיו {role}.',
  pub_unpublish: 'ביטול פרסום', pub_confirm_unpublish: 'לבטל את פרסום הסרטון? הוא יחזור להיות טיוטה: אתרים ופידים יפסיקו להציג אותו.', pub_draft: 'טיוטה',
  pub_state_published: 'פורסם: אתרים ופידים מציגים אותו.', pub_state_draft: 'טיוטה: רק הסטודיו מציג אותו.',
  pub_share: 'שיתוף והטמעה', pub_watch_link: 'דף הצפייה', pub_embed_code: 'קוד הטמעה', pub_open_watch: 'פתיחת דף הצפייה',
  pub_share_draft: 'הסרטון הוא טיוטה; הקישור עובד לכל מי שמחזיק בו, אבל הסרטון לא מופיע ברשימות עד שיפורסם.',
  c_to_library_publish: 'פרסום בספרייה', c_to_library_draft: 'הוספה לספרייה כטיוטה', c_vod_published: 'פורסם בספרייה', c_vod_draft: 'בספרייה כטיוטה',
  kbps: '{n} קילוביט/שנייה', ren_audio: 'שמע בלבד',
};
