import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { invalid } from '../../kernel/errors';
import { outboxHead } from '../../kernel/events/cursors';
import { openEventStream } from './stream';
import { StreamCaps } from './stream-caps';
import { mediaAnswer } from '../meta/model';
import { realtimeFrames } from '../stats/realtime-frames';

const DESCRIPTION = `Server-sent events (\`text/event-stream\`) of the caller's tenant: the same events as webhooks, with the same JSON envelope \`{id, type, at, customer_id, data}\` (see the event types under Webhooks). Frames:

\`\`\`
id: 1234
event: asset.ready
data: {"id":"…","type":"asset.ready","at":"…","customer_id":"…","data":{…}}
\`\`\`

\`id\` is the outbox sequence number. Resume after a disconnect with the \`Last-Event-ID\` header (or \`last_event_id\` query): every later event is sent, nothing is lost while disconnected. \`last_event_id=0\` replays from the start; without either, the stream starts with new events. A comment line \`: heartbeat <time>\` every \`heartbeat_s\` seconds (default 15) keeps proxies open. \`types\` filters by a comma-separated list of event types. Keys with stats:read also receive realtime statistics frames without an \`id:\` every \`stats_s\` seconds (default 5): \`event: stats.realtime\` with \`data:\` the answer of GET /v1/stats/realtime (\`{at, window_s, concurrent, by_content}\`); \`types\` without \`stats.realtime\` leaves them out. At most 10 streams per key (or studio session) and 100 per tenant are open at once (\`VS_EVENT_STREAMS_PER_KEY\`, \`VS_EVENT_STREAMS_PER_TENANT\`); past either the answer is 429 \`rate_limited\` with \`Retry-After\`.`;

/** GET /v1/events/stream: the tenant's events as server-sent events with resumption. */
export function eventRoutes(ctx: AppContext) {
  const open = new Set<() => void>();
  const caps = new StreamCaps(ctx.config.eventStreams.perKey, ctx.config.eventStreams.perTenant);
  ctx.onStop(() => { for (const c of open) c(); open.clear(); });
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/events/stream', ({ principal: p, query, request }) => {
      const raw = request.headers.get('last-event-id') ?? query.last_event_id;
      let after: number;
      if (raw === undefined || raw === null || raw === '') after = outboxHead(ctx.db);
      else if (/^\d{1,15}$/.test(raw.trim())) after = Number(raw.trim());
      else throw invalid('last_event_id', 'a non-negative integer (an earlier `id:`)');
      const hb = query.heartbeat_s === undefined ? 15 : Number(query.heartbeat_s);
      if (!Number.isInteger(hb) || hb < 1 || hb > 60) throw invalid('heartbeat_s', 'integer 1-60');
      const types = query.types ? new Set(query.types.split(',').map((s) => s.trim()).filter(Boolean)) : null;
      // Past the caps per key and per tenant: 429 with Retry-After (docs/security.md, "Stream caps").
      const release = caps.take(p.keyId, p.tenantId);
      const s = openEventStream(ctx.db, { tenantId: p.tenantId, after, types, heartbeatMs: hb * 1000, onClose: () => { release(); open.delete(s.close); }, extra: realtimeFrames(ctx, p, types, query.stats_s) });
      open.add(s.close);
      request.signal.addEventListener('abort', () => s.close(), { once: true });
      if (request.signal.aborted) s.close();
      return new Response(s.stream, {
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
      });
    }, {
      auth: { scope: 'events:read' },
      query: t.Object({
        last_event_id: t.Optional(t.String({ pattern: '^[0-9]{1,15}$', description: 'resume after this event id (like the `Last-Event-ID` header); 0 replays from the start' })),
        types: t.Optional(t.String({ maxLength: 2000, description: 'comma-separated event types to send' })),
        heartbeat_s: t.Optional(t.Integer({ minimum: 1, maximum: 60, description: 'seconds between heartbeat comments (default 15)' })),
        stats_s: t.Optional(t.Integer({ minimum: 1, maximum: 60, description: 'seconds between `stats.realtime` frames (default 5; sent to keys with stats:read)' })),
      }),
      detail: doc('Events', 'Event stream', 'זרם אירועים', DESCRIPTION, mediaAnswer(200, 'text/event-stream', t.String({ description: 'server-sent event frames (`id:`, `event:`, `data:` lines; `: heartbeat` comments)' }), 'the event stream (open until the client disconnects)')),
    });
}
