import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { DistributionCreate, DistributionList, DistributionPatch, DistributionView } from './distributions-model';
import { DistributionService } from './distributions';

const T = 'CDN';
const Id = t.Object({ id: t.String({ maxLength: 64 }) });
const read = { scope: null, anyOf: ['stats:read', 'delivery:write'] as ('stats:read' | 'delivery:write')[] };
const write = { scope: 'delivery:write' as const };

const CREATE = 'Hostnames the edge serves for this tenant and their origin: `{kind: "url", url}` (an external origin; the only kind for CDN-only tenants; private and loopback addresses are refused unless the operator allows them with VS_CDN_ORIGIN_ALLOW) or `{kind: "delivery"}` (the tenant\'s own playback paths, gate and cache unchanged). `cache_rules` (external origins): TTL overrides per path pattern (first match wins), a default TTL for answers without cache headers, the query string in the cache key (`include`, `ignore`, `allow_list`). `allowed_methods`: others answer 405; only GET and HEAD are cached. `tls`: paths of a PEM certificate and its key, checked readable and matching, used by the edge\'s TLS port (`VS_CDN_TLS_PORT`), never answered. A hostname held by any other distribution answers 409. The edge is reconfigured (nginx reloaded) before the answer. Usage: `GET /v1/stats/cdn` (`distributions`). Cached objects are purged with `POST /v1/purge` (urls, prefix, tag).';

/** /v1/cdn/distributions (issue 46; docs/edge.md): read with stats:read or delivery:write, change with delivery:write. */
export function distributionRoutes(ctx: AppContext) {
  const svc = new DistributionService(ctx);
  return new Elysia({ prefix: '/v1/cdn/distributions' })
    .use(ctx.http)
    .get('/', ({ principal: p }) => svc.list(p.tenantId), {
      auth: read,
      detail: doc(T, 'List CDN distributions', 'רשימת הפצות CDN', 'Every distribution of the tenant, oldest first.', answers({ 200: DistributionList })),
    })
    .post('/', async ({ principal: p, body, set }) => { const r = await svc.create(p, body); set.status = 201; return r; }, {
      auth: write, body: DistributionCreate,
      detail: doc(T, 'Create a CDN distribution', 'יצירת הפצת CDN', CREATE, { 'x-problems': [409, 422], ...answers({ 201: DistributionView }) }),
    })
    .get('/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      auth: read, params: Id,
      detail: doc(T, 'Get a CDN distribution', 'הפצת CDN', 'One distribution; `tls` shows the certificate\'s names and expiry (never the files\' content).', { 'x-problems': [404], ...answers({ 200: DistributionView }) }),
    })
    .patch('/:id', ({ principal: p, params, body }) => svc.update(p, params.id, body), {
      auth: write, params: Id, body: DistributionPatch,
      detail: doc(T, 'Change a CDN distribution', 'שינוי הפצת CDN', 'The fields given replace the stored ones, checked as on creation (`enabled: false` takes the hostnames off the edge: they answer 421). The edge is reconfigured before the answer.', { 'x-problems': [404, 409, 422], ...answers({ 200: DistributionView }) }),
    })
    .delete('/:id', async ({ principal: p, params, set }) => { await svc.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: write, params: Id,
      detail: doc(T, 'Delete a CDN distribution', 'מחיקת הפצת CDN', 'Its hostnames leave the edge (cached objects age out or are purged).', { 'x-problems': [404], ...answers({ 204: null }) }),
    });
}
