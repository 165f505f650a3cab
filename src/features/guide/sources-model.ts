/** Schemas of EPG sources (issue 48). */
import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

const At = t.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof t.String> | ReturnType<typeof Int>>(s: T) => t.Union([s, t.Null()]);
const Fields = {
  url: t.String({ maxLength: 2000, description: 'the XMLTV document (http or https; private addresses refused unless allowlisted)' }),
  xmltv_channel: t.Optional(t.Union([t.String({ minLength: 1, maxLength: 200 }), t.Null()], { description: 'the XMLTV channel id to read; default: the only one, else the one named like the channel slug' })),
  interval_minutes: t.Optional(Int({ minimum: 1, maximum: 1440, description: 'minutes between fetches (default 60)' })),
  auto_publish: t.Optional(t.Boolean({ description: 'publish changes at once instead of staging them as a draft for review (default false)' })),
  enabled: t.Optional(t.Boolean()),
};
/** Body of POST /v1/guide/sources. */
export const CreateSourceBody = t.Object({ channel_id: t.String({ maxLength: 64 }), ...Fields }, { additionalProperties: false });
/** Body of PATCH /v1/guide/sources/{id}. */
export const PatchSourceBody = t.Partial(t.Object(Fields, { additionalProperties: false }));
/** Parsed create input. */
export type CreateSource = typeof CreateSourceBody.static;
/** Parsed patch input. */
export type PatchSource = typeof PatchSourceBody.static;

/** One fetch of a source. */
export const FetchView = t.Object({
  at: At, trigger: t.String({ description: '`schedule` or `manual`' }),
  status: t.String({ description: '`not_modified` (304 to the conditional GET), `unchanged` (same bytes), `staged` (a draft waits for review), `published` (a new version), `error`' }),
  http_status: Nullable(Int()), items: Int({ description: 'programmes read' }), changed: t.Boolean(), version: Nullable(Int()),
  error: Nullable(t.String({ description: 'why the fetch failed, e.g. `bad XML: ...`' })), ms: Nullable(Int()),
});
/** A source as answered. */
export const SourceView = t.Object({
  id: t.String(), channel_id: t.String(), url: t.String(), xmltv_channel: Nullable(t.String()), interval_s: Int(), auto_publish: t.Boolean(), enabled: t.Boolean(),
  etag: Nullable(t.String()), last_modified: Nullable(t.String()), next_fetch_at: At, last_fetch_at: t.Union([At, t.Null()]),
  last_status: Nullable(t.String()), last_error: Nullable(t.String()), created_at: At, updated_at: At,
});
