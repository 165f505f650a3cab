import { t } from 'elysia';

const Countries = t.Array(t.String({ minLength: 1, maxLength: 8 }), { minItems: 1, maxItems: 250, description: 'ISO 3166-1 alpha-2 codes (case-insensitive on input; GB, not UK)' });
const AppliesTo = t.Union([t.Literal('in'), t.Literal('out')], { description: '`in`: viewers in the listed countries are refused; `out`: viewers outside them, and viewers whose country is unknown, are refused' });
const Time = t.String({ maxLength: 40, description: 'RFC 3339 timestamp' });

/** Body of POST /v1/blackouts. */
export const BlackoutBody = t.Object({
  channel: t.String({ minLength: 1, maxLength: 100, description: 'channel slug' }),
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  programme_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'a programme of the channel: the blackout covers its air time (taken from the guide when created)' })),
  starts_at: t.Optional(Time), ends_at: t.Optional(Time),
  applies_to: t.Optional(AppliesTo),
  countries: Countries,
  enabled: t.Optional(t.Boolean()),
}, { additionalProperties: false });

/** Body of PATCH /v1/blackouts/{id} (fields given replace the stored ones; null clears a window end). */
export const BlackoutPatch = t.Object({
  name: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
  starts_at: t.Optional(t.Union([Time, t.Null()])), ends_at: t.Optional(t.Union([Time, t.Null()])),
  applies_to: t.Optional(AppliesTo),
  countries: t.Optional(Countries),
  enabled: t.Optional(t.Boolean()),
}, { additionalProperties: false });

const At = t.String({ format: 'date-time' });
/** A blackout as the API shows it. */
export const BlackoutView = t.Object({
  id: t.String(), channel: t.String(), name: t.String(), programme_id: t.Union([t.String(), t.Null()]),
  starts_at: t.Union([At, t.Null()]), ends_at: t.Union([At, t.Null()]),
  applies_to: t.Union([t.Literal('in'), t.Literal('out')]), countries: t.Array(t.String()), enabled: t.Boolean(),
  active_now: t.Boolean({ description: 'enabled and now inside its window' }),
  created_at: At, updated_at: At,
});
