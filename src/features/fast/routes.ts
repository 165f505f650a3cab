import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { parseTime } from '../guide/service';
import { audit } from '../audit/service';
import { FAST_DOC } from './doc';
import { FastView, PreviewQuery, PreviewView, PutFastBody } from './model';
import { FastService } from './service';

const T = 'Live channels';
const Id = t.Object({ id: t.String() });

/** /v1/channels/{id}/fast: a channel's FAST schedule (create or replace, read, delete) and its preview. */
export function fastRoutes(ctx: AppContext) {
  const svc = new FastService(ctx);
  return new Elysia({ prefix: '/v1/channels/:id/fast' })
    .use(ctx.http)
    .put('/', async ({ principal: p, params, body, set, request }) => {
      const { row, created } = await svc.put(p.tenantId, params.id, body);
      set.status = created ? 201 : 200;
      audit(ctx, { tenantId: p.tenantId, action: created ? 'fast.created' : 'fast.changed', actor: p, request, target: params.id, details: { version: row.version } });
      return svc.view(row);
    }, {
      auth: { scope: 'channels:write', platform: true }, params: Id, body: PutFastBody,
      detail: doc(T, 'Put a FAST schedule', 'קביעת לוח FAST', FAST_DOC.put, { operationId: 'putFastSchedule', 'x-problems': [400, 403, 404, 422], ...answers({ 200: FastView, 201: FastView }) }),
    })
    .get('/', ({ principal: p, params }) => svc.view(svc.schedule(svc.channel(p.tenantId, params.id))), {
      auth: { scope: 'channels:read', platform: true }, params: Id,
      detail: doc(T, 'Get a FAST schedule', 'לוח FAST', FAST_DOC.get, { operationId: 'getFastSchedule', 'x-problems': [403, 404], ...answers({ 200: FastView }) }),
    })
    .delete('/', async ({ principal: p, params, set, request }) => {
      await svc.remove(p.tenantId, params.id);
      audit(ctx, { tenantId: p.tenantId, action: 'fast.deleted', actor: p, request, target: params.id, details: {} });
      set.status = 204;
      return null;
    }, {
      auth: { scope: 'channels:write', platform: true }, params: Id,
      detail: doc(T, 'Delete a FAST schedule', 'מחיקת לוח FAST', FAST_DOC.delete, { operationId: 'deleteFastSchedule', 'x-problems': [403, 404], ...answers({ 204: null }) }),
    })
    .get('/preview', ({ principal: p, params, query }) => svc.preview(p.tenantId, params.id, query.from ? parseTime('from', query.from) : ctx.clock.now(), query.hours ?? 6), {
      auth: { scope: 'channels:read', platform: true }, params: Id, query: PreviewQuery,
      detail: doc(T, 'Preview a FAST schedule', 'תצוגה מקדימה של לוח FAST', FAST_DOC.preview, { operationId: 'previewFastSchedule', 'x-problems': [403, 404, 409, 422], ...answers({ 200: PreviewView }) }),
    });
}
