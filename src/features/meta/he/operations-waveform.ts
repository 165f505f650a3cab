/** Hebrew text of the waveform operation of the cue editor (issue 43), keyed by operationId. */
export const HE_WAVEFORM: Record<string, { summary: string; description: string }> = {
  getAssetWaveform: {
    summary: 'צורת הגל של השמע בנכס',
    description: 'שיאי ערוץ השמע הראשון של הנכס (ממוזג למונו, 8 קילוהרץ) בתבנית ה-JSON של audiowaveform של ה-BBC (גרסה 2, 8 סיביות): מינימום ומקסימום לכל 10 מילישניות, גס יותר מעבר ל-180,000 פיקסלים. מחושב פעם אחת ב-ffmpeg בבקשה הראשונה (שממתינה לו) ונשמר לצד הנכס; לנכס בלי שמע `length` הוא 0. 409 כל עוד אין לנכס קובץ מקור שהועלה.',
  },
};
