import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { managementJson } from '../../kernel/http/answer';
import type { Principal } from '../../kernel/http/auth';
import { parseLimit } from '../../kernel/http/pagination';
import { notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { CreateKeyBody, CreatedKey, KeyView, MeView } from './model';
import { IdentityService, identityService } from './service';
import { answers, PageQuery } from '../meta/model';
import { sessionMe } from '../people/me';
import { audit } from '../audit/service';

/** /v1/me and /v1/api-keys. */
export function identityRoutes(ctx: AppContext) {
  const svc = identityService(ctx);
  const cdnHost = new URL(ctx.config.cdnBaseUrl).host;
  const meCache = new WeakMap<object, string>();
  // A principal is immutable (cached per key or session until revoked or changed), so its answer is built once.
  // (A Blob body measured slower through Bun.serve than this string.)
  const meOf = (p: Principal): string => {
    if (p.kind === 'session') {
      const me = JSON.stringify(sessionMe(p, cdnHost));
      meCache.set(p, me);
      return me;
    }
    const tenant = { id: p.tenantId, slug: p.tenantSlug, name: p.tenantName, role: 'api_key', cdn_only: p.cdnOnly };
    const me = JSON.stringify({
      auth: 'api_key' as const, user: null, tenants: [tenant], current_tenant: { ...tenant, cdn_hostname: cdnHost },
      scopes: [...p.scopes], key: { id: p.keyId, name: '' },
    });
    meCache.set(p, me);
    return me;
  };
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/me', ({ principal: p, request }) => {
      const built = meCache.get(p);
      // Spelled as a choice, not `return f(...)`: Elysia reads that in a handler's source as maybe-async and then
      // compiles the route to answer through a promise (Bun's transpiler folds `const r = f(); return r` back to it).
      return built !== undefined ? managementJson(request, built) : managementJson(request, meOf(p));
    }, {
      auth: { scope: null },
      // Hot path: the answer shape is documented, not re-validated on every call.
      detail: doc('Identity', 'Who am I', 'מי אני', 'The caller and the tenant delivery host (`cdn_hostname`). With an API key: `user` is null, the key\'s tenant is `tenants[0]` and `current_tenant`, role `api_key`. With a studio session: the person, each membership with its role, the current tenant (null until chosen) and its role\'s scopes.', {
        responses: { 200: { description: 'the caller', content: { 'application/json': { schema: MeView } } } },
      }),
    })
    .post('/api-keys', ({ principal: p, body, set, request }) => {
      set.status = 201;
      const k = svc.createKey(p.tenantId, body, p);
      audit(ctx, { tenantId: p.tenantId, action: 'key.created', actor: p, request, target: k.id, details: { name: k.name, role: k.role, scopes: k.scopes } });
      return k;
    }, {
      auth: { scope: 'keys:manage' },
      body: CreateKeyBody,
      response: { 201: CreatedKey },
      detail: doc('Identity', 'Create an API key', 'יצירת מפתח API', 'Give `role` or `scopes`. The key cannot hold scopes the caller lacks. The full key is in this answer only; only its hash is stored.'),
    })
    .get('/api-keys', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `keys:${p.tenantId}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return svc.listKeys(p.tenantId, limit, cursor, (rows) => ctx.cursors.page(scope, rows, limit, IdentityService.view));
    }, {
      auth: { scope: 'keys:manage' },
      query: PageQuery(),
      response: { 200: t.Object({ items: t.Array(KeyView), next_cursor: t.Union([t.String(), t.Null()]) }) },
      detail: doc('Identity', 'List API keys', 'רשימת מפתחות API', 'Newest first; `limit` up to 200 (default 50).'),
    })
    .delete('/api-keys/:id', ({ principal: p, params, set, request }) => {
      if (!isUuid(params.id)) throw notFound('API key');
      svc.revokeKey(p.tenantId, params.id, p);
      audit(ctx, { tenantId: p.tenantId, action: 'key.revoked', actor: p, request, target: params.id });
      set.status = 204;
      return null;
    }, {
      auth: { scope: 'keys:manage' },
      params: t.Object({ id: t.String() }),
      detail: doc('Identity', 'Revoke an API key', 'ביטול מפתח API', 'The key answers 401 from its next request on. A key holding scopes the caller lacks answers 403; the tenant\'s last owner-level key cannot be revoked (409).', answers({ 204: null })),
    });
}
