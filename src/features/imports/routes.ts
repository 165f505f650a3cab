import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { answers } from '../meta/model';
import { importView, itemView, ImportService } from './service';

const TAG = 'Library imports';
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);

const Counts = t.Object({ items: t.Number(), new: t.Number(), skipped: t.Number(), selected: t.Number(), pending: t.Number(), registered: t.Number(), failed: t.Number() });
const Source = t.Object({ url: t.String(), kind: t.String(), videos: t.Number(), pages_without_video: t.Number(), error: t.Optional(t.String()) });
const Progress = t.Object({
  documents_read: t.Number({ description: 'documents read so far' }), documents_total: t.Number({ description: 'documents known so far (1, then 1 + the child sitemaps of an index)' }),
  videos: t.Number({ description: 'videos found so far' }),
});
const Problem = t.Object({
  status: t.Number({ description: 'the HTTP status the problem would have had: 422 malformed or refused, 413 too large, 503 too slow' }),
  code: t.String(), detail: t.String(), errors: t.Optional(t.Array(t.Object({ field: t.String(), detail: t.String() }))),
});
const ImportView = t.Object({
  id: t.String(), url: t.String(), format: Nullable(t.String({ description: '`sitemap`, `sitemap_index` or `media_rss`; null while fetching or after a failed reading' })),
  status: t.String({ description: '`fetching` (documents being read), `review`, `running`, `done`, or `failed` (the reading failed: `error`)' }),
  truncated: t.Boolean({ description: 'more than 50,000 videos or 50 child sitemaps: the rest was left out' }),
  counts: Counts, progress: Nullable(Progress), error: Nullable(Problem), sources: t.Array(Source), created_at: t.String(), started_at: Nullable(t.String()), finished_at: Nullable(t.String()),
});
const ItemView = t.Object({
  id: t.String(), title: t.String(), page_url: t.String({ description: 'canonical page URL (`loc`)' }),
  video_url: t.String({ description: '`content_loc`, else `player_loc`' }), video_kind: t.String({ description: '`content` or `player`' }),
  duration_s: Nullable(t.Number()), thumbnail_url: Nullable(t.String()), status: t.String({ description: '`new` or `skipped` (already in the library)' }),
  selected: t.Boolean(), external_id: t.String({ description: 'the asset\'s external_id: `sitemap:` + 40 hex digits of SHA-256 of the page URL' }),
  result: Nullable(t.String({ description: 'after start: `pending`, `registered`, `failed` or `skipped`' })), asset_id: Nullable(t.String()), error: Nullable(t.String()),
});
const ItemPage = t.Object({ items: t.Array(ItemView), next_cursor: Nullable(t.String()) });
const Id = t.Object({ id: t.String() });

const CREATE_DOC = `Answers 202 at once with the import in status \`fetching\`: a durable background job (it survives a
restart) reads the documents, with \`progress\` on the import, then the import is in \`review\` with its items (poll GET
.../{id}), or \`failed\` with \`error\`, a problem (malformed XML: 422 naming line and column; a file over the limit: 413;
too slow: 503). The job reads a sitemap (Google video extension: \`video:content_loc\`, else \`video:player_loc\`), a sitemap index
(followed one level, at most 50 child sitemaps; a child that fails is reported in \`sources\` with its error) or a media
RSS feed (\`media:content\` or a video \`enclosure\`), fetched by the server through the safe fetcher (private and
internal addresses refused unless VS_PRIVATE_ALLOWLIST; 50 MB per file, also after gzip; 20 s per file, 120 s in
all; at most 50,000 URLs per file and 50,000 items per import). Every video becomes an item for review: \`new\`
(selected) or \`skipped\` when the library already holds it (an asset with the item's \`external_id\` — derived from
the canonical page URL — or with the same source URL); page through them with GET .../items. A URL whose shape is
refused (scheme, private IP literal) answers 422 at once. docs/imports.md.`;

/** /v1/library/imports (scopes assets:write to create, select and start; assets:read to read). */
export function importRoutes(ctx: AppContext) {
  const svc = new ImportService(ctx);
  const write = { scope: 'assets:write' as const }, read = { scope: 'assets:read' as const };
  const itemPage = (id: string, q: { cursor?: string; limit?: number | string; status?: string }) => {
    const limit = parseLimit(q.limit, 100, 500);
    const scope = `imports:${id}:${q.status ?? ''}`;
    const after = q.cursor ? ctx.cursors.decode(scope, q.cursor) : null;
    return ctx.cursors.page(scope, svc.store.items(id, after, limit, q.status), limit, itemView);
  };
  return new Elysia({ prefix: '/v1/library/imports' })
    .use(ctx.http)
    .post('/', ({ principal: p, body, set }) => {
      const r = svc.create(p.tenantId, body.url);
      set.status = 202;
      return importView(svc.store, r);
    }, {
      auth: write, body: t.Object({ url: t.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL of a sitemap, sitemap index or media RSS feed' }) }, { additionalProperties: false }),
      detail: doc(TAG, 'Create a library import', 'יצירת ייבוא לספרייה', CREATE_DOC, { operationId: 'createLibraryImport', 'x-problems': [403, 422], ...answers({ 202: ImportView }) }),
    })
    .get('/', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `imports:${p.tenantId}`;
      const before = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return ctx.cursors.page(scope, svc.store.list(p.tenantId, before, limit), limit, (r) => importView(svc.store, r));
    }, {
      auth: read, query: t.Object({ cursor: t.Optional(t.String()), limit: t.Optional(t.Integer({ minimum: 1, maximum: 200, description: '1-200 (default 50)' })) }),
      detail: doc(TAG, 'List library imports', 'רשימת ייבואים לספרייה', 'The tenant\'s imports, newest first, with their counts; `limit` up to 200 (default 50).',
        { operationId: 'listLibraryImports', 'x-problems': [403, 422], ...answers({ 200: t.Object({ items: t.Array(ImportView), next_cursor: Nullable(t.String()) }) }) }),
    })
    .get('/:id', ({ principal: p, params }) => importView(svc.store, svc.get(p.tenantId, params.id)), {
      auth: read, params: Id,
      detail: doc(TAG, 'Get a library import', 'ייבוא לספרייה', 'One import: status (`fetching`, `review`, `running`, `done`, `failed`), reading progress, the problem of a failed reading, counts (items, new, skipped, selected, pending, registered, failed) and the documents read.',
        { operationId: 'getLibraryImport', 'x-problems': [403, 404], ...answers({ 200: ImportView }) }),
    })
    .get('/:id/items', ({ principal: p, params, query }) => { svc.get(p.tenantId, params.id); return itemPage(params.id, query); }, {
      auth: read, params: Id,
      query: t.Object({ cursor: t.Optional(t.String()), limit: t.Optional(t.Integer({ minimum: 1, maximum: 500, description: '1-500 (default 100)' })), status: t.Optional(t.Union([t.Literal('new'), t.Literal('skipped')])) }),
      detail: doc(TAG, 'List the items of a library import', 'פריטי ייבוא לספרייה', 'The items in sitemap order, optionally only `new` or `skipped` ones, with the outcome of each after start (`result`, `asset_id`, `error`); `limit` up to 500 (default 100).',
        { operationId: 'listLibraryImportItems', 'x-problems': [403, 404, 422], ...answers({ 200: ItemPage }) }),
    })
    .patch('/:id/items', ({ principal: p, params, body }) => {
      if ((body.item_ids === undefined) === (body.all === undefined)) throw new AppError('validation_error', 'give item_ids or all: true', { errors: [{ field: 'item_ids', detail: 'give item_ids or all: true, not both' }] });
      if (body.all === false) throw new AppError('validation_error', 'all must be true when given', { errors: [{ field: 'all', detail: 'must be true' }] });
      return importView(svc.store, svc.select(p.tenantId, params.id, body.selected, body.item_ids ?? 'all'));
    }, {
      auth: write, params: Id,
      body: t.Object({
        selected: t.Boolean({ description: 'true selects, false deselects' }),
        item_ids: t.Optional(t.Array(t.String(), { minItems: 1, maxItems: 5000 })),
        all: t.Optional(t.Boolean({ description: 'every new item' })),
      }, { additionalProperties: false }),
      detail: doc(TAG, 'Select library import items', 'בחירת פריטים לייבוא', 'Selects or deselects new items (`item_ids`, or `all: true`) while the import is in review; skipped items are never selected; while fetching and after start answers 409; ids not in the import answer 422.',
        { operationId: 'selectLibraryImportItems', 'x-problems': [403, 404, 409, 422], ...answers({ 200: ImportView }) }),
    })
    .post('/:id/start', ({ principal: p, params, set }) => {
      set.status = 202;
      return importView(svc.store, svc.start(p.tenantId, params.id));
    }, {
      auth: write, params: Id,
      detail: doc(TAG, 'Start a library import', 'הפעלת ייבוא לספרייה', 'Registers an asset (source kind `url`, fetched and encoded like any URL asset) from each selected new item\'s video URL, one at a time, in the background; progress in `counts` and each item\'s `result` (`registered` with `asset_id`, `failed` with `error`, or `skipped` when registered meanwhile). Idempotent: starting again (also after a restart) never registers an item twice. While the import is fetching, or after a failed reading, answers 409.',
        { operationId: 'startLibraryImport', 'x-problems': [403, 404, 409], ...answers({ 202: ImportView }) }),
    });
}
