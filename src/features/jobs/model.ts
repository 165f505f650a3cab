import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';
import { Cursor, Limit } from '../meta/model';

/** A job as the API shows it. */
export const JobView = t.Object({
  id: t.String({ format: 'uuid' }),
  type: t.String({ description: 'e.g. `asset.process` (probe), `asset.encode` (ladder encode and packaging), `asset.fetch`' }),
  status: t.Union([t.Literal('queued'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')]),
  subject: t.Union([t.Object({ kind: t.String(), id: t.String() }), t.Null()]),
  progress: t.Union([t.Number({ description: 'percent 0-100' }), t.Null()]),
  eta_s: t.Union([Int({ description: 'estimated seconds left' }), t.Null()]),
  attempts: Int(), max_attempts: Int(),
  cancel_requested: t.Boolean(),
  error: t.Union([t.String(), t.Null()]),
  result: t.Union([t.Record(t.String(), t.Unknown(), { description: 'handler facts: encoder, fallback_from, first_playable_ms, ready_ms, ...' }), t.Null()]),
  run_at: t.String({ format: 'date-time' }), created_at: t.String({ format: 'date-time' }), updated_at: t.String({ format: 'date-time' }),
  started_at: t.Union([t.String({ format: 'date-time' }), t.Null()]), finished_at: t.Union([t.String({ format: 'date-time' }), t.Null()]),
});

/** One entry of a job's history. */
export const JobEventView = t.Object({
  at: t.String({ format: 'date-time' }),
  kind: t.String({ description: 'started, lease_expired, recovered, retry_scheduled, encoder_fallback, first_playable, cancel_requested, succeeded, failed, cancelled, retry_requested' }),
  detail: t.Unknown(),
});

/** A page of jobs. */
export const JobPage = t.Object({ items: t.Array(JobView), next_cursor: t.Union([t.String(), t.Null()]) });

/** Query of the job list. */
export const JobListQuery = t.Object({
  status: t.Optional(t.Union([t.Literal('queued'), t.Literal('running'), t.Literal('succeeded'), t.Literal('failed'), t.Literal('cancelled')])),
  type: t.Optional(t.String({ maxLength: 64 })),
  subject: t.Optional(t.String({ maxLength: 64, description: 'subject id, e.g. an asset id' })),
  limit: Limit(200), cursor: Cursor,
});
