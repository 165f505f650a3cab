/** Hebrew text of the input-check operations (issue 48), keyed by operationId. */
export const HE_INPUT_CHECKS: Record<string, { summary: string; description: string }> = {
  readInputChecks: {
    summary: 'קריאת בדיקות האות',
    description: 'בדיקות האות של הערוץ עם הספים שלהן — `black` (פריים שחור כש-98% מהפיקסלים שלו בהירים לכל היותר `pixel_threshold`), ‏`freeze` (תמונה שאינה משתנה בתוך `noise_db`), ‏`silence` (שמע מתחת ל-`noise_db` ‏dBFS), כל אחת מדווחת אחרי `min_duration_s`, ו-`loudness` (עוצמת שמע לטווח קצר לפי EBU R128 מחוץ ל-`target_lufs` ± `tolerance_lu` במשך `min_duration_s`) — ו-`state`: מה מתקיים עכשיו בקלט המשודר (`since`: מתי זה התחיל) ועוצמת השמע הרגעית, לטווח הקצר והמשולבת. כל הבדיקות כבויות עד שמפעילים אותן. docs/input-monitoring.md.',
  },
  changeInputChecks: {
    summary: 'שינוי בדיקות האות',
    description: 'כל תת-קבוצה של שדות כל בדיקה (שדות לא מוכרים נענים ב-400, ערכים מחוץ לטווח ב-422). בערוץ פועל המנתח מופעל מחדש עם ההגדרות החדשות (מצבים שדווחו מסתיימים ומאושרים שוב). כל מצב שמתחיל או מסתיים שולח `channel.input_black`, ‏`channel.input_freeze`, ‏`channel.input_silence` או `channel.input_loudness`; מוניטורים מתריעים עליהם בבדיקות `input_black`, ‏`input_freeze`, ‏`input_silence` ו-`input_loudness`.',
  },
};
