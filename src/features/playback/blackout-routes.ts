import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { answers, Cursor, Limit, Page } from '../meta/model';
import { BlackoutBody, BlackoutPatch, BlackoutView } from './blackout-model';
import { BlackoutService } from './blackouts';

const T = 'Playback';
const CREATE = `A geo blackout of a channel: viewers in (\`applies_to: in\`, the default) or outside (\`out\`) the listed
countries are refused, for a programme (\`programme_id\`: its air time from the guide), a window (\`starts_at\`,
\`ends_at\`; either may be left open) or always. It covers what aired in that time wherever it is watched: live while
the window runs, and catch-up, start-over and recorded segments of that time later. The country comes from the
configured MaxMind-format database (\`VS_GEOIP_COUNTRY_DB\`); a viewer whose country is unknown is refused by \`out\`
blackouts only. The session issuer refuses with 403 and \`x-vs-refusal: blackout\` (the player shows its blackout
slate), and so does the delivery gate, for every playlist and segment, before the edge cache. Emits \`policy.changed\`.
Country codes are ISO 3166-1 alpha-2 (422 naming each bad entry); a tenant keeps at most 1,000 blackouts (409).`;

/** Geo blackouts: channels:read to read, delivery:write to manage. */
export function blackoutRoutes(ctx: AppContext) {
  const svc = new BlackoutService(ctx);
  return new Elysia()
    .use(ctx.http)
    .get('/v1/blackouts', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const channel = query.channel ?? null;
      const scope = `blackouts:${p.tenantId}:${channel ?? ''}`;
      const rows = svc.rows(p.tenantId, channel, query.cursor ? ctx.cursors.decode(scope, query.cursor) : null, limit);
      return ctx.cursors.page(scope, rows, limit, (r) => svc.view(r));
    }, {
      auth: { scope: 'channels:read' },
      query: t.Object({ channel: t.Optional(t.String({ minLength: 1, maxLength: 100, description: 'only this channel (slug)' })), limit: Limit(200), cursor: Cursor }),
      detail: doc(T, 'List blackouts', 'רשימת האפלות', 'Newest first, optionally of one channel; `active_now` says whether each refuses viewers at this moment.', answers({ 200: Page(BlackoutView) })),
    })
    .post('/v1/blackouts', ({ principal: p, body, set }) => { set.status = 201; return svc.create(p.tenantId, body); }, {
      auth: { scope: 'delivery:write' }, body: BlackoutBody,
      detail: doc(T, 'Create a blackout', 'יצירת האפלה', CREATE, { 'x-problems': [404, 409, 422], ...answers({ 201: BlackoutView }) }),
    })
    .get('/v1/blackouts/:id', ({ principal: p, params }) => svc.one(p.tenantId, params.id), {
      auth: { scope: 'channels:read' }, params: t.Object({ id: t.String() }),
      detail: doc(T, 'Get a blackout', 'האפלה', 'One blackout of the tenant (404 for another tenant\'s).', answers({ 200: BlackoutView })),
    })
    .patch('/v1/blackouts/:id', ({ principal: p, params, body }) => svc.patch(p.tenantId, params.id, body), {
      auth: { scope: 'delivery:write' }, params: t.Object({ id: t.String() }), body: BlackoutPatch,
      detail: doc(T, 'Change a blackout', 'עדכון האפלה', 'Fields given replace the stored ones (`null` opens a window end); the next request is judged by the new rule. Emits `policy.changed`.', { 'x-problems': [404, 422], ...answers({ 200: BlackoutView }) }),
    })
    .delete('/v1/blackouts/:id', ({ principal: p, params, set }) => { svc.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: { scope: 'delivery:write' }, params: t.Object({ id: t.String() }),
      detail: doc(T, 'Delete a blackout', 'מחיקת האפלה', 'Viewers it refused may play again at once. Emits `policy.changed`.', answers({ 204: null })),
    });
}
