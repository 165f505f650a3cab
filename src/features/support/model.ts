import { t } from 'elysia';

/** Categories of a support request. */
export const CATEGORIES = ['question', 'problem', 'live', 'playback', 'billing', 'other'] as const;

/** Body of POST /v1/support/requests. */
export const CreateSupportBody = t.Object({
  subject: t.String({ minLength: 1, maxLength: 200, description: '1-200 characters' }),
  body: t.String({ minLength: 1, maxLength: 10_000, description: 'what happened, 1-10000 characters' }),
  category: t.Optional(t.Union(CATEGORIES.map((c) => t.Literal(c)), { description: 'default question' })),
}, { additionalProperties: false });

/** Body of a reply. */
export const ReplyBody = t.Object({ body: t.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: false });

const At = t.String({ format: 'date-time' });
/** A message of the thread. */
export const SupportMessage = t.Object({ author: t.String({ description: 'key:<id>, user:<id> or support' }), body: t.String(), created_at: At });

/** A support request as answered. */
export const SupportView = t.Object({
  id: t.String(), subject: t.String(), category: t.String(), status: t.Union([t.Literal('open'), t.Literal('closed')]),
  opened_by: t.String({ description: 'key:<id> or user:<id>' }), via: t.String({ description: '`api`, `mcp` or `studio`' }),
  created_at: At, updated_at: At, closed_at: t.Union([At, t.Null()]),
  messages: t.Optional(t.Array(SupportMessage, { description: 'the thread, oldest first (single request reads only)' })),
});

/** A page of support requests. */
export const SupportPage = t.Object({ items: t.Array(SupportView), next_cursor: t.Union([t.String(), t.Null()]) });
