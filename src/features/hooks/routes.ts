import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { CreateHookBody, CreatedHook, HookCallResult, HookView } from './model';
import { HookService } from './service';
import { answers, PageQuery } from '../meta/model';

const CALL_DOC = 'Called by the customer\'s content system; no API key. Headers: `X-VS-Timestamp` (Unix seconds, within 300 s), `X-VS-Delivery` (unique per call; a repeated id is ignored and answers the first result with `duplicate: true`) and `X-VS-Signature` with the hook secret, either `v2=<hex HMAC-SHA256 over timestamp + "." + delivery id + "." + raw body>` (recommended: the delivery id is signed too) or, like a webhook delivery, `sha256=<hex HMAC-SHA256 over timestamp + "." + raw body>`. The same signature sent again within the window under another `X-VS-Delivery` is a replay: nothing is done and the first call\'s result answers, with its `delivery_id` and `duplicate: true`. The JSON body is read with the hook\'s `mapping`; matched assets that are ready are published (`asset.published` is emitted). 401 for a bad signature or stale timestamp; body at most 1 MiB with Content-Length.';

/** /v1/inbound-hooks (management) and /v1/hooks/{hook_id} (signed calls). */
export function hookRoutes(ctx: AppContext) {
  const svc = new HookService(ctx);
  const limit = ctx.config.jsonBodyLimit;
  // Raw bodies of inbound hook calls, captured before the global JSON parser consumes the request (per app).
  const raw = new WeakMap<Request, Promise<string>>();
  return new Elysia({ prefix: '/v1' })
    .onRequest(({ request }) => {
      if (request.method !== 'POST' || !request.url.includes('/v1/hooks/')) return;
      const len = Number(request.headers.get('content-length') ?? NaN);
      if (Number.isFinite(len) && len <= limit && request.body) raw.set(request, request.clone().text().catch(() => ''));
    })
    .use(ctx.http)
    .post('/inbound-hooks', ({ principal: p, body, set }) => {
      set.status = 201;
      return svc.create(p.tenantId, body);
    }, {
      auth: { scope: 'webhooks:manage' }, body: CreateHookBody, response: { 201: CreatedHook },
      detail: doc('Webhooks', 'Create an inbound hook', 'יצירת hook נכנס',
        '`kind: cms_publish`. `mapping` says where the content system\'s JSON names the assets (`path`, with `*` for arrays) and whether the values are `external_id`s (default) or asset `id`s. The answer holds the `address` to call and the `secret` (`hksec_...`) once.'),
    })
    .get('/inbound-hooks', ({ principal: p, query }) => {
      const n = parseLimit(query.limit, 50, 200);
      const scope = `inbound-hooks:${p.tenantId}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return svc.list(p.tenantId, n, cursor, (rows) => ctx.cursors.page(scope, rows, n, svc.view));
    }, {
      auth: { scope: 'webhooks:manage' },
      query: PageQuery(),
      response: { 200: t.Object({ items: t.Array(HookView), next_cursor: t.Union([t.String(), t.Null()]) }) },
      detail: doc('Webhooks', 'List inbound hooks', 'רשימת hooks נכנסים', 'Newest first, with `secret_hint`.'),
    })
    .delete('/inbound-hooks/:id', ({ principal: p, params, set }) => {
      svc.remove(p.tenantId, params.id);
      set.status = 204;
      return null;
    }, {
      auth: { scope: 'webhooks:manage' }, params: t.Object({ id: t.String() }),
      detail: doc('Webhooks', 'Delete an inbound hook', 'מחיקת hook נכנס', 'Calls to its address answer 404 from now on.', answers({ 204: null })),
    })
    .post('/hooks/:hook_id', async ({ params, request }) => {
      const body = raw.get(request);
      if (!body) {
        if (!request.headers.get('content-length')) throw new AppError('bad_request', 'Content-Length is required');
        throw new AppError('payload_too_large', `body exceeds ${limit} bytes`);
      }
      return svc.call(params.hook_id, {
        timestamp: request.headers.get('x-vs-timestamp'), signature: request.headers.get('x-vs-signature'), delivery: request.headers.get('x-vs-delivery'),
      }, await body);
    }, {
      params: t.Object({ hook_id: t.String() }),
      response: { 200: HookCallResult },
      detail: doc('Webhooks', 'Inbound hook call', 'קריאת hook נכנס', CALL_DOC),
    });
}
