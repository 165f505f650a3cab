import { z } from 'zod';
import { invalid } from '../../kernel/errors';
import { AssetService } from '../assets/service';
import { assetView } from '../assets/view';
import { ftsQuery } from '../assets/search';
import { jobsService } from '../jobs/service';
import { tool, type Tool } from './tool';
import { AssetOut, Id, ListOf, Loose } from './schemas';

/** Library read tools: assets (list, search, get with playback) and the jobs of an asset. */
export const libraryReadTools: Tool[] = [
  tool({
    name: 'list_assets', title: 'List or search assets', scope: 'assets:read', write: false,
    description: 'Library assets, newest first. `q` (2-100 characters) searches titles, external ids and metadata (Hebrew-aware word prefixes). Pass `next_cursor` back as `cursor` for the next page.',
    input: {
      q: z.string().min(2).max(100).optional().describe('search text, 2-100 characters'),
      limit: z.number().int().min(1).max(200).optional().describe('1-200, default 20'),
      cursor: z.string().max(500).optional().describe('next_cursor of the previous page'),
    },
    output: ListOf(AssetOut, { next_cursor: z.string().nullable() }),
    run({ ctx, p }, a) {
      const limit = a.limit ?? 20;
      const match = a.q === undefined ? null : ftsQuery(a.q);
      if (a.q !== undefined && !match) throw invalid('q', 'needs at least one letter or digit');
      // Same cursor scope as GET /v1/assets, so cursors move between the two.
      const scope = `assets:${p.tenantId}:${a.q ?? ''}`;
      const before = a.cursor ? ctx.cursors.decode(scope, a.cursor) : null;
      const rows = new AssetService(ctx).list(p.tenantId, { before, limit, match });
      return ctx.cursors.page(scope, rows, limit, (r) => assetView(ctx, r)) as unknown as Record<string, unknown>;
    },
  }),
  tool({
    name: 'get_asset', title: 'Get an asset with playback', scope: 'assets:read', write: false,
    description: 'One asset by id: status, metadata, duration and, when ready, `playback` (HLS and DASH addresses).',
    input: { asset_id: Id },
    output: AssetOut,
    run: ({ ctx, p }, a) => assetView(ctx, new AssetService(ctx).get(p.tenantId, a.asset_id)),
  }),
  tool({
    name: 'list_asset_jobs', title: 'Jobs of an asset', scope: 'assets:read', write: false,
    description: 'Processing jobs (fetch, probe, transcode, ...) whose subject is this asset, newest first, with status, progress and error.',
    input: { asset_id: Id, limit: z.number().int().min(1).max(100).optional().describe('1-100, default 20') },
    output: ListOf(Loose({ id: z.string(), type: z.string(), status: z.string() }), { next_cursor: z.string().nullable() }),
    run({ ctx, p }, a) {
      new AssetService(ctx).get(p.tenantId, a.asset_id);
      return jobsService(ctx).list(p.tenantId, { subject: a.asset_id }, a.limit ?? 20, undefined) as unknown as Record<string, unknown>;
    },
  }),
];

/** Library write tools: register an asset from a URL, update metadata. */
export const libraryWriteTools: Tool[] = [
  tool({
    name: 'register_asset_from_url', title: 'Register an asset from a URL', scope: 'assets:write', write: true,
    description: 'Creates an asset whose source the server fetches from an http(s) URL (private and internal addresses are refused), then processes it. Poll `get_asset` or `list_asset_jobs` until `status` is `ready`. A duplicate `external_id` is refused (safe retry).',
    input: {
      url: z.string().url().max(2000).describe('http(s) address of the media file'),
      title: z.string().max(500).optional(),
      external_id: z.string().min(1).max(200).optional(),
      metadata: z.record(z.string(), z.unknown()).optional().describe('free JSON, up to 16 KB'),
    },
    output: AssetOut,
    async run({ ctx, p }, a) {
      const row = await new AssetService(ctx).create(p.tenantId, { source: { kind: 'url', url: a.url }, title: a.title, external_id: a.external_id, metadata: a.metadata }, false);
      return assetView(ctx, row);
    },
  }),
  tool({
    name: 'update_asset_metadata', title: 'Update asset metadata', scope: 'assets:write', write: true,
    description: 'Changes the title, external id or metadata of an asset (metadata replaces the stored object). Publishing is not offered here.',
    input: {
      asset_id: Id,
      title: z.string().max(500).optional(),
      external_id: z.string().min(1).max(200).nullable().optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    },
    output: AssetOut,
    run({ ctx, p }, a) {
      const { asset_id, ...body } = a;
      return assetView(ctx, new AssetService(ctx).patch(p.tenantId, asset_id, body, false));
    },
  }),
];

