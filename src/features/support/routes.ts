import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { PageQuery } from '../meta/model';
import { CreateSupportBody, ReplyBody, SupportPage, SupportView } from './model';
import { SupportService } from './service';

const T = 'Support';
const Id = t.Object({ id: t.String() });
const READ = { scope: 'support:read' as const };
const WRITE = { scope: 'support:write' as const };

/** /v1/support/requests: open (at most 10 new per tenant per hour), list, read, reply, close. */
export function supportRoutes(ctx: AppContext) {
  const svc = new SupportService(ctx);
  return new Elysia({ prefix: '/v1/support/requests' })
    .use(ctx.http)
    .post('/', ({ principal: p, body, set }) => { set.status = 201; return svc.open(p, body, p.kind === 'session' ? 'studio' : 'api'); }, {
      auth: WRITE, body: CreateSupportBody, response: { 201: SupportView },
      detail: doc(T, 'Open a support request', 'פתיחת פנייה לתמיכה', '`subject`, `body` (the first message) and `category`. At most 10 new requests per tenant per hour; the 11th answers 429 with `Retry-After`.', { 'x-problems': [429] }),
    })
    .get('/', ({ principal: p, query }) => svc.list(p.tenantId, { status: query.status, limit: parseLimit(query.limit, 50, 200), cursor: query.cursor }), {
      auth: READ, query: t.Composite([PageQuery(), t.Object({ status: t.Optional(t.Union([t.Literal('open'), t.Literal('closed')])) })]), response: { 200: SupportPage },
      detail: doc(T, 'List support requests', 'רשימת פניות לתמיכה', 'Newest first; `status` keeps only `open` or `closed` requests.'),
    })
    .get('/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      auth: READ, params: Id, response: { 200: SupportView },
      detail: doc(T, 'Get a support request', 'קבלת פנייה לתמיכה', 'The request with its thread (`messages`, oldest first).'),
    })
    .post('/:id/replies', ({ principal: p, params, body }) => svc.reply(p, params.id, body.body), {
      auth: WRITE, params: Id, body: ReplyBody, response: { 200: SupportView },
      detail: doc(T, 'Reply to a support request', 'תגובה לפנייה', 'Adds a message to the thread; a closed request answers 409.'),
    })
    .post('/:id/close', ({ principal: p, params }) => svc.close(p, params.id), {
      auth: WRITE, params: Id, response: { 200: SupportView },
      detail: doc(T, 'Close a support request', 'סגירת פנייה', 'Marks the request closed; closing it again changes nothing.'),
    });
}
