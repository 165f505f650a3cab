import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc, hidden } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { AssetSectionBody, AssignBody, AssignView, ConfigCreate, ConfigPatch, ConfigView, PublicConfig, SectionBody, SectionView } from './model';
import { PlayerConfigService, configView } from './configs';
import { PlayerResolver } from './resolve';
import { SectionService } from './library';
import { skinNames } from './skins';
import { publicJson } from './public-json';

const READ = { scope: 'assets:read', platform: true } as const;
const WRITE = { scope: 'delivery:write', platform: true } as const;
const SEC_WRITE = { scope: 'assets:write', platform: true } as const;
const Id = t.Object({ id: t.String({ maxLength: 64 }) });
const CONFIG_DOC = 'A named JSON document: skin, theme tokens, language, branding and logo, controls, playback defaults, live guide overlay, ads, beacon {enabled, heartbeat_s 5-120, default 15}, tile settings, embed.allowed_domains, version_pin. Invalid documents answer 422 with errors[]; an unknown field answers 400.';

/** Player configurations, assignments, library sections and the public configuration documents. */
export function playerConfigRoutes(ctx: AppContext) {
  const configs = new PlayerConfigService(ctx);
  const resolver = new PlayerResolver(ctx);
  const sections = new SectionService(ctx);
  return new Elysia()
    .use(ctx.http)
    .get('/v1/player-configs', ({ principal: p }) => ({ items: configs.list(p.tenantId) }), {
      auth: READ, detail: doc('Players', 'List player configurations', 'רשימת תצורות נגן', 'Newest first; everything.', answers({ 200: t.Object({ items: t.Array(ConfigView) }) })),
    })
    .get('/v1/player-configs/skins', () => ({ items: skinNames() }), {
      auth: READ, detail: doc('Players', 'List player skins', 'רשימת ערכות עיצוב לנגן', 'The seven named skins, then the 100 library skins.', answers({ 200: t.Object({ items: t.Array(t.String()) }) })),
    })
    .post('/v1/player-configs', ({ principal: p, body, set }) => { set.status = 201; return configs.create(p.tenantId, body); }, {
      auth: WRITE, body: ConfigCreate, detail: doc('Players', 'Create a player configuration', 'יצירת תצורת נגן', CONFIG_DOC, { ...answers({ 201: ConfigView }), 'x-problems': [409, 422] }),
    })
    .get('/v1/player-configs/:id', ({ principal: p, params }) => configView(configs.row(p.tenantId, params.id)), {
      auth: READ, params: Id, detail: doc('Players', 'Get a player configuration', 'תצורת נגן', 'One configuration.', answers({ 200: ConfigView })),
    })
    .patch('/v1/player-configs/:id', ({ principal: p, params, body }) => configs.patch(p.tenantId, params.id, body), {
      auth: WRITE, params: Id, body: ConfigPatch, detail: doc('Players', 'Change a player configuration', 'עדכון תצורת נגן', 'Top-level fields given replace the stored ones; the rest stay.', { ...answers({ 200: ConfigView }), 'x-problems': [409, 422] }),
    })
    .delete('/v1/player-configs/:id', ({ principal: p, params, set }) => { configs.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: WRITE, params: Id, detail: doc('Players', 'Delete a player configuration', 'מחיקת תצורת נגן', 'Its assignments go with it; the content falls back to the next, more general configuration.', answers({ 204: null })),
    })
    .get('/v1/player-config-assignments', ({ principal: p }) => ({ items: resolver.listAssignments(p.tenantId) }), {
      auth: READ, detail: doc('Players', 'List player configuration assignments', 'רשימת שיוכי תצורות נגן', 'Where each configuration applies.', answers({ 200: t.Object({ items: t.Array(AssignView) }) })),
    })
    .post('/v1/player-config-assignments', ({ principal: p, body, set }) => { set.status = 201; return resolver.assign(p.tenantId, body); }, {
      auth: WRITE, body: AssignBody,
      detail: doc('Players', 'Assign a player configuration', 'שיוך תצורת נגן', 'Targets: `tenant` (default), `live_default`, `library_default`, `section` (id), `channel` (id or slug), `asset` (id). Replaces what applied to that target. Resolution: channel, then live default, then tenant; asset, then section, then library default, then tenant.', { ...answers({ 201: AssignView }), 'x-problems': [422] }),
    })
    .delete('/v1/player-config-assignments/:id', ({ principal: p, params, set }) => { resolver.unassign(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: WRITE, params: Id, detail: doc('Players', 'Remove an assignment', 'הסרת שיוך תצורת נגן', 'The target falls back to the next, more general configuration.', answers({ 204: null })),
    })
    .get('/v1/library/sections', ({ principal: p }) => ({ items: sections.list(p.tenantId) }), {
      auth: READ, detail: doc('Library', 'List library sections', 'רשימת מדורי ספרייה', 'Everything, newest first, with asset counts.', answers({ 200: t.Object({ items: t.Array(SectionView) }) })),
    })
    .post('/v1/library/sections', ({ principal: p, body, set }) => { set.status = 201; return sections.create(p.tenantId, body.name); }, {
      auth: SEC_WRITE, body: SectionBody, detail: doc('Library', 'Create a library section', 'יצירת מדור ספרייה', 'Names are unique per tenant (409).', { ...answers({ 201: SectionView }), 'x-problems': [409] }),
    })
    .get('/v1/library/sections/:id', ({ principal: p, params }) => sections.get(p.tenantId, params.id), {
      auth: READ, params: Id, detail: doc('Library', 'Get a library section', 'מדור ספרייה', 'One section.', answers({ 200: SectionView })),
    })
    .patch('/v1/library/sections/:id', ({ principal: p, params, body }) => sections.rename(p.tenantId, params.id, body.name), {
      auth: SEC_WRITE, params: Id, body: SectionBody, detail: doc('Library', 'Rename a library section', 'שינוי שם מדור', 'Names are unique per tenant (409).', { ...answers({ 200: SectionView }), 'x-problems': [409] }),
    })
    .delete('/v1/library/sections/:id', ({ principal: p, params, set }) => { sections.remove(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: SEC_WRITE, params: Id, detail: doc('Library', 'Delete a library section', 'מחיקת מדור ספרייה', 'Its assets keep existing with `section_id` null; its player assignment goes.', answers({ 204: null })),
    })
    .put('/v1/assets/:id/section', ({ principal: p, params, body }) => sections.setAssetSection(p.tenantId, params.id, body.section_id), {
      auth: SEC_WRITE, params: Id, body: AssetSectionBody,
      detail: doc('Library', "Set an asset's section", 'קביעת מדור לנכס', '`section_id` null removes the asset from its section. An unknown section answers 422.', { ...answers({ 200: t.Object({ asset_id: t.String(), section_id: t.Union([t.String(), t.Null()]) }) }), 'x-problems': [422] }),
    })
    .get('/v1/assets/:id/section', ({ principal: p, params }) => {
      return { asset_id: params.id, section_id: sections.sectionOf(p.tenantId, params.id) };
    }, {
      auth: READ, params: Id, detail: doc('Library', "Get an asset's section", 'מדור של נכס', 'The `section_id` of the asset (null when none).', answers({ 200: t.Object({ asset_id: t.String(), section_id: t.Union([t.String(), t.Null()]) }) })),
    })
    .get('/player/config/:tenant', ({ params, request }) => {
      const m = /^([a-z0-9][a-z0-9-]{0,62})\.json$/.exec(params.tenant);
      return publicJson(request, m ? resolver.tenantDefault(m[1]) : resolver.tenant('\u0000'));
    }, { detail: doc('Players', 'Tenant default player configuration (public)', 'תצורת ברירת המחדל של הנגן (ציבורי)', 'No key. CORS *, cached 60 s, ETag with If-None-Match → 304. Built-in defaults fill what the document leaves out. CDN-only and unknown tenants answer 404.', answers({ 200: PublicConfig })) })
    .get('/player/config/:tenant/:file', ({ params, query, request }) => {
      if (params.file === 'resolve.json') return publicJson(request, resolver.resolve(params.tenant, String(query.kind ?? ''), String(query.id ?? '')));
      const m = /^([a-z0-9][a-z0-9_-]{0,62})\.json$/.exec(params.file);
      return publicJson(request, resolver.named(params.tenant, m ? m[1] : '\u0000'));
    }, {
      query: t.Object({ kind: t.Optional(t.String()), id: t.Optional(t.String()) }),
      detail: doc('Players', 'Named or resolved player configuration (public)', 'תצורת נגן לפי שם או לפי תוכן (ציבורי)', '`<name>.json` answers a named configuration; `resolve.json?kind=live|vod|clip&id=` answers the configuration applying to that content (channel, then live default, then tenant; asset, then section, then library default, then tenant) with `resolved_from` and title data. No key, CORS *, cached 60 s, ETag/304; unknown names and CDN-only tenants answer 404.', answers({ 200: PublicConfig })),
    })
    .options('/player/config/*', () => new Response(null, { status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-max-age': '600', 'access-control-allow-headers': 'if-none-match' } }), { detail: hidden });
}
