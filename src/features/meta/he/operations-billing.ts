/** Hebrew text of the billing operations (issue 47), keyed by operationId. */
export const HE_BILLING: Record<string, { summary: string; description: string }> = {
  getBillingUsage: {
    summary: 'שימוש חודשי',
    description: 'נתוני השימוש החודשיים של הדייר, מחושבים מהרשומות של הפלטפורמה עצמה, לפי דרגת רזולוציה (`audio`, `up_to_720p`, `1080p`, `above_1080p`; הצלע הקצרה של התמונה): דקות אחסון (יחסית לחלק מהחודש שבו כל נכס היה קיים), דקות קידוד, דקות מסירה (זמן הצפייה של הצופים), בייטים שנמסרו (יומן שרת המקור), שעות קלט חי ושעות הקלטה. `month` (ברירת מחדל: החודש הנוכחי, עד היום) או `from`..`to` (עד 24 חודשים, מהישן לחדש). חודש שהסתיים מחושב פעם אחת ונשמר, כך ששמירת הנתונים (retention) לא משנה אותו לעולם. `format=csv` או `Accept: text/csv`: קובץ CSV לפי RFC 4180 עם סימן סדר בתים, שורה לכל חודש, מדד ודרגה. כל הנוסחאות: docs/billing.md.',
  },
};
