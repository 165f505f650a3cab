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
  translateSubtitleTrack: {
    summary: 'תרגום רצועת כתוביות',
    description: '202: רצועה חדשה (`source: translation`, `source_track_id`) בשפה `language`, במצב `queued`, שמתורגמת במנוע התרגום שהוגדר (צ\'אט תואם OpenAI או LibreTranslate) במשימת `subtitles.translate`: הכתוביות מתמזגות למשפטים שלמים, מתורגמות עם מילון המונחים של הדייר בהנחיה, ומתפצלות חזרה על זמני המקור לפי כללי הכתוביות. אין מנוע מוגדר: הרצועה עוברת ל-`failed` עם הסיבה. רצועת מקור שאינה מוכנה נענית ב-409; אותה שפה, ב-422.',
  },
};
