import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError, invalid } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { SectionService } from '../player/library';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { AssetPage, AssetView, CreateAssetBody, PatchAssetBody, TrashSettings } from './model';
import { AssetService } from './service';
import { AssetStore } from './store';
import { ftsQuery } from './search';
import { assetsWithCues } from '../subtitles/search';
import { assetSearchMatch } from '../subtitles/search-assets';
import { assetView } from './view';
import { answers, PageQuery } from '../meta/model';
import { audit } from '../audit/service';

const ListQuery = t.Composite([PageQuery(), t.Object({
  q: t.Optional(t.String({ minLength: 2, maxLength: 100, description: 'search text, 2-100 characters' })),
  section: t.Optional(t.String({ maxLength: 64, description: 'a library section id (only its assets), or `none` (assets in no section)' })),
})]);
const IdParams = t.Object({ id: t.String() });

/**
 * The `section` list filter: undefined (no filter), null (`none`: assets in no section) or a section id of the
 * tenant; a malformed value answers 422, another tenant's or an unknown section 404.
 */
function sectionFilter(ctx: AppContext, tenantId: string, section: string | undefined): string | null | undefined {
  if (section === undefined) return undefined;
  if (section === 'none') return null;
  if (!isUuid(section)) throw invalid('section', 'a library section id or `none`');
  new SectionService(ctx).get(tenantId, section);
  return section;
}

/** /v1/assets: create, list and search, read, edit, trash, restore, purge, trash retention. */
export function assetRoutes(ctx: AppContext) {
  const svc = new AssetService(ctx);
  const view = (a: Parameters<typeof assetView>[1]) => assetView(ctx, a);
  const page = (tenantId: string, query: { q?: string; section?: string; limit?: number; cursor?: string }, trash: boolean) => {
    const limit = parseLimit(query.limit, 50, 200);
    let match: string | null = null;
    let said: string[] = [];
    if (query.q !== undefined) {
      const n = [...query.q.trim()].length;
      if (n < 2 || n > 100) throw new AppError('validation_error', 'q must be 2-100 characters', { errors: [{ field: 'q', detail: '2-100 characters' }] });
      match = ftsQuery(query.q);
      // Assets whose published, ready subtitles hold the words (issue 43): found like a title match.
      if (!trash) said = assetsWithCues(ctx.db, tenantId, query.q);
    }
    const section = sectionFilter(ctx, tenantId, query.section);
    const scope = `assets${trash ? ':trash' : ''}:${tenantId}:${query.q ?? ''}${query.section === undefined ? '' : `:s=${query.section}`}`;
    const before = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
    if (query.q !== undefined && !match) return { items: [], next_cursor: null };
    const rows = new AssetStore(ctx.db).list(tenantId, { before, limit, match, trash, section, alsoIds: said });
    const q = query.q;
    return ctx.cursors.page(scope, rows, limit, q === undefined ? view : (a) => ({ ...view(a), ...assetSearchMatch(ctx.db, tenantId, a, q) }));
  };
  return new Elysia({ prefix: '/v1/assets' })
    .use(ctx.http)
    .post('/', async ({ principal: p, body, set }) => {
      const a = await svc.create(p.tenantId, body, p.scopes.has('assets:publish'));
      set.status = 201;
      return view(a);
    }, {
      auth: { scope: 'assets:write', platform: true },
      body: CreateAssetBody,
      response: { 201: AssetView },
      detail: doc('Assets', 'Register an asset', 'רישום נכס', 'Source `url` (fetched by the server through the safe fetcher; private and internal addresses refused) or `s3` (`key` under the tenant `ingest/<prefix>/in/`: read from the data dir, or, when an S3-compatible bucket is configured, copied from its object `<tenant_id>/<key>`; a missing object answers 422). The `upload` kind is refused (use /v1/uploads). Duplicate `external_id` answers 409. `publish: auto` needs `assets:publish`.'),
    })
    .get('/', ({ principal: p, query }) => page(p.tenantId, query, false), {
      auth: { scope: 'assets:read', platform: true },
      query: ListQuery,
      response: { 200: AssetPage },
      detail: doc('Assets', 'List and search assets', 'רשימת נכסים וחיפוש', 'Newest first; `q` (2-100 characters) matches word prefixes of title, external id and metadata text, folding Hebrew niqqud and final letters, and the text of the asset\'s ready, published subtitle tracks (Hebrew-aware: prefix letters ו ה ב כ ל מ ש stripped as alternatives, geresh and gershayim ignored); with `q` each item adds `match {field, snippet}` (`title`, `external_id`, `metadata` or `subtitles`) and, when its subtitles matched, `moments` (`seconds` from the start, the cue `line`; up to 20, time order); `section` keeps the assets of one library section (its id; another tenant\'s or an unknown section answers 404) or, with `none`, those in no section; `limit` up to 200 (default 50).'),
    })
    .get('/trash', ({ principal: p, query }) => page(p.tenantId, query, true), {
      auth: { scope: 'assets:read', platform: true },
      query: ListQuery,
      response: { 200: AssetPage },
      detail: doc('Assets', 'List the trash', 'רשימת האשפה', 'Deleted assets, newest first; restorable until purged or the retention period passes. `q` and `section` filter as in the list.'),
    })
    .delete('/trash', ({ principal: p, request }) => {
      const purged = svc.emptyTrash(p.tenantId);
      audit(ctx, { tenantId: p.tenantId, action: 'asset.trash_emptied', actor: p, request, details: { purged } });
      return { purged };
    }, {
      auth: { scope: 'assets:purge', platform: true },
      detail: doc('Assets', 'Empty the trash', 'ריקון האשפה', 'Permanently deletes every trashed asset and its files. Answers `{purged}`.', answers({ 200: t.Object({ purged: t.Integer({ description: 'assets deleted' }) }) })),
    })
    .get('/trash/settings', ({ principal: p }) => ({ retention_days: svc.retention(p.tenantId) }), {
      auth: { scope: 'assets:read', platform: true },
      response: { 200: TrashSettings },
      detail: doc('Assets', 'Trash retention', 'זמן שמירה באשפה', 'Days a trashed asset is kept before it is purged automatically (default 30).'),
    })
    .put('/trash/settings', ({ principal: p, body }) => ({ retention_days: svc.setRetention(p.tenantId, body.retention_days) }), {
      auth: { scope: 'assets:purge', platform: true },
      body: TrashSettings,
      response: { 200: TrashSettings },
      detail: doc('Assets', 'Set trash retention', 'קביעת זמן שמירה באשפה', '`retention_days` 1-3650.'),
    })
    .delete('/trash/:id', ({ principal: p, params, set, request }) => {
      svc.purge(p.tenantId, params.id);
      audit(ctx, { tenantId: p.tenantId, action: 'asset.purged', actor: p, request, target: params.id });
      set.status = 204; return null;
    }, {
      auth: { scope: 'assets:purge', platform: true },
      params: IdParams,
      detail: doc('Assets', 'Purge a trashed asset', 'מחיקה לצמיתות', 'Deletes the asset and all its files for good.', answers({ 204: null })),
    })
    .post('/:id/restore', ({ principal: p, params, request }) => {
      const a = svc.restore(p.tenantId, params.id);
      audit(ctx, { tenantId: p.tenantId, action: 'asset.restored', actor: p, request, target: a.id, details: { title: a.title } });
      return view(a);
    }, {
      auth: { scope: 'assets:write', platform: true },
      params: IdParams,
      response: { 200: AssetView },
      detail: doc('Assets', 'Restore from trash', 'שחזור מהאשפה', 'Brings a trashed asset back, with its files and its status before deletion.'),
    })
    .get('/:id', ({ principal: p, params }) => view(svc.get(p.tenantId, params.id)), {
      auth: { scope: 'assets:read', platform: true },
      params: IdParams,
      response: { 200: AssetView },
      detail: doc('Assets', 'Get an asset', 'קבלת נכס', 'With `playback` when ready: `hls`, `dash`, images, `download`, and `subtitles`, the published ready subtitle tracks as sidecar WebVTT files (`{id, language, kind, label, url}`; the same tracks are subtitle renditions of the HLS master playlist and text adaptation sets of the MPD).'),
    })
    .patch('/:id', ({ principal: p, params, body, request }) => {
      const before = body.publish === undefined ? null : svc.get(p.tenantId, params.id).published === 1;
      const a = svc.patch(p.tenantId, params.id, body, p.scopes.has('assets:publish'));
      // Publishing and unpublishing are on the audit log (who put a video in front of the audience, and who took it down).
      if (before !== null && before !== (a.published === 1)) {
        audit(ctx, { tenantId: p.tenantId, action: a.published === 1 ? 'asset.published' : 'asset.unpublished', actor: p, request, target: a.id, details: { title: a.title } });
      }
      return view(a);
    }, {
      auth: { scope: 'assets:write', platform: true },
      params: IdParams,
      body: PatchAssetBody,
      response: { 200: AssetView },
      detail: doc('Assets', 'Edit an asset', 'עריכת נכס', 'Metadata fields; `publish: true` needs `assets:publish` and a ready asset (else 409).'),
    })
    .delete('/:id', ({ principal: p, params, set, request }) => {
      const title = svc.get(p.tenantId, params.id).title;
      svc.trash(p.tenantId, params.id);
      audit(ctx, { tenantId: p.tenantId, action: 'asset.trashed', actor: p, request, target: params.id, details: { title } });
      set.status = 204; return null;
    }, {
      auth: { scope: 'assets:write', platform: true },
      params: IdParams,
      detail: doc('Assets', 'Delete an asset (to trash)', 'מחיקת נכס (לאשפה)', 'Moves the asset to the trash; restore it or purge it later.', answers({ 204: null })),
    });
}
