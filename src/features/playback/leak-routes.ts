import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { answers, Cursor, Limit, Page } from '../meta/model';
import type { Gate } from './gate';
import { LeakService, watchLeaks } from './leaks';

const T = 'Playback';
const At = t.String({ format: 'date-time' });
const Hit = t.Object({ hash: t.String(), country: t.Union([t.String(), t.Null()]), asn: t.Union([t.Integer(), t.Null()]), first_seen: At, last_seen: At, requests: t.Integer(), user_agents: t.Array(t.String()) });
/** A leak suspicion as the API shows it. */
const LeakView = t.Object({
  id: t.String(), sid: t.String({ description: 'the playback session (`sid` of its token answer)' }),
  status: t.Union([t.Literal('open'), t.Literal('dismissed'), t.Literal('revoked')]),
  target_kind: t.String(), target_id: t.String(),
  asset: t.Optional(t.String()), clip: t.Optional(t.String()), channel: t.Optional(t.String()),
  policy_id: t.Union([t.String(), t.Null()]), reason: t.String(),
  evidence: t.Object({
    window_s: t.Integer(),
    limits: t.Object({ max_addresses: t.Integer(), max_networks: t.Integer(), max_countries: t.Integer() }),
    counts: t.Object({ addresses: t.Integer(), networks: t.Integer(), countries: t.Integer(), requests: t.Integer() }),
    addresses: t.Array(Hit, { description: 'viewer addresses as keyed hashes (never the address), with country, ASN and user agents' }),
    asns: t.Array(t.Integer()), countries: t.Array(t.String()), user_agents: t.Array(t.String()),
  }),
  auto_revoked: t.Boolean(), detected_at: At, updated_at: At, resolved_at: t.Union([At, t.Null()]), resolved_by: t.Union([t.String(), t.Null()]),
});
const Id = t.Object({ id: t.String() });

const LIST = `Playback sessions seen from more viewer addresses (an IPv6 one by its /64), networks (ASNs) or countries
than the \`leaks\` limits of their policy allow within its window (\`max_addresses\`, \`max_networks\`,
\`max_countries\`, \`window_s\`), newest first; \`status\` filters (open, dismissed, revoked). The evidence names
addresses only as keyed hashes, with their countries, ASNs (from the configured MaxMind-format databases), user
agents and request counts; it grows while the suspicion is open. Each new suspicion fires \`security.leak_suspected\`;
with \`auto_revoke\` the session is revoked at once (\`security.revoked\`).`;

/** Leak suspicions (stats:read to read, security:manage to dismiss and revoke); starts the leak watch on `gate`. */
export function leakRoutes(ctx: AppContext, gate: Gate) {
  watchLeaks(ctx, gate);
  const svc = new LeakService(ctx);
  return new Elysia()
    .use(ctx.http)
    .get('/v1/leaks', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const status = query.status ?? null;
      const scope = `leaks:${p.tenantId}:${status ?? ''}`;
      const rows = svc.rows(p.tenantId, status, query.cursor ? ctx.cursors.decode(scope, query.cursor) : null, limit);
      return ctx.cursors.page(scope, rows, limit, (r) => svc.view(r));
    }, {
      auth: { scope: 'stats:read' },
      query: t.Object({ status: t.Optional(t.Union([t.Literal('open'), t.Literal('dismissed'), t.Literal('revoked')])), limit: Limit(200), cursor: Cursor }),
      detail: doc(T, 'List leaks', 'רשימת חשדות לדליפה', LIST, answers({ 200: Page(LeakView) })),
    })
    .get('/v1/leaks/:id', ({ principal: p, params }) => svc.one(p.tenantId, params.id), {
      auth: { scope: 'stats:read' }, params: Id,
      detail: doc(T, 'Get a leak', 'חשד לדליפה', 'One suspicion with its evidence (404 for another tenant\'s).', answers({ 200: LeakView })),
    })
    .post('/v1/leaks/:id/dismiss', ({ principal: p, params }) => svc.dismiss(p.tenantId, params.id, p.keyId), {
      auth: { scope: 'security:manage' }, params: Id,
      detail: doc(T, 'Dismiss a leak', 'דחיית חשד לדליפה', 'Marks an open suspicion as not a leak (the session keeps playing and is not reported again). 409 when it is not open.', { 'x-problems': [404, 409], ...answers({ 200: LeakView }) }),
    })
    .post('/v1/leaks/:id/revoke', ({ principal: p, params }) => svc.revoke(p.tenantId, params.id, p.keyId), {
      auth: { scope: 'security:manage' }, params: Id,
      detail: doc(T, 'Revoke a leaked session', 'ביטול הפעלה שדלפה', 'Revokes the suspicion\'s playback session: its next request is refused on every path and every process (as POST /v1/security/revocations), `security.revoked` fires. 409 when already revoked.', { 'x-problems': [404, 409], ...answers({ 200: LeakView }) }),
    });
}
