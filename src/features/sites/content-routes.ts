import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { SiteService } from './service';
import { PageService } from './pages';
import { ContentService } from './content';
import { AnyObject, CreatePageBody, MenuBody, PatchPageBody, PatchPersonBody, PatchShowBody, PersonBody, RollbackBody, RouteBody, ScheduleBody, ShowBody } from './model';

const T = 'Sites';
const S = t.String({ maxLength: 64 });
const P = t.Object({ id: S, page: S });
const I = t.Object({ id: S, item: t.String({ maxLength: 200 }) });
const M = t.Object({ id: S, name: t.String({ maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }) });
const Id = t.Object({ id: S });
const List = t.Object({ items: t.Array(AnyObject) });

/** /v1/sites/{id}/pages|shows|people|menus|routes: the content of a site. */
export function siteContentRoutes(ctx: AppContext) {
  const sites = new SiteService(ctx);
  const pages = new PageService(sites);
  const content = new ContentService(sites);
  const site = (tenantId: string, id: string) => sites.get(tenantId, id).id;
  return new Elysia({ prefix: '/v1/sites/:id' })
    .use(ctx.http)
    .post('/pages', ({ principal: p, params, body, set }) => { set.status = 201; return pages.view(pages.create(p.tenantId, params.id, body)); }, {
      auth: { scope: 'sites:write' }, params: Id, body: CreatePageBody,
      detail: doc(T, 'Create a site page', 'יצירת עמוד באתר', 'A draft page at a `path` (409 when a page or route has it), or the template page of an entity type (`template_for`: show, video, programme, search, epg...). Sections: `hero`, `rail` (by `query` with `item_type`, or by hand with `items`), `live_player`, `epg`, `text`, `promo`. Nothing is public until published.', answers({ 201: AnyObject })) })
    .get('/pages', ({ principal: p, params }) => ({ items: sites.store.pages(site(p.tenantId, params.id)).map((r) => pages.view(pages.settle(r))) }), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'List site pages', 'רשימת עמודי האתר', 'Every page with its draft, live version and pending scheduled change.', answers({ 200: List })) })
    .get('/pages/:page', ({ principal: p, params }) => pages.view(pages.get(p.tenantId, params.id, params.page)), {
      auth: { scope: 'sites:read' }, params: P, detail: doc(T, 'Get a site page', 'עמוד באתר', 'Draft, live document, live version and schedule.', answers({ 200: AnyObject })) })
    .patch('/pages/:page', ({ principal: p, params, body }) => pages.view(pages.patch(p.tenantId, params.id, params.page, body)), {
      auth: { scope: 'sites:write' }, params: P, body: PatchPageBody,
      detail: doc(T, 'Edit a site page draft', 'עריכת טיוטת עמוד', 'Changes the draft (title, SEO, sections); the live page stays until published. `path` moves the page at once (409 when taken).', answers({ 200: AnyObject })) })
    .delete('/pages/:page', ({ principal: p, params, set }) => { pages.remove(p.tenantId, params.id, params.page); set.status = 204; return null; }, {
      auth: { scope: 'sites:publish' }, params: P, detail: doc(T, 'Delete a site page', 'מחיקת עמוד', 'The page and its versions.', answers({ 204: null })) })
    .post('/pages/:page/publish', ({ principal: p, params, body }) => pages.view(pages.publish(p.tenantId, params.id, params.page, body?.at, p)), {
      auth: { scope: 'sites:publish' }, params: P, body: t.Optional(ScheduleBody),
      detail: doc(T, 'Publish a site page', 'פרסום עמוד', 'Now: the draft becomes a new live version. With a future `at`: scheduled (the draft as it is now), replacing any pending change; until then the public answer\'s `s-maxage` ends at that moment.', answers({ 200: AnyObject })) })
    .post('/pages/:page/unpublish', ({ principal: p, params, body }) => pages.view(pages.unpublish(p.tenantId, params.id, params.page, body?.at, p)), {
      auth: { scope: 'sites:publish' }, params: P, body: t.Optional(ScheduleBody),
      detail: doc(T, 'Unpublish a site page', 'הסרת עמוד מפרסום', 'Now, or at a future `at` (scheduled). An unpublished page answers 404 publicly.', answers({ 200: AnyObject })) })
    .post('/pages/:page/review', ({ principal: p, params }) => pages.view(pages.requestReview(p.tenantId, params.id, params.page, p)), {
      auth: { scope: 'sites:write' }, params: P,
      detail: doc(T, 'Request a site page review', 'בקשת בדיקה לעמוד', 'Sends the draft as it is now for review: the page answers `review {requested_by, requested_by_name, requested_at}` (the name of a studio person; null for an API key) until a publisher publishes it (now or scheduled) or the request is withdrawn. Editing the draft withdraws the request (the reviewed draft is gone).', answers({ 200: AnyObject })) })
    .delete('/pages/:page/review', ({ principal: p, params }) => pages.view(pages.withdrawReview(p.tenantId, params.id, params.page)), {
      auth: { scope: 'sites:write' }, params: P, detail: doc(T, 'Withdraw a site page review request', 'ביטול בקשת בדיקה לעמוד', 'The pending review request is dropped (withdrawn by its author or declined by the reviewer); the draft stays.', answers({ 200: AnyObject })) })
    .delete('/pages/:page/schedule', ({ principal: p, params }) => pages.view(pages.cancelSchedule(p.tenantId, params.id, params.page)), {
      auth: { scope: 'sites:publish' }, params: P, detail: doc(T, 'Cancel a scheduled page change', 'ביטול שינוי מתוזמן בעמוד', 'The pending publish or unpublish is dropped.', answers({ 200: AnyObject })) })
    .get('/pages/:page/versions', ({ principal: p, params }) => pages.history(p.tenantId, params.id, params.page), {
      auth: { scope: 'sites:read' }, params: P, detail: doc(T, 'List site page versions', 'היסטוריית גרסאות העמוד', 'Published versions, newest first, with who published and which is live.', answers({ 200: List })) })
    .post('/pages/:page/rollback', ({ principal: p, params, body }) => pages.view(pages.rollback(p.tenantId, params.id, params.page, body.version, p)), {
      auth: { scope: 'sites:publish' }, params: P, body: RollbackBody,
      detail: doc(T, 'Roll back a site page', 'שחזור גרסת עמוד', 'Publishes an earlier version again (as a new version) and makes it the draft. Unknown version: 404.', answers({ 200: AnyObject })) })
    .post('/shows', ({ principal: p, params, body, set }) => { set.status = 201; return content.itemView(content.createItem(p, params.id, 'show', body)); }, {
      auth: { scope: 'sites:write' }, params: Id, body: ShowBody,
      detail: doc(T, 'Create a show', 'יצירת תוכנית', 'A series on the site: episodes from library assets (`episodes.assets`) and from catch-up programmes whose guide `series` matches (`episodes.series`, optionally one `channel`), people, podcast settings (feed at `/s/v1/{site}/podcast/{slug}/feed.xml`). `published` needs sites:publish. Slug taken: 409.', answers({ 201: AnyObject })) })
    .get('/shows', ({ principal: p, params }) => ({ items: sites.store.items(site(p.tenantId, params.id), 'show').map((r) => content.itemView(r)) }), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'List shows', 'רשימת תוכניות', 'Every show of the site.', answers({ 200: List })) })
    .get('/shows/:item', ({ principal: p, params }) => content.itemView(content.item(p.tenantId, params.id, 'show', params.item)), {
      auth: { scope: 'sites:read' }, params: I, detail: doc(T, 'Get a show', 'תוכנית', 'By id or slug.', answers({ 200: AnyObject })) })
    .patch('/shows/:item', ({ principal: p, params, body }) => content.itemView(content.patchItem(p, params.id, 'show', params.item, body)), {
      auth: { scope: 'sites:write' }, params: I, body: PatchShowBody, detail: doc(T, 'Change a show', 'שינוי תוכנית', 'The fields given; `published` needs sites:publish.', answers({ 200: AnyObject })) })
    .delete('/shows/:item', ({ principal: p, params, set }) => { content.removeItem(p.tenantId, params.id, 'show', params.item); set.status = 204; return null; }, {
      auth: { scope: 'sites:publish' }, params: I, detail: doc(T, 'Delete a show', 'מחיקת תוכנית', 'The show leaves the site (its assets and programmes stay).', answers({ 204: null })) })
    .post('/people', ({ principal: p, params, body, set }) => { set.status = 201; return content.itemView(content.createItem(p, params.id, 'person', body)); }, {
      auth: { scope: 'sites:write' }, params: Id, body: PersonBody,
      detail: doc(T, 'Create a person', 'יצירת איש צוות', 'A presenter or contributor shown on the site (`/person/{slug}`); `published` needs sites:publish. Slug taken: 409.', answers({ 201: AnyObject })) })
    .get('/people', ({ principal: p, params }) => ({ items: sites.store.items(site(p.tenantId, params.id), 'person').map((r) => content.itemView(r)) }), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'List people', 'רשימת אנשי צוות', 'Every person of the site.', answers({ 200: List })) })
    .patch('/people/:item', ({ principal: p, params, body }) => content.itemView(content.patchItem(p, params.id, 'person', params.item, body)), {
      auth: { scope: 'sites:write' }, params: I, body: PatchPersonBody, detail: doc(T, 'Change a person', 'שינוי איש צוות', 'The fields given; `published` needs sites:publish.', answers({ 200: AnyObject })) })
    .delete('/people/:item', ({ principal: p, params, set }) => { content.removeItem(p.tenantId, params.id, 'person', params.item); set.status = 204; return null; }, {
      auth: { scope: 'sites:publish' }, params: I, detail: doc(T, 'Delete a person', 'מחיקת איש צוות', 'The person leaves the site.', answers({ 204: null })) })
    .put('/menus/:name', ({ principal: p, params, body }) => content.putMenu(p.tenantId, params.id, params.name, body.items), {
      auth: { scope: 'sites:write' }, params: M, body: MenuBody, detail: doc(T, 'Edit a menu draft', 'עריכת טיוטת תפריט', 'The draft items of a named menu (e.g. `main`, `footer`); created on first edit. Public once published.', answers({ 200: AnyObject })) })
    .get('/menus', ({ principal: p, params }) => ({ items: sites.store.items(site(p.tenantId, params.id), 'menu').map((r) => content.menuView(r)) }), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'List menus', 'רשימת תפריטים', 'Every menu with its draft and live items.', answers({ 200: List })) })
    .post('/menus/:name/publish', ({ principal: p, params }) => content.publishMenu(p.tenantId, params.id, params.name), {
      auth: { scope: 'sites:publish' }, params: M, detail: doc(T, 'Publish a menu', 'פרסום תפריט', 'The draft items go live (`/config`).', answers({ 200: AnyObject })) })
    .post('/routes', ({ principal: p, params, body, set }) => { set.status = 201; return content.routeView(content.addRoute(p.tenantId, params.id, body)); }, {
      auth: { scope: 'sites:admin' }, params: Id, body: RouteBody,
      detail: doc(T, 'Add a site route', 'הוספת נתיב לאתר', 'The route table: `kind: route` maps a path (`:param` segments allowed) to a page; `kind: redirect` sends a path elsewhere (301 default). A path a page or route has: 409.', answers({ 201: AnyObject })) })
    .get('/routes', ({ principal: p, params }) => ({ items: sites.store.routes(site(p.tenantId, params.id)).map((r) => content.routeView(r)) }), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'List site routes', 'רשימת נתיבי האתר', 'The route table and redirects, oldest first.', answers({ 200: List })) })
    .delete('/routes/:item', ({ principal: p, params, set }) => { content.removeRoute(p.tenantId, params.id, params.item); set.status = 204; return null; }, {
      auth: { scope: 'sites:admin' }, params: I, detail: doc(T, 'Delete a site route', 'מחיקת נתיב', 'The path stops resolving to it.', answers({ 204: null })) });
}
