import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { invalid, notFound } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { newId } from '../../kernel/ids';
import { assertPublicUrl, BlockedAddressError } from '../../kernel/net/safe-fetch';
import { answers } from '../meta/model';
import { GuideService } from './service';
import { CreateSourceBody, FetchView, PatchSourceBody, SourceView, type PatchSource } from './sources-model';
import { fetchSourceNow, fetchView, sourceView } from './sources';
import { SourceStore, type SourceRow } from './sources-store';

const T = 'Guide';
const Id = t.Object({ id: t.String() });
const WRITE = { anyOf: ['channels:write', 'epg:write'] as ('channels:write' | 'epg:write')[], scope: null, platform: true };
const READ = { scope: 'channels:read' as const, platform: true };

const CREATE_DOC = `A channel's XMLTV document fetched every \`interval_minutes\` (the first fetch at once) through the safe fetcher
(20 MB, 30 s, private addresses refused unless allowlisted) with a conditional GET (\`If-None-Match\`, \`If-Modified-Since\`).
When the bytes changed, the programmes of the channel replace the range they cover: staged as a draft for review (publish with
POST .../guide/publish), or published at once as a version (kind \`source\`) with \`auto_publish\`. Every fetch is logged;
bad XML is logged as \`error\` with the reason and changes nothing. docs/guide-partners.md.`;

/** /v1/guide/sources: EPG sources of the tenant's channels, their fetch log and "fetch now". */
export function guideSourceRoutes(ctx: AppContext) {
  const store = new SourceStore(ctx.db);
  const guide = new GuideService(ctx);
  const row = (tenantId: string, id: string): SourceRow => { const s = store.get(tenantId, id); if (!s) throw notFound('EPG source'); return s; };
  const checkUrl = async (url: string) => {
    try { await assertPublicUrl(url, ctx.config.privateAllowlist); } catch (e) {
      throw invalid('url', e instanceof BlockedAddressError ? e.detail : 'cannot be resolved');
    }
  };
  const fields = async (b: PatchSource): Promise<Partial<SourceRow>> => {
    const f: Partial<SourceRow> = {};
    if (b.url !== undefined) { await checkUrl(b.url); f.url = b.url; f.etag = null; f.last_modified = null; f.content_hash = null; }
    if (b.xmltv_channel !== undefined) f.xmltv_channel = b.xmltv_channel;
    if (b.interval_minutes !== undefined) f.interval_s = b.interval_minutes * 60;
    if (b.auto_publish !== undefined) f.auto_publish = b.auto_publish ? 1 : 0;
    if (b.enabled !== undefined) f.enabled = b.enabled ? 1 : 0;
    return f;
  };
  return new Elysia({ prefix: '/v1/guide/sources' })
    .use(ctx.http)
    .get('/', ({ principal: p, query }) => ({ items: store.list(p.tenantId, query.channel_id).map(sourceView) }), {
      auth: READ, query: t.Object({ channel_id: t.Optional(t.String({ maxLength: 64 })) }),
      detail: doc(T, 'List EPG sources', 'רשימת מקורות EPG', 'The tenant\'s EPG sources (of one channel with `channel_id`) with their last fetch.', answers({ 200: t.Object({ items: t.Array(SourceView) }) })) })
    .post('/', async ({ principal: p, body, set }) => {
      const ch = guide.channel(p.tenantId, body.channel_id);
      await checkUrl(body.url);
      const now = ctx.clock.now();
      const id = newId();
      store.insert({
        id, tenant_id: p.tenantId, channel_id: ch.id, url: body.url, xmltv_channel: body.xmltv_channel ?? null, interval_s: (body.interval_minutes ?? 60) * 60,
        auto_publish: body.auto_publish ? 1 : 0, enabled: body.enabled === false ? 0 : 1, etag: null, last_modified: null, content_hash: null,
        next_fetch_at: now, last_fetch_at: null, last_status: null, last_error: null, created_at: now, updated_at: now,
      });
      set.status = 201;
      return sourceView(row(p.tenantId, id));
    }, { auth: WRITE, body: CreateSourceBody, detail: doc(T, 'Add an EPG source', 'הוספת מקור EPG', CREATE_DOC, { 'x-problems': [404, 422], ...answers({ 201: SourceView }) }) })
    .get('/:id', ({ principal: p, params }) => sourceView(row(p.tenantId, params.id)), {
      auth: READ, params: Id, detail: doc(T, 'Get an EPG source', 'מקור EPG', 'One source with its validators and last fetch.', { 'x-problems': [404], ...answers({ 200: SourceView }) }) })
    .patch('/:id', async ({ principal: p, params, body }) => {
      const s = row(p.tenantId, params.id);
      store.update(s.id, { ...(await fields(body)), updated_at: ctx.clock.now() });
      return sourceView(row(p.tenantId, s.id));
    }, { auth: WRITE, params: Id, body: PatchSourceBody, detail: doc(T, 'Change an EPG source', 'שינוי מקור EPG', 'A new `url` forgets the validators (the next fetch reads the whole document).', { 'x-problems': [404, 422], ...answers({ 200: SourceView }) }) })
    .delete('/:id', ({ principal: p, params, set }) => { store.delete(row(p.tenantId, params.id).id); set.status = 204; return null; }, {
      auth: WRITE, params: Id, detail: doc(T, 'Delete an EPG source', 'מחיקת מקור EPG', 'Deletes the source and its fetch log; the guide stays as it is.', { 'x-problems': [404], ...answers({ 204: null }) }) })
    .post('/:id/fetch', ({ principal: p, params }) => fetchSourceNow(ctx, row(p.tenantId, params.id)), {
      auth: WRITE, params: Id, detail: doc(T, 'Fetch an EPG source now', 'משיכת מקור EPG עכשיו', 'Fetches now (conditional GET), applies what changed as the schedule would, and answers the log entry (a failure is `status: error` with the reason). The next scheduled fetch is one interval later. 409 while the same source is being fetched.', { 'x-problems': [404, 409], ...answers({ 200: FetchView }) }) })
    .get('/:id/log', ({ principal: p, params, query }) => ({ items: store.logOf(row(p.tenantId, params.id).id, query.limit ?? 100).map(fetchView) }), {
      auth: READ, params: Id, query: t.Object({ limit: t.Optional(t.Integer({ minimum: 1, maximum: 500 })) }),
      detail: doc(T, 'EPG source fetch log', 'יומן משיכות של מקור EPG', 'Fetches, newest first (the newest 500 are kept).', { 'x-problems': [404], ...answers({ 200: t.Object({ items: t.Array(FetchView) }) }) }) });
}
