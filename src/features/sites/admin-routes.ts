import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { requireScope } from '../../kernel/http/auth';
import { answers } from '../meta/model';
import { SiteService } from './service';
import { DomainService, domainView } from './domains';
import { AnyObject, CreateSiteBody, DomainBody, PatchSiteBody, PreviewBody, ThemeBody, VerifyBody } from './model';

const T = 'Sites';
const Id = t.Object({ id: t.String({ maxLength: 64 }) });
const List = t.Object({ items: t.Array(AnyObject) });

/** /v1/sites: sites, their settings and theme, custom domains with verification, preview tokens. */
export function siteAdminRoutes(ctx: AppContext) {
  const svc = new SiteService(ctx);
  const domains = new DomainService(svc);
  const port = () => ctx.config.sites.verifyHttpPort;
  return new Elysia({ prefix: '/v1/sites' })
    .use(ctx.http)
    .post('/', ({ principal: p, body, set }) => { set.status = 201; return svc.view(svc.create(p.tenantId, body)); }, {
      auth: { scope: 'sites:admin' }, body: CreateSiteBody,
      detail: doc(T, 'Create a site', 'יצירת אתר', 'A public website of the tenant, read by its front end at `/s/v1/{slug}`. The slug is unique on the appliance (409 when taken); time zone default Asia/Jerusalem; `settings`: SEO defaults, player settings `{tenant, config, cdn_hostname}`, guide channels, scripts, consent, accessibility, dictionary, AI crawler mode.', answers({ 201: AnyObject })) })
    .get('/', ({ principal: p }) => ({ items: svc.store.sites(p.tenantId, 0, 1000).map((s) => svc.view(s)) }), {
      auth: { scope: 'sites:read' }, detail: doc(T, 'List sites', 'רשימת אתרים', 'Every site of the tenant, oldest first.', answers({ 200: List })) })
    .get('/:id', ({ principal: p, params }) => svc.view(svc.get(p.tenantId, params.id)), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'Get a site', 'אתר', 'Settings, theme (draft and live), domains and the delivery address.', answers({ 200: AnyObject })) })
    .patch('/:id', ({ principal: p, params, body }) => svc.view(svc.patch(p.tenantId, params.id, body)), {
      auth: { scope: 'sites:admin' }, params: Id, body: PatchSiteBody,
      detail: doc(T, 'Change a site', 'שינוי אתר', 'Name, status (`suspended`: every public read answers 404), time zone, and settings keys (each key given replaces the stored one).', answers({ 200: AnyObject })) })
    .delete('/:id', ({ principal: p, params, set }) => { svc.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: { scope: 'sites:admin' }, params: Id, detail: doc(T, 'Delete a site', 'מחיקת אתר', 'The site with its pages, shows, people, menus, routes, domains and preview tokens.', answers({ 204: null })) })
    .put('/:id/theme', ({ principal: p, params, body }) => {
      if (body.css !== undefined) requireScope(p, 'sites:admin');
      return svc.setTheme(p.tenantId, params.id, body);
    }, { auth: { scope: 'sites:write' }, params: Id, body: ThemeBody,
      detail: doc(T, 'Edit the site theme draft', 'עריכת טיוטת ערכת העיצוב', 'Design tokens (sites:write) and extra CSS (sites:admin) of the draft theme; the public site keeps the live theme until it is published.', answers({ 200: AnyObject })) })
    .post('/:id/theme/publish', ({ principal: p, params }) => svc.publishTheme(p.tenantId, params.id), {
      auth: { scope: 'sites:publish' }, params: Id, detail: doc(T, 'Publish the site theme', 'פרסום ערכת העיצוב', 'The draft theme becomes the live one (`/config`).', answers({ 200: AnyObject })) })
    .post('/:id/domains', ({ principal: p, params, body, set }) => { set.status = 201; return domainView(domains.add(p.tenantId, params.id, body.hostname), port()); }, {
      auth: { scope: 'sites:admin' }, params: Id, body: DomainBody,
      detail: doc(T, 'Add a site domain', 'הוספת דומיין לאתר', 'A custom host name, pending until verified: serve the token at `http://<host>/.well-known/viewstream-site.txt` or publish TXT `_viewstream.<host>` = `viewstream-site=<token>`, then call verify. A host name of another site: 409.', answers({ 201: AnyObject })) })
    .get('/:id/domains', ({ principal: p, params }) => ({ items: svc.store.domains(svc.get(p.tenantId, params.id).id).map((d) => domainView(d, port())) }), {
      auth: { scope: 'sites:read' }, params: Id, detail: doc(T, 'List site domains', 'רשימת הדומיינים של אתר', 'With their verification token and state.', answers({ 200: List })) })
    .post('/:id/domains/:hostname/verify', async ({ principal: p, params, body }) => domainView(await domains.verify(p.tenantId, params.id, params.hostname, body?.method ?? 'http'), port()), {
      auth: { scope: 'sites:admin' }, params: t.Object({ id: t.String({ maxLength: 64 }), hostname: t.String({ maxLength: 253 }) }), body: t.Optional(VerifyBody),
      detail: doc(T, 'Verify a site domain', 'אימות דומיין של אתר', 'Checks the token over HTTP (default) or in DNS (`method: txt`). Found: the domain is verified (CORS and `/s/v1/_host` accept it). Not found: 422 saying what was read. A host name resolving to a private address is refused unless allowed (VS_PRIVATE_ALLOWLIST).', answers({ 200: AnyObject })) })
    .delete('/:id/domains/:hostname', ({ principal: p, params, set }) => { domains.remove(p.tenantId, params.id, params.hostname); set.status = 204; return null; }, {
      auth: { scope: 'sites:admin' }, params: t.Object({ id: t.String({ maxLength: 64 }), hostname: t.String({ maxLength: 253 }) }),
      detail: doc(T, 'Remove a site domain', 'הסרת דומיין מאתר', 'The host name no longer maps to the site.', answers({ 204: null })) })
    .post('/:id/preview-tokens', ({ principal: p, params, body, set }) => { set.status = 201; return svc.createPreview(p.tenantId, params.id, body ?? {}); }, {
      auth: { scope: 'sites:write' }, params: Id, body: t.Optional(PreviewBody),
      detail: doc(T, 'Create a preview token', 'יצירת אסימון תצוגה מקדימה', 'A token (shown once) that opens the drafts of the site, or of one page, with `?preview=` on `/s/v1/{site}/pages/{id}` until it expires (default 1 hour, at most 7 days). Such answers are `private, no-store`.', answers({ 201: AnyObject })) })
    .delete('/:id/preview-tokens/:token_id', ({ principal: p, params, set }) => { svc.revokePreview(p.tenantId, params.id, params.token_id); set.status = 204; return null; }, {
      auth: { scope: 'sites:write' }, params: t.Object({ id: t.String({ maxLength: 64 }), token_id: t.String({ maxLength: 64 }) }),
      detail: doc(T, 'Revoke a preview token', 'ביטול אסימון תצוגה מקדימה', 'The token stops opening drafts at once.', answers({ 204: null })) });
}
