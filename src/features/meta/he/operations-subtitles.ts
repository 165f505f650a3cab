/** Hebrew text of the subtitles operations (issue 43), keyed by operationId. */
export const HE_SUBTITLES: Record<string, { summary: string; description: string }> = {
  createSubtitleTrack: {
    summary: 'יצירת רצועת כתוביות',
    description: 'עם `content`: קובץ ה-WebVTT או ה-SRT מפוענח ונשמר כרצועה מוכנה (קובץ פגום נענה ב-422 עם מספר השורה; תגיות ותווי כיווניות מוסרים). בלעדיו: הדיבור בנכס מזוהה במנוע שהוגדר לשפה `language` במשימת `subtitles.recognise`; הרצועה `queued` ואחר כך `ready`, או `failed` עם הסיבה (גם היעדר מנוע לשפה הוא סיבה כזו).',
  },
  listAssetSubtitleTracks: {
    summary: 'רשימת רצועות הכתוביות של נכס',
    description: 'כל רצועות הנכס, מהוותיקה לחדשה.',
  },
  getSubtitleTrackOrItsFile: {
    summary: 'רצועת כתוביות או הקובץ שלה',
    description: '`{track}` הוא מזהה הרצועה (ה-JSON שלה) או המזהה עם `.vtt` / `.srt` (הקובץ; שורות בעברית ובערבית פותחות ב-U+200F). רצועה שאינה מוכנה נענית ב-409 לבקשת קובץ.',
  },
  publishSubtitleTrack: {
    summary: 'פרסום רצועת כתוביות',
    description: 'מסמן רצועה מוכנה כמפורסמת. רצועה שאינה מוכנה נענית ב-409.',
  },
  unpublishSubtitleTrack: {
    summary: 'ביטול פרסום של רצועת כתוביות',
    description: 'מסמן את הרצועה כלא מפורסמת; אפשר עדיין לערוך ולהוריד אותה.',
  },
  deleteSubtitleTrack: {
    summary: 'מחיקת רצועת כתוביות',
    description: 'מוחק את הרצועה ואת הכתוביות שבה.',
  },
  createChannelSubtitleTrack: {
    summary: 'יצירת רצועת כתוביות להקלטת ערוץ',
    description: 'לתוכנית בלוח השידורים (`programme_id`: טווח השידור בפועל שלה, ואם אין, המשבצת שלה) או לטווח (`start_at`, `end_at`, עד 12 שעות). עם `content`: קובץ ה-WebVTT או ה-SRT, בזמנים מתחילת הטווח, נשמר כרצועה מוכנה. בלעדיו: הדיבור המוקלט בטווח מזוהה במשימת `subtitles.recognise_channel` (הרצועה `queued`, ואחר כך `ready`, או `failed` עם הסיבה); טווח שעוד לא הסתיים נענה ב-409, וטווח שלא הוקלט בו דבר ב-422.',
  },
  listChannelSubtitleTracks: {
    summary: 'רשימת רצועות הכתוביות של ערוץ',
    description: 'מהטווח החדש לישן; `programme_id` ו-`from`/`to` מצמצמים את הרשימה.',
  },
  getChannelSubtitleTrackOrItsFile: {
    summary: 'רצועת כתוביות של ערוץ או הקובץ שלה',
    description: '`{track}` הוא מזהה הרצועה (ה-JSON שלה) או המזהה עם `.vtt` / `.srt` (הקובץ, בזמנים מתחילת הטווח). רצועה שאינה מוכנה נענית ב-409 לבקשת קובץ.',
  },
  publishChannelSubtitleTrack: {
    summary: 'פרסום רצועת כתוביות של ערוץ',
    description: 'מסמן רצועה מוכנה כמפורסמת: רשימות ההשמעה של צפייה חוזרת, התחלה מחדש וקטעים בטווח שלה מציעות אותה. שאינה מוכנה: 409.',
  },
  unpublishChannelSubtitleTrack: {
    summary: 'ביטול פרסום של רצועת כתוביות של ערוץ',
    description: 'מסמן את הרצועה כלא מפורסמת; אפשר עדיין לערוך ולהוריד אותה.',
  },
  translateChannelSubtitleTrack: {
    summary: 'תרגום רצועת כתוביות של ערוץ',
    description: '202: רצועה חדשה לאותו טווח בשפה `language`, במצב `queued`, שמתורגמת כמו רצועות של נכסים (`subtitles.translate`: משפטים שלמים, מילון המונחים בהנחיה, זמני המקור). שאינה מוכנה: 409; אותה שפה: 422.',
  },
  deleteChannelSubtitleTrack: {
    summary: 'מחיקת רצועת כתוביות של ערוץ',
    description: 'מוחק את הרצועה ואת הכתוביות שבה.',
  },
  getLiveSubtitles: {
    summary: 'קריאת הכתוביות החיות של ערוץ',
    description: 'השפות שהשמע החי שלהן מזוהה תוך כדי ההקלטה, ולכל אחת מצבה (`starting`, `running`, `behind`, `waiting`, `failed`), ההשהיה שלה (`lag_ms`: חציון הזמן מתחילת הדיבור של כתובית ועד שהכתובית זמינה), כמה הזיהוי מפגר אחרי קצה השידור החי, ורצועת ההקלטה השעתית שאליה נכתבות הכתוביות.',
  },
  setLiveSubtitles: {
    summary: 'הגדרת הכתוביות החיות של ערוץ',
    description: 'מפעיל כתוביות חיות לשפות ברשימה (הרשימה מחליפה את הקודמת; `[]` מכבה אותן). רשימת ההשמעה הראשית של השידור החי מציגה אז ביצוע כתוביות `subs-<language>` שהמקטעים שלו באים אחרי מקטעי הווידאו ברגע שהשמע שלהם זוהה; הכתוביות נשמרות גם ברצועות הקלטה שעתיות מפורסמות (צפייה לאחור, התחלה מחדש, חיפוש). שפה שאף מנוע דיבור אינו תומך בה: 422.',
  },
  translateSubtitleTrack: {
    summary: 'תרגום רצועת כתוביות',
    description: '202: רצועה חדשה (`source: translation`, `source_track_id`) בשפה `language`, במצב `queued`, שמתורגמת במנוע התרגום שהוגדר (צ\'אט תואם OpenAI או LibreTranslate) במשימת `subtitles.translate`: הכתוביות מתמזגות למשפטים שלמים, מתורגמות עם מילון המונחים של הדייר בהנחיה, ומתפצלות חזרה על זמני המקור לפי כללי הכתוביות. אין מנוע מוגדר: הרצועה עוברת ל-`failed` עם הסיבה. רצועת מקור שאינה מוכנה נענית ב-409; אותה שפה, ב-422.',
  },
  listCuesOfSubtitleTrack: {
    summary: 'רשימת הכתוביות של רצועת כתוביות',
    description: 'הכתוביות לפי סדר הזמן, עם מהירות הקריאה (`chars_per_second`) והכללים שכל כתובית חורגת מהם (`over_limit`: reading_speed מול מהירות הקריאה של הדייר, duration_min, duration_max, gap, line_length, lines); `from_ms` משאיר כתוביות שמסתיימות אחריו; `limit` בין 1 ל-1000 (ברירת מחדל 200). הכותרת `ETag` והשדה `etag`: גרסת הרצועה לשליחה ב-`If-Match`.',
  },
  insertCueIntoSubtitleTrack: {
    summary: 'הוספת כתובית לרצועת כתוביות',
    description: 'כתובית חדשה: טקסט של עד 2 שורות בנות 42 תווים (שורה אחת ארוכה מדי מתחלקת לשתיים כשהיא נכנסת), 1 עד 7 שניות, לפחות 80 מ"ש (2 פריימים) מהשכנות (קרוב יותר או חופף: 409). נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412). התשובה: הגרסה שנוצרה, ה-`etag` החדש (גם בכותרת `ETag`) ומספר הכתוביות.',
  },
  editCueOfSubtitleTrack: {
    summary: 'עריכת כתובית ברצועת כתוביות',
    description: 'טקסט ו/או זמנים של כתובית אחת, לפי כללי הכתוביות (422 עם שם השדה; 409 מול כתובית שכנה). אם דבר לא השתנה: `revision` הוא null. נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412). התשובה: הגרסה שנוצרה, ה-`etag` החדש (גם בכותרת `ETag`) ומספר הכתוביות.',
  },
  deleteCueOfSubtitleTrack: {
    summary: 'מחיקת כתובית מרצועת כתוביות',
    description: 'מוחק כתובית אחת (ביטול הגרסה מחזיר אותה). נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412). התשובה: הגרסה שנוצרה, ה-`etag` החדש ומספר הכתוביות.',
  },
  splitCueOfSubtitleTrack: {
    summary: 'פיצול כתובית ברצועת כתוביות',
    description: 'שתי כתוביות: `start..at_ms` עם הטקסט שלפני `offset`, ו-`at_ms + 80..end` עם השאר (ברירות מחדל: מעבר השורה או הרווח הקרוב לאמצע; הזמן מתחלק לפי התווים). כל חלק לפחות שנייה. נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412).',
  },
  mergeCuesOfSubtitleTrack: {
    summary: 'מיזוג כתוביות ברצועת כתוביות',
    description: 'הכתובית והבאה אחריה (או הקודמת) נעשות אחת: ההתחלה והמזהה של הראשונה, הסוף של השנייה, הטקסטים בעד 2 שורות (422 כשאינם נכנסים, או כשהתוצאה ארוכה מ-7 שניות). נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412).',
  },
  shiftCuesOfSubtitleTrack: {
    summary: 'הזזת כתוביות ברצועת כתוביות',
    description: 'מזיז כתוביות ב-`by_ms`: `all` (כולן), `following` (הכתובית `from_id` וכל שאחריה) או `range` (שמתחילות בטווח [`from_ms`, `to_ms`)); 409 כשכתוביות שזזו יחפפו לאחרות או יתקרבו אליהן לפחות מ-80 מ"ש, 422 לפני 0. נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412).',
  },
  findAndReplaceInSubtitleTrack: {
    summary: 'חיפוש והחלפה ברצועת כתוביות',
    description: 'בכל הכתוביות: מילים שלמות כברירת מחדל (מודע לעברית: ניקוד ואותיות סופיות אינם משנים, אותיות השימוש ו ה ב כ ל מ ש נשמרות), ללא הבחנה בין אותיות גדולות לקטנות אלא אם `match_case`. `revision.counts` אומר כמה הוחלפו; לא נמצא דבר: `revision` הוא null. כתובית שהייתה חורגת מכללי השורות: 422. נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412).',
  },
  applyGlossaryToSubtitleTrack: {
    summary: 'החלת המילון על רצועת כתוביות',
    description: 'מתקן כל צורה חלופית של מונחי המילון של הדייר בשפת הרצועה למונח עצמו (מילים שלמות, אותיות השימוש נשמרות); `revision.counts` לפי מונח; אין מה לתקן: `revision` הוא null. נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412).',
  },
  listRevisionsOfSubtitleTrack: {
    summary: 'רשימת הגרסאות של רצועת כתוביות',
    description: 'כל שינוי בכתוביות, מהחדש לישן: מי, מתי, הפעולה והכתוביות שנגעה בהן לפני ואחרי; `undone_by` כשבוטלה. `limit` בין 1 ל-200 (ברירת מחדל 50).',
  },
  getRevisionOfSubtitleTrack: {
    summary: 'גרסה של רצועת כתוביות',
    description: 'גרסה אחת עם הכתוביות שנגעה בהן.',
  },
  undoRevisionOfSubtitleTrack: {
    summary: 'ביטול גרסה של רצועת כתוביות',
    description: 'גרסה חדשה (`op` undo, `undo_of`) שמסירה את מה שהגרסה יצרה ומחזירה את מה שהחליפה; 409 כשהכתוביות שלה השתנו מאז (יש לבטל קודם את הגרסאות המאוחרות) או כשכבר בוטלה. נדרש `If-Match` עם ה-ETag של הרצועה (בלעדיו 428; ישן: 412).',
  },
  listGlossaryEntries: {
    summary: 'רשימת ערכי המילון',
    description: 'מהוותיק לחדש; `language` משאיר את ערכי השפה הזו ואת אלה שלכל השפות; `limit` בין 1 ל-500 (ברירת מחדל 100).',
  },
  addGlossaryEntry: {
    summary: 'הוספת ערך למילון',
    description: 'מונח כפי שיש לכתוב אותו, עם הזיהויים השגויים והכתיבים החלופיים שיתוקנו אליו, ושפתו (בלי שפה: לכל השפות). המונחים הם ההנחיה של מנוע הדיבור; החלופות מתוקנות אחרי הזיהוי. אותו מונח לאותה שפה פעמיים נענה ב-409.',
  },
  getGlossaryEntry: {
    summary: 'ערך במילון',
    description: 'ערך אחד ממילון הדייר.',
  },
  changeGlossaryEntry: {
    summary: 'שינוי ערך במילון',
    description: 'כל תת-קבוצה של `term`, `variants` (מחליף את הרשימה) ו-`language`; מונח שיש לערך אחר באותה שפה נענה ב-409.',
  },
  deleteGlossaryEntry: {
    summary: 'מחיקת ערך מהמילון',
    description: 'מוחק את הערך; רצועות שתוקנו קודם שומרות על הטקסט שלהן.',
  },
  readSubtitleSettings: {
    summary: 'קריאת הגדרות הכתוביות',
    description: 'השפות שמתומללות אוטומטית לנכסים חדשים ולהקלטות ערוצים, מהירות הקריאה (תווים בשנייה, ברירת מחדל 17) ומנוע הדיבור ברירת המחדל, עם ברירות המחדל.',
  },
  changeSubtitleSettings: {
    summary: 'שינוי הגדרות הכתוביות',
    description: 'כל תת-קבוצה: `auto_subtitles.assets` / `.recordings` (שפות; רשימה מחליפה את הקודמת), `reading_speed` (5 עד 40) ו-`default_engine`. כל שינוי נרשם ביומן הביקורת (`settings.changed`).',
  },
};

/** Cue editing of channel-recording tracks: the same operations as on asset tracks (subtitles/cues-routes.ts mounts both). */
const CUE_OPS = ['listCues', 'insertCueInto', 'editCue', 'deleteCue', 'splitCue', 'mergeCues', 'shiftCues', 'findAndReplaceIn', 'applyGlossaryTo', 'listRevisions', 'getRevision', 'undoRevision'];
for (const op of CUE_OPS) {
  const base = Object.entries(HE_SUBTITLES).find(([k]) => k.startsWith(op) && k.endsWith('SubtitleTrack') && !k.endsWith('ChannelSubtitleTrack'));
  if (!base) continue;
  const [key, text] = base;
  HE_SUBTITLES[key.replace(/SubtitleTrack$/, 'ChannelSubtitleTrack')] = {
    summary: text.summary.replace('רצועת כתוביות', 'רצועת כתוביות של ערוץ'),
    description: `${text.description} זמני הכתוביות יחסיים לתחילת טווח ההקלטה של הרצועה.`,
  };
}
