import { t, type TSchema } from 'elysia';
import { Int } from '../../kernel/http/schema';

const IMAGE_KEYS = ['tile_16x9', 'tile_16x9_320', 'tile_1x1', 'tile_2x3', 'poster', 'hero_16x9', 'title_art'] as const;
const Images = t.Partial(t.Object(Object.fromEntries(IMAGE_KEYS.map((k) => [k, t.String({ maxLength: 2000 })])), { additionalProperties: false }));
const Fields = {
  title: t.String({ minLength: 1, maxLength: 500 }),
  start_at: t.String({ description: 'RFC 3339' }),
  end_at: t.String({ description: 'RFC 3339; after start_at, at most 48 hours later' }),
  description: t.Optional(t.Union([t.String({ maxLength: 10000 }), t.Null()])),
  series: t.Optional(t.Union([t.String({ maxLength: 500 }), t.Null()])),
  episode: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()])),
  images: t.Optional(Images),
};

/** Body of POST /v1/channels/{id}/programmes. */
export const CreateProgrammeBody = t.Object(Fields, { additionalProperties: false });
/** Body of PATCH /v1/channels/{id}/programmes/{programme_id}. */
export const PatchProgrammeBody = t.Partial(t.Object(Fields, { additionalProperties: false }));
/** Guide settings of a channel. */
export const GuideSettingsBody = t.Object({
  review_mode: t.Optional(t.Boolean({ description: 'edits are staged as a draft until published' })),
  lock_hours: t.Optional(t.Number({ minimum: 0, maximum: 168, description: 'hours from now in which the guide cannot change (409 lock_window)' })),
}, { additionalProperties: false });
/** Body of POST .../guide/copy. */
export const CopyBody = t.Object({ from_day: t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), to_day: t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }) }, { additionalProperties: false });
/** Body of POST .../guide/shift. */
export const ShiftBody = t.Object({ day: t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), minutes: Int({ minimum: -1440, maximum: 1440 }) }, { additionalProperties: false });
/** Body of POST .../guide/rollback. */
export const RollbackBody = t.Object({ version: Int({ minimum: 1 }) }, { additionalProperties: false });
/** Body of PUT .../programmes/{id}/boundaries. */
export const BoundsBody = t.Object({ play_start: t.String(), play_end: t.String() }, { additionalProperties: false });
/** Catch-up exclusion rules (tenant setting). */
export const ExclusionsBody = t.Object({
  rules: t.Array(t.Object({
    field: t.Union([t.Literal('title'), t.Literal('series')]),
    pattern: t.String({ minLength: 1, maxLength: 200, description: 'case-insensitive; `*` matches any text; without `*` the whole field must match' }),
  }, { additionalProperties: false }), { maxItems: 100 }),
}, { additionalProperties: false });

/** Parsed create input. */
export type CreateProgramme = typeof CreateProgrammeBody.static;
/** Parsed patch input. */
export type PatchProgramme = typeof PatchProgrammeBody.static;

const At = t.String({ format: 'date-time' });
const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);
/** A programme as answered (published, or staged with `draft: true`). */
export const ProgrammeView = t.Object({
  id: t.String(), channel_id: t.String(), title: t.String(),
  description: Nullable(t.String()), series: Nullable(t.String()), episode: Nullable(t.String()),
  images: t.Record(t.String(), t.String()),
  start_at: At, end_at: At, duration_s: Int(),
  source: t.String({ description: 'api, xmltv, copy, ...' }),
  play_start: At, play_end: At,
  bounds_status: t.String({ description: '`epg` (guide times) or `confirmed`' }),
  draft: t.Optional(t.Boolean({ description: 'true when the change was staged (review mode)' })),
  updated_at: t.Optional(At),
});
/** Answer of GET /v1/channels/{id}/programmes. */
export const ProgrammeList = t.Object({ from: At, to: At, items: t.Array(ProgrammeView) });
/** Answer of a staged deletion (review mode). */
export const StagedAnswer = t.Object({ draft: t.Literal(true) });
/** Guide settings as answered. */
export const GuideSettingsView = t.Object({ review_mode: t.Boolean(), lock_hours: t.Number() });
/** One staged change. */
export const DraftView = t.Object({ id: t.String(), change: t.Record(t.String(), t.Unknown(), { description: 'the staged operation: `{op: create|patch|delete|replace, ...}`' }), created_at: At });
/** One published guide version. */
export const VersionView = t.Object({ version: Int(), kind: t.String({ description: 'publish, import, copy, shift, rollback, ...' }), changes: Int(), created_at: At,
  author: Nullable(t.String({ description: 'who published it: a person\'s name, or `API key <id>`; null for versions recorded before authors were kept' })) });
/** Answer of POST .../guide/publish. */
export const PublishAnswer = t.Object({ version: Int(), changes: Int() });
/** Answer of POST .../guide/rollback. */
export const RollbackAnswer = t.Object({ version: Int(), changes: Int(), restored: Int() });
/** Answer of copy and shift (200 applied, 202 staged). */
export const DayAnswer = t.Object({ staged: t.Boolean(), programmes: Int() });
/** Answer of an XMLTV import (200 applied, 202 staged). */
export const ImportAnswer = t.Object({
  xmltv_channel: t.String({ description: 'the XMLTV channel id read' }),
  staged: t.Boolean(), programmes: Int(), overlaps_resolved: Int(), from: At, to: At,
  replaced: Int({ description: 'published programmes starting in the imported range that the import replaces' }),
  skipped: t.Array(t.Object({ title: t.String(), start_at: At, reason: t.String({ description: '`no_end` (the last programme has no stop), `bad_time` (stop not after start), `overlap` (a later programme starts at the same time)' }) }),
    { description: 'programmes of the document left out, by start (at most 100)' }),
});
/** Answer of the catch-up exclusion rules. */
export const ExclusionsView = t.Object({ rules: t.Array(t.Object({ field: t.String(), pattern: t.String() })) });
