import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { slotKey } from '../../kernel/slots';
import { answers } from '../meta/model';
import { BatchList, BatchView, CreateDestinationBody, DestinationView, PatchDestinationBody, ReplayBody } from './model';
import { ExportService } from './service';
import { ExportWorker } from './worker';

const TAG = 'Event export';
const Id = t.Object({ id: t.String() });
const WORKER = slotKey<ExportWorker>('export.worker');

/** The app's export worker (one per app; started by startExportWorker). */
export function exportWorker(ctx: AppContext): ExportWorker {
  return ctx.slots.get(WORKER, () => new ExportWorker(ctx));
}

/** Starts exporting (main process, with the other background workers). */
export function startExportWorker(ctx: AppContext): void {
  exportWorker(ctx).start(ctx.config.exportTickMs);
}

const CREATE_DOC = `Creates a destination that receives platform events (the webhook event types) and, when selected, statistics
events (\`player_events\`, \`edge_requests\`), each as one \`vs.event.v1\` line \`{schema, id, type, at, tenant_id, data}\`
(\`id\` is stable: the idempotency key). Kinds: \`s3\` (one gzip NDJSON object per batch at a deterministic key, so a retry
overwrites), \`kafka\` (one message per event keyed by its id, gzip, acks all), \`https\` (NDJSON POST signed like webhooks:
\`X-VS-Timestamp\`, \`X-VS-Signature: sha256=<HMAC-SHA256 of "timestamp.body">\`, \`X-VS-Batch\`; the secret is answered
once, here; with \`https.gzip\` the body is gzip and the signature covers the compressed bytes as sent) and \`ga4\` (Measurement Protocol, at most 25 events per request; the payload is checked against
\`/debug/mp/collect\` now, a refusal answers 422 with GA4's messages). The destination starts at now; send history with
a replay. Private addresses are refused unless allowlisted (VS_PRIVATE_ALLOWLIST). Credentials are sealed at rest and
never shown. Delivery: batches of \`max_events\` or \`max_age_s\`, one at a time and in order, at least once; a failed batch
is retried (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then dead-lettered. docs/event-export.md.`;

/** /v1/event-destinations (scope webhooks:manage). */
export function exportRoutes(ctx: AppContext) {
  const svc = new ExportService(ctx, (id) => exportWorker(ctx).forget(id));
  const auth = { scope: 'webhooks:manage' as const };
  return new Elysia({ prefix: '/v1/event-destinations' })
    .use(ctx.http)
    .post('/', async ({ principal: p, body, set }) => { const v = await svc.create(p, body); set.status = 201; return v; }, {
      auth, body: CreateDestinationBody,
      detail: doc(TAG, 'Create an event destination', 'יצירת יעד ייצוא אירועים', CREATE_DOC, { 'x-problems': [403, 422], ...answers({ 201: DestinationView }) }),
    })
    .get('/', ({ principal: p }) => ({ items: svc.list(p.tenantId) }), {
      auth, detail: doc(TAG, 'List event destinations', 'רשימת יעדי ייצוא אירועים', 'Every destination of the tenant with its position and queue (pending and dead batches).', answers({ 200: t.Object({ items: t.Array(DestinationView) }) })),
    })
    .get('/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      auth, params: Id, detail: doc(TAG, 'Get an event destination', 'יעד ייצוא אירועים', 'One destination with its position and queue.', { 'x-problems': [404], ...answers({ 200: DestinationView }) }),
    })
    .patch('/:id', ({ principal: p, params, body }) => svc.patch(p, params.id, body), {
      auth, params: Id, body: PatchDestinationBody,
      detail: doc(TAG, 'Change an event destination', 'שינוי יעד ייצוא אירועים', 'Name, selection, batching or `enabled`. A disabled destination keeps its position: enabled again, it goes on from there (nothing skipped, nothing sent twice).', { 'x-problems': [404, 422], ...answers({ 200: DestinationView }) }),
    })
    .delete('/:id', ({ principal: p, params, set }) => { svc.delete(p.tenantId, params.id); set.status = 204; return null; }, {
      auth, params: Id, detail: doc(TAG, 'Delete an event destination', 'מחיקת יעד ייצוא אירועים', 'Deletes the destination with its delivery log and dead letters.', { 'x-problems': [404], ...answers({ 204: null }) }),
    })
    .get('/:id/deliveries', ({ principal: p, params, query }) => svc.batches(p.tenantId, params.id, query), {
      auth, params: Id,
      query: t.Object({ status: t.Optional(t.Union([t.Literal('pending'), t.Literal('delivered'), t.Literal('dead')])), cursor: t.Optional(t.String()), limit: t.Optional(t.Integer({ minimum: 1, maximum: 200 })) }),
      detail: doc(TAG, 'Event destination delivery log', 'יומן המשלוחים של יעד ייצוא', 'Batches, newest first: source, range, events, bytes, attempts, latency, result and the next attempt.', { 'x-problems': [404, 422], ...answers({ 200: BatchList }) }),
    })
    .get('/:id/dead-letters', ({ principal: p, params, query }) => svc.batches(p.tenantId, params.id, { ...query, status: 'dead' }), {
      auth, params: Id, query: t.Object({ cursor: t.Optional(t.String()), limit: t.Optional(t.Integer({ minimum: 1, maximum: 200 })) }),
      detail: doc(TAG, 'Event destination dead letters', 'מכתבים מתים של יעד ייצוא', 'Batches whose retries were spent, newest first, with the last error.', { 'x-problems': [404, 422], ...answers({ 200: BatchList }) }),
    })
    .post('/:id/dead-letters/:batch/replay', ({ principal: p, params }) => svc.replayDead(p.tenantId, params.id, params.batch), {
      auth, params: t.Object({ id: t.String(), batch: t.String() }),
      detail: doc(TAG, 'Replay a dead letter', 'שליחה חוזרת של מכתב מת', 'Puts a dead batch back at the head of the queue with fresh retries (the same batch id: the same S3 object key and message keys). A batch that is not dead answers 409.', { 'x-problems': [404, 409], ...answers({ 200: BatchView }) }),
    })
    .post('/:id/replay', ({ principal: p, params, body, set }) => { set.status = 202; return svc.replayRange(p.tenantId, params.id, body.from, body.to); }, {
      auth, params: Id, body: ReplayBody,
      detail: doc(TAG, 'Replay events by time range', 'שליחה חוזרת של אירועים לפי טווח זמן', `Queues the selected events of [from, to) again, as replay batches after those already queued (at most 31 days and ${1000} batches). Events keep their ids, so receivers can drop what they already have.`, { 'x-problems': [404, 422], ...answers({ 202: t.Object({ replay: t.String(), batches: t.Integer() }) }) }),
    });
}
