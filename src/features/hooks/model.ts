import { t } from 'elysia';

/** How a CMS payload names the assets to publish. */
export const HookMapping = t.Object({
  match: t.Optional(t.Union([t.Literal('external_id'), t.Literal('id')], { description: 'What the referenced values are: asset `external_id` (default) or asset `id`.' })),
  path: t.String({ minLength: 1, maxLength: 200, description: 'Dot path into the JSON body; `*` walks an array. E.g. `article.videos.*.ref`. The value may be a string or an array of strings.' }),
}, { additionalProperties: false });

/** Body of POST /v1/inbound-hooks. */
export const CreateHookBody = t.Object({
  kind: t.Literal('cms_publish'),
  mapping: HookMapping,
}, { additionalProperties: false });

/** An inbound hook as read back. */
export const HookView = t.Object({
  id: t.String(),
  kind: t.String(),
  mapping: t.Object({ match: t.String(), path: t.String() }),
  address: t.String({ description: 'Where the content system POSTs: `{base_url}/v1/hooks/{id}`.' }),
  secret_hint: t.String(),
  created_at: t.String({ format: 'date-time' }),
});

/** The creation answer: the view plus the secret, shown this once. */
export const CreatedHook = t.Composite([HookView, t.Object({ secret: t.String({ description: 'Signing secret (`hksec_...`), returned only here.' }) })]);

/** What one inbound call did. */
export const HookCallResult = t.Object({
  delivery_id: t.String({ description: 'the X-VS-Delivery of the call this result belongs to (the first one, for a replayed signature)' }),
  duplicate: t.Boolean({ description: 'true when this X-VS-Delivery, or this very signature, was already processed (nothing done again).' }),
  published: t.Array(t.String(), { description: 'asset ids published by this call' }),
  already_published: t.Array(t.String()),
  not_ready: t.Array(t.String(), { description: 'matched assets that are not ready (left unpublished)' }),
  unknown: t.Array(t.String(), { description: 'referenced values that match no asset of the tenant' }),
});
