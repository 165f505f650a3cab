/** The RFC 9457 problem-details component and the shared error responses of the OpenAPI documents. */

/** `components.schemas.Problem`: every error answer. */
export const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'request_id'],
  properties: {
    type: { type: 'string', format: 'uri', description: '`{problems_base}/<code>`; the code is stable (e.g. `not_found`, `validation_error`)' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    request_id: { type: 'string', description: 'also sent as `X-Request-Id`; quote it when reporting a fault' },
    errors: {
      type: 'array',
      description: 'validation failures (422) and unknown fields (400): one entry per field',
      items: { type: 'object', required: ['field', 'detail'], properties: { field: { type: 'string' }, detail: { type: 'string' } } },
    },
    errors_truncated: { type: 'boolean', description: 'true when `errors[]` was cut to its first 20 entries' },
  },
} as const;

/** Status -> component response name and its English and Hebrew descriptions. */
export const PROBLEMS: Record<number, { name: string; en: string; he: string }> = {
  400: { name: 'BadRequest', en: '`unknown_field` (a body field the operation does not know; `errors[]` names it) or `invalid_json`', he: '`unknown_field` (שדה בגוף הבקשה שהפעולה אינה מכירה; `errors[]` מציין אותו) או `invalid_json`' },
  401: { name: 'Unauthorized', en: '`invalid_credentials`: missing, malformed, unknown or revoked API key', he: '`invalid_credentials`: מפתח API חסר, פגום, לא מוכר או מבוטל' },
  403: { name: 'Forbidden', en: '`insufficient_scope` (the key lacks the scope named in `detail`), `forbidden` or `feature_disabled` (CDN-only tenant)', he: '`insufficient_scope` (למפתח חסרה ההרשאה המצוינת ב-`detail`), `forbidden` או `feature_disabled` (דייר CDN בלבד)' },
  404: { name: 'NotFound', en: '`not_found`: no such object in the tenant', he: '`not_found`: אין אובייקט כזה אצל הדייר' },
  409: { name: 'Conflict', en: '`conflict` or `lock_window`: the object is not in a state that allows this', he: '`conflict` או `lock_window`: מצב האובייקט אינו מאפשר את הפעולה' },
  410: { name: 'Gone', en: '`gone`: the object existed but its media was removed by retention', he: '`gone`: האובייקט היה קיים אך המדיה שלו נמחקה במסגרת מדיניות השמירה' },
  411: { name: 'LengthRequired', en: '`bad_request`: the part upload has no `Content-Length`', he: '`bad_request`: להעלאת החלק אין כותרת `Content-Length`' },
  412: { name: 'PreconditionFailed', en: '`conflict`: `If-Match` is not the object\'s current ETag (someone changed it since you read it); read it again', he: '`conflict`: `If-Match` אינו ה-ETag הנוכחי של האובייקט (מישהו שינה אותו מאז שנקרא); יש לקרוא אותו שוב' },
  413: { name: 'PayloadTooLarge', en: '`payload_too_large`: the body is over the limit', he: '`payload_too_large`: גוף הבקשה חורג מהמגבלה' },
  415: { name: 'UnsupportedMediaType', en: '`unsupported_media_type`: the body is not in a media type the operation reads', he: '`unsupported_media_type`: גוף הבקשה אינו בסוג מדיה שהפעולה קוראת' },
  422: { name: 'ValidationFailed', en: '`validation_error`: invalid body, query or path values; `errors[]` lists the fields', he: '`validation_error`: ערכים לא תקינים בגוף, בשאילתה או בנתיב; `errors[]` מפרט את השדות' },
  428: { name: 'PreconditionRequired', en: '`precondition_required`: the write needs `If-Match` with the object\'s ETag', he: '`precondition_required`: הכתיבה דורשת `If-Match` עם ה-ETag של האובייקט' },
  429: { name: 'RateLimited', en: '`rate_limited`: over 20 requests per second per key (burst 100); wait `Retry-After` seconds', he: '`rate_limited`: יותר מ-20 בקשות בשנייה למפתח (פרץ של עד 100); יש להמתין `Retry-After` שניות' },
  500: { name: 'InternalError', en: '`internal_error`: a server fault; quote `request_id`', he: '`internal_error`: תקלה בשרת; יש לציין את `request_id`' },
  503: { name: 'NotReady', en: '`not_ready` or `feature_disabled`: a dependency is unavailable; retry with backoff', he: '`not_ready` או `feature_disabled`: רכיב נדרש אינו זמין; יש לנסות שוב בהשהיה הולכת וגדלה' },
};

/** A `$ref` to the shared response for `status`. */
export const problemRef = (status: number) => ({ $ref: `#/components/responses/${PROBLEMS[status].name}` });

/** `components.responses` for the statuses the document uses. */
export function problemResponses(used: Set<number>, lang: 'en' | 'he'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of [...used].sort((a, b) => a - b)) {
    const p = PROBLEMS[status];
    out[p.name] = {
      description: p[lang],
      ...(status === 429 ? { headers: { 'Retry-After': { description: lang === 'he' ? 'שניות להמתנה' : 'seconds to wait', schema: { type: 'integer', minimum: 1 } } } } : {}),
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
  }
  return out;
}
