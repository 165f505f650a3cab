import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { requireScope } from '../../kernel/http/auth';
import { ClipView, CreateClipBody } from './model';
import { answers, Page, PageQuery } from '../meta/model';
import { ClipService } from './service';

const T = 'Clips';
const Id = t.Object({ id: t.String() });

/** /v1/clips: cut (segment or frame precision), list, get, delete (the `clip` playback target: targets.ts). */
export function clipRoutes(ctx: AppContext) {
  const svc = new ClipService(ctx);
  return new Elysia({ prefix: '/v1/clips' })
    .use(ctx.http)
    .post('/', ({ principal: p, body, set }) => {
      if (body.publish !== undefined) requireScope(p, 'clips:publish');
      set.status = 201;
      return svc.view(svc.create(p.tenantId, body), p.tenantSlug);
    }, { auth: { scope: 'clips:write', platform: true }, body: CreateClipBody,
      detail: doc(T, 'Cut a clip', 'חיתוך קליפ', 'From a channel\'s recording; range at most 6 hours. `precision: segment` (default) is `ready` at once: a playlist over the recorded segments, nearest segment boundaries, expiring with the recording retention (`expires_at`; afterwards playback answers 410). `precision: frame` is `finalizing` until a job cuts it exactly (inner GOPs copied, only the edges re-encoded) and stores it apart from the recording: then `final` (`clip.ready` then `clip.final`). Nothing recorded in the range: 422 `start_at`; `asset_id`: 422 (not implemented); `publish` needs `clips:publish` and stores nothing.', answers({ 201: ClipView })) })
    .get('/', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `clips:${p.tenantId}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return ctx.cursors.page(scope, svc.store.list(p.tenantId, cursor, limit, query.channel_id), limit, (r) => svc.view(r, p.tenantSlug));
    }, { auth: { scope: 'clips:read', platform: true }, query: t.Composite([PageQuery(), t.Object({ channel_id: t.Optional(t.String({ description: 'only clips of this channel' })) })]),
      detail: doc(T, 'List clips', 'רשימת קליפים', 'Newest first; `limit` up to 200 (default 50); optional `channel_id`.', answers({ 200: Page(ClipView) })) })
    .get('/:id', ({ principal: p, params }) => svc.view(svc.get(p.tenantId, params.id), p.tenantSlug), {
      auth: { scope: 'clips:read', platform: true }, params: Id, detail: doc(T, 'Get a clip', 'קליפ', 'With `playback.hls`; `expired` is true once retention removed the recording under a segment-precision clip.', answers({ 200: ClipView })) })
    .delete('/:id', async ({ principal: p, params, set }) => { await svc.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: { scope: 'clips:write', platform: true }, params: Id, detail: doc(T, 'Delete a clip', 'מחיקת קליפ', 'A final clip\'s files are removed too.', answers({ 204: null })) });
}
