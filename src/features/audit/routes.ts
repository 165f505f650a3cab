import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { Page, PageQuery } from '../meta/model';
import { AuditStore } from './store';
import { auditView } from './service';
import { AuditEntryView } from './model';

/** GET /v1/audit: the tenant's audit log for admins. */
export function auditRoutes(ctx: AppContext) {
  const store = new AuditStore(ctx.db);
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/audit', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `audit:${p.tenantId}:${query.action ?? ''}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return ctx.cursors.page(scope, store.list(p.tenantId, cursor, limit, query.action ?? null), limit, auditView);
    }, {
      auth: { scope: 'team:manage' },
      query: t.Composite([PageQuery(), t.Object({ action: t.Optional(t.String({ maxLength: 64, description: 'only entries of this action, e.g. `key.created`' })) })]),
      response: { 200: Page(AuditEntryView) },
      detail: doc('Team', 'Read the audit log', 'קריאת יומן הביקורת', 'Newest first; `limit` up to 200 (default 50). Actions: `key.created`, `key.revoked`, `member.added`, `member.removed`, `member.role_changed`, `invitation.created`, `invitation.revoked`, `settings.changed`, `connect.approved`, `connect.disconnected`, `signin.failed`, `signin.throttled`, `password.reset`, `password.reset_sent`, `asset.published`, `asset.unpublished`, `asset.trashed`, `asset.restored`, `asset.purged`, `asset.trash_emptied`, `asset.poster_changed`, `programme.to_library`, `guide.published`, `guide.rolled_back`, `guide.changed`, `channel.started`, `channel.stopped`, and others later (an open set). A role change names the member (`details.email`, `details.name`) and the roles before and after (`details.from`, `details.to`). Each entry names its actor (a user, an API key, or anonymous with the e-mail tried), the client IP and the time.'),
    });
}
