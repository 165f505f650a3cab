/** GET/PATCH /v1/channels/{id}/input-checks: a channel's input monitoring (issue 48). */
import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { ChannelService } from './service';
import { InputChecksService } from './input-checks-service';
import { InputChecksPatchBody, InputChecksView } from './input-checks-model';
import { INPUT_CHECKS_DOC } from './input-checks-doc';

const Id = t.Object({ id: t.String() });

/** The input-check routes of channels. */
export function inputCheckRoutes(ctx: AppContext) {
  const channels = new ChannelService(ctx);
  const svc = new InputChecksService(ctx);
  const channel = (tenantId: string, id: string) => { if (!isUuid(id)) throw notFound('channel'); return channels.get(tenantId, id); };
  return new Elysia({ prefix: '/v1/channels' })
    .use(ctx.http)
    .get('/:id/input-checks', ({ principal: p, params }) => svc.get(channel(p.tenantId, params.id).id), {
      auth: { scope: 'channels:read', platform: true }, params: Id, response: { 200: InputChecksView },
      detail: doc('Live channels', 'Read input checks', 'קריאת בדיקות האות', INPUT_CHECKS_DOC.get),
    })
    .patch('/:id/input-checks', ({ principal: p, params, body }) => svc.patch(p.tenantId, channel(p.tenantId, params.id).id, body), {
      auth: { scope: 'channels:write', platform: true }, params: Id, body: InputChecksPatchBody, response: { 200: InputChecksView },
      detail: doc('Live channels', 'Change input checks', 'שינוי בדיקות האות', INPUT_CHECKS_DOC.patch),
    });
}
