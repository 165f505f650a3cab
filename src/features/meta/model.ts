import { t, type TSchema } from 'elysia';

/** Query `limit`: an integer 1..`max` (the server's default applies when it is absent). */
export const Limit = (max: number, def = 50) => t.Optional(t.Integer({ minimum: 1, maximum: max, description: `page size, 1-${max} (default ${def})` }));

/** Query `cursor`: the `next_cursor` of the previous page, as given (opaque; a foreign or altered cursor answers 422). */
export const Cursor = t.Optional(t.String({ maxLength: 512, description: 'the `next_cursor` of the previous page, unchanged (absent or empty: the first page)' }));

/** The query of a plain cursor list: `limit` (1..max) and `cursor`. */
export const PageQuery = (max = 200) => t.Object({ limit: Limit(max), cursor: Cursor });

/** A cursor page `{items, next_cursor}` of `item`. */
export const Page = <T extends TSchema>(item: T) => t.Object({ items: t.Array(item), next_cursor: t.Union([t.String(), t.Null()], { description: 'null at the end of the list' }) });

/** RFC 3339 timestamp (UTC) as answered. */
export const Timestamp = (description?: string) => t.String({ format: 'date-time', ...(description ? { description } : {}) });

/** Answer of GET /healthz. */
export const Health = t.Object({ status: t.Literal('ok') });

/**
 * Documentation-only success answers of an operation (`detail.responses`, for `doc(..., extra)`): a JSON schema per
 * status, or null for no body. The contract test validates real answers against them (Ajv); they cost nothing at run time.
 */
export function answers(map: Record<number, TSchema | null>, description = 'success'): { responses: Record<string, unknown> } {
  const responses: Record<string, unknown> = {};
  for (const [status, v] of Object.entries(map)) {
    responses[status] = v === null ? { description: status === '204' ? 'done; no body' : description } : { description, content: { 'application/json': { schema: v } } };
  }
  return { responses };
}

/** A documentation-only success answer in another media type (an event stream, a playlist). */
export function mediaAnswer(status: number, type: string, schema: TSchema, description: string): { responses: Record<string, unknown> } {
  return { responses: { [status]: { description, content: { [type]: { schema } } } } };
}

/** `detail.requestBody` of a raw part upload: the bytes themselves. */
export const rawBytesBody = {
  requestBody: {
    required: true,
    description: 'the part\'s bytes, exactly `Content-Length` of them',
    content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
  },
};
