/** Hebrew text of the AI articles operations (issue 45), keyed by operationId. */
export const HE_ARTICLES: Record<string, { summary: string; description: string }> = {
  askForArticleDraftOfProgramme: {
    summary: 'בקשת טיוטת כתבה לתוכנית',
    description: 'מבקשת טיוטת כתבה לתוכנית שהסתיימה, שנכתבת מהכתוביות שלה (רצועת כתוביות מוכנה של הקלטת הערוץ לתוכנית, ואם אין – רצועה מוכנה של הסרטון שלה בספרייה). 202 עם משימת `article.draft`; כל עוד משימה של התוכנית ממתינה או רצה, נענית אותה משימה. `engine`: ‏`extractive` (מובנה, בלי מודל: פרקים לפי חלוקה לנושאים, כותרת משם התוכנית ומהמשפט החזק ביותר, ציטוטים מתוך הכתוביות) או `llm` (נקודת הקצה של צ\'ט תואם OpenAI שב-`VS_LLM_URL`, שמתבקשת להחזיר JSON לפי סכמה; הציטוטים נבנים מחדש מהכתוביות שהיא מציינת). תוכנית שעדיין משודרת או שלא התחילה: 409; בלי רצועת כתוביות, או `llm` בלי נקודת קצה: 422.',
  },
  getProgrammeArticleJobAndDraft: {
    summary: 'משימת הכתבה והטיוטה של תוכנית',
    description: 'משימת `article.draft` האחרונה של התוכנית (`status`, ‏`progress` ‏0-100, ‏`error` כשנכשלה) והתוצר האחרון שלה, או null לכל אחד מהם.',
  },
  listAiArtifacts: {
    summary: 'רשימת תוצרי בינה מלאכותית',
    description: 'תוצרי הבינה המלאכותית של הדייר, מהחדש לישן; סינון לפי `status` ‏(draft, ‏published, ‏rejected) ו-`kind` ‏(article). רשימה עם סמן (`limit` ‏1-100, ‏`next_cursor`).',
  },
  getAiArtifact: {
    summary: 'תוצר בינה מלאכותית',
    description: 'תוצר אחד עם הגוף שלו, התיקונים שנעשו בתשובת המודל (`warnings`) וכל התיקונים של העורכים (שדה, לפני, אחרי, מי, מתי).',
  },
  getAiArtifactTranscript: {
    summary: 'התמליל של תוצר בינה מלאכותית',
    description: 'התמליל שממנו נכתבה הטיוטה (הכתוביות שלו, בזמנים מתחילת הניגון של התוכנית) והיכן לנגן את התוכנית: דף הסקירה מציג אותם לצד הטיוטה.',
  },
  editAiArtifactDraft: {
    summary: 'עריכת טיוטה של תוצר בינה מלאכותית',
    description: 'עורכת שדות בגוף של טיוטה; כל שדה שהשתנה נשמר כתיקון. הפרקים נשארים לפי הסדר, בתוך התוכנית ובלי חפיפה; כל ציטוט חייב להיות הטקסט המדויק של כתוביות התמליל שבין הזמנים שלו (אפשר לשנות תפקיד או להסיר ציטוט, לא להוסיף מילים). תוצר שפורסם או נדחה: 409.',
  },
  approveAndPublishAiArtifact: {
    summary: 'אישור ופרסום של תוצר בינה מלאכותית',
    description: 'מפרסמת טיוטה ושולחת `artifact.published` פעם אחת, באותה טרנזקציה: `{artifact, subject, url, moment_url, jsonld}`: ‏`url` הדף של התוכנית (האתר הציבורי כשהוא מציג אותה, אחרת דף הצפייה המתארח), ‏`moment_url` עם `?t=<seconds>` של הציטוט הראשון, ‏`jsonld` אובייקט NewsArticle של schema.org שה-VideoObject שלו (`video`) מכיל `Clip` אחד לכל פרק. אישור חוזר של תוצר שפורסם מחזיר אותו בלי שינוי ובלי אירוע; תוצר שנדחה: 409.',
  },
  rejectAiArtifact: {
    summary: 'דחיית תוצר בינה מלאכותית',
    description: 'דוחה טיוטה עם סיבה (`reason`); היא הופכת לקריאה בלבד. תוצר שפורסם או נדחה: 409.',
  },
};
