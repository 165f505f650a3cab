/** Hebrew text of the storage key operations (issue 47), keyed by operationId. */
export const HE_STORAGE_KEYS: Record<string, { summary: string; description: string }> = {
  createStorageKey: {
    summary: 'יצירת מפתח אחסון',
    description: 'יוצר מפתח גישה בסגנון S3 לאזור הקליטה של הדייר: כלי S3 רגילים (AWS CLI‏, rclone) מעלים איתו קבצים אל `<endpoint>/<bucket>/ingest/<prefix>/in/<name>` (כתובת בסגנון path, חתימת AWS גרסה 4, כל אזור), ורק לשם; אחר כך `POST /v1/assets` עם `source: {kind: "s3", key: "ingest/<prefix>/in/<name>"}` רושם את הקובץ. הסוד מוחזר פעם אחת, כאן, ומוצפן במנוחה. נתמכים: PutObject (עד 64 MiB), העלאות מרובות חלקים (שבהן הכלים משתמשים לקבצים גדולים יותר), HeadObject ו-ListObjectsV2 תחת הקידומת. docs/storage-keys.md.',
  },
  listStorageKeys: { summary: 'רשימת מפתחות אחסון', description: 'כל מפתחות האחסון של הדייר, מהחדש לישן, כולל מבוטלים (בלי הסודות שלהם לעולם).' },
  revokeStorageKey: { summary: 'ביטול מפתח אחסון', description: 'המפתח מפסיק לעבוד מיד (הבקשה הבאה שלו נענית ב-403 InvalidAccessKeyId); קבצים שכבר הועלו נשארים.' },
};
