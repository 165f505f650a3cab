/**
 * Fixtures of the translation tests (issue 43): a Hebrew news SRT whose sentences run across cues, and the
 * translations a model gives for its whole sentences (written for these tests in each protocol's answer shape; no
 * model was run), keyed by the Hebrew sentence.
 */

/** The source track: 5 cues, 3 sentences (one over two cues, one cue holding the end of one and the start of another). */
export const HE_SRT = [
  '1', '00:00:01,000 --> 00:00:03,500', 'ראש הממשלה נפגש היום', '',
  '2', '00:00:03,600 --> 00:00:06,000', 'עם נשיא המדינה בירושלים.', '',
  '3', '00:00:06,200 --> 00:00:09,000', 'הם דנו במצב בצפון. אחר כך', '',
  '4', '00:00:09,100 --> 00:00:11,000', 'יצאו למסיבת עיתונאים', '',
  '5', '00:00:11,100 --> 00:00:13,500', 'במשכן הכנסת.', '',
].join('\r\n');

/** The whole sentences the engines must receive, in order. */
export const HE_SENTENCES = [
  'ראש הממשלה נפגש היום עם נשיא המדינה בירושלים.',
  'הם דנו במצב בצפון.',
  'אחר כך יצאו למסיבת עיתונאים במשכן הכנסת.',
];

/** Translations per target language, one per sentence above. */
export const TRANSLATIONS: Record<string, string[]> = {
  en: [
    'The prime minister met today with the president of the state in Jerusalem.',
    'They discussed the situation in the north.',
    'Afterwards they went out to a press conference at the Knesset building.',
  ],
  ar: [
    'التقى رئيس الوزراء اليوم برئيس الدولة في القدس.',
    'ناقشا الوضع في الشمال.',
    'بعد ذلك خرجا إلى مؤتمر صحفي في مبنى الكنيست.',
  ],
  ru: [
    'Премьер-министр встретился сегодня с президентом государства в Иерусалиме.',
    'Они обсудили ситуацию на севере.',
    'После этого они вышли на пресс-конференцию в здании Кнессета.',
  ],
};
