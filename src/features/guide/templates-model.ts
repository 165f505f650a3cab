/** Schemas of weekly schedule templates (issue 48). */
import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

const Day = t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** One slot of a week. */
export const Slot = t.Object({
  weekday: Int({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 Monday ... 7 Sunday' }),
  start: t.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM in the channel\'s time zone' }),
  duration_minutes: Int({ minimum: 1, maximum: 1440 }),
  title: t.String({ minLength: 1, maxLength: 500 }),
  description: t.Optional(t.Union([t.String({ maxLength: 10000 }), t.Null()])),
  series: t.Optional(t.Union([t.String({ maxLength: 500 }), t.Null()])),
  episode: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()])),
}, { additionalProperties: false });
/** Body of POST /v1/guide/templates and PUT /v1/guide/templates/{id}. */
export const TemplateBody = t.Object({ name: t.String({ minLength: 1, maxLength: 200 }), slots: t.Array(Slot, { maxItems: 500 }) }, { additionalProperties: false });
/** Body of POST /v1/guide/templates/{id}/apply. */
export const ApplyBody = t.Object({
  channel_id: t.String({ maxLength: 64 }), from_day: Day, to_day: t.Optional(Day),
  mode: t.Optional(t.Union([t.Literal('fill'), t.Literal('replace')], { description: '`fill` (default): only where the published guide has a gap; `replace`: the range becomes the template' })),
}, { additionalProperties: false });
/** Parsed template input. */
export type TemplateInput = typeof TemplateBody.static;
/** Parsed slot. */
export type SlotInput = typeof Slot.static;

const At = t.String({ format: 'date-time' });
/** A template as answered. */
export const TemplateView = t.Object({ id: t.String(), name: t.String(), slots: t.Array(Slot), created_at: At, updated_at: At });
/** Answer of an apply (always staged: the draft is the preview). */
export const ApplyAnswer = t.Object({
  staged: t.Literal(true), mode: t.String(), programmes: Int({ description: 'programmes staged' }),
  skipped: Int({ description: '`fill`: slots left out because the published guide has a programme there' }), from: At, to: At,
});
