/**
 * Library imports (issue 47): read a sitemap into items for review (new, or skipped when the library already holds
 * them), select, then start: each selected new item's video URL is registered as a `url` asset through the assets
 * feature, one at a time, with the outcome on the item. Progress lives in SQLite, so a restart resumes a running
 * import (`resumeImports`) and starting twice registers nothing twice (the `external_id` is unique per tenant).
 */
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { AppError, notFound } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { slotKey } from '../../kernel/slots';
import { checkUrlShape } from '../../kernel/net/safe-fetch';
import { AssetService } from '../assets/service';
import { canonicalUrl, importExternalId } from './identity';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import { jobQueue } from '../../jobs/worker';
import type { FeatureHandlers, JobRow } from '../../jobs/types';
import { DEFAULT_READ_LIMITS, readImport, type ReadLimits } from './read';
import { ImportStore, type ImportRow, type ItemRow } from './store';

/** An import as answered. */
export function importView(store: ImportStore, r: ImportRow) {
  return {
    id: r.id, url: r.url, format: r.format || null, status: r.status, truncated: r.truncated === 1, counts: store.counts(r.id),
    progress: r.progress ? JSON.parse(r.progress) as { documents_read: number; documents_total: number; videos: number } : null,
    error: r.error ? JSON.parse(r.error) as { status: number; code: string; detail: string; errors?: { field: string; detail: string }[] } : null,
    sources: JSON.parse(r.sources) as unknown[], created_at: iso(r.created_at),
    started_at: r.started_at === null ? null : iso(r.started_at), finished_at: r.finished_at === null ? null : iso(r.finished_at),
  };
}

/** An item as answered. */
export function itemView(i: ItemRow) {
  return {
    id: i.id, title: i.title, page_url: i.page_url, video_url: i.video_url, video_kind: i.video_kind, duration_s: i.duration_s,
    thumbnail_url: i.thumbnail_url, status: i.status, selected: i.selected === 1, external_id: i.external_id,
    result: i.result, asset_id: i.asset_id, error: i.error,
  };
}

/** Registration loops running in this app (per app context: two apps in one process never share them). */
const RUNNING = slotKey<Map<string, Promise<void>>>('imports.running');

/** The imports feature's operations (no HTTP here). */
export class ImportService {
  readonly store: ImportStore;
  constructor(private ctx: AppContext, private limits: ReadLimits = DEFAULT_READ_LIMITS) { this.store = new ImportStore(ctx.db); }

  /**
   * Creates an import in state `fetching` and hands the reading to a durable `imports.read` job (same transaction):
   * the request never waits for the website. Only the URL's shape is checked here (scheme, IP literals against the
   * private table: 422 at once); everything the reading finds wrong ends the import `failed` with its problem.
   */
  create(tenantId: string, url: string): ImportRow {
    checkUrlShape(url, this.ctx.config.privateAllowlist);
    const id = newId();
    const now = this.ctx.clock.now();
    this.ctx.db.transaction(() => {
      this.store.insertFetching(id, tenantId, url, now);
      enqueueJob(this.ctx.db, { tenantId, type: 'imports.read', payload: { importId: id }, subject: { kind: 'library_import', id }, priority: 50, maxAttempts: 3 }, now);
    })();
    jobQueue(this.ctx)?.wake();
    return this.store.get(tenantId, id)!;
  }

  /**
   * The `imports.read` job: reads the import's documents (progress on the import after each), then stores the items
   * for review in one transaction. A problem of the documents (malformed, too large, refused address, too slow) ends
   * the import `failed` with that problem (no retry: reading again finds the same); anything else is retried by the
   * queue and, after the last attempt, fails the import too (failImportOfJob). A restart mid-reading reads again:
   * nothing is stored until the reading is complete.
   */
  async read(importId: string, signal?: AbortSignal): Promise<void> {
    const r = this.store.byId(importId);
    if (!r || r.status !== 'fetching') return;
    let found: Awaited<ReturnType<typeof readImport>>;
    try {
      found = await readImport(this.ctx, r.url, this.limits, { signal, onProgress: (p) => this.store.setProgress(importId, p) });
    } catch (e) {
      if (signal?.aborted || !(e instanceof AppError)) throw e;
      this.store.fail(importId, { status: e.status, code: e.code, detail: e.detail, ...(e.extra.errors ? { errors: e.extra.errors } : {}) }, this.ctx.clock.now());
      throw new PermanentJobError(e.detail);
    }
    const known = this.store.assetIdentities(r.tenant_id);
    const seen = new Map<string, number>();
    const items: Parameters<ImportStore['fill']>[1] = [];
    for (const v of found.videos) {
      const page = canonicalUrl(v.pageUrl), video = canonicalUrl(v.videoUrl);
      if (!page || !video) continue;
      const n = seen.get(page) ?? 0;
      seen.set(page, n + 1);
      const externalId = importExternalId(page, n);
      const exists = known.externalIds.has(externalId) || known.sourceUrls.has(video) || known.sourceUrls.has(v.videoUrl);
      items.push({
        id: newId(), import_id: importId, page_url: page, video_url: video, video_kind: v.videoKind, external_id: externalId,
        title: [...v.title].slice(0, 500).join(''), duration_s: v.durationS, thumbnail_url: v.thumbnailUrl ? canonicalUrl(v.thumbnailUrl) : null,
        status: exists ? 'skipped' : 'new', selected: exists ? 0 : 1,
      });
    }
    this.ctx.db.transaction(() => this.store.fill({ id: importId, format: found.format, sources: JSON.stringify(found.sources), truncated: found.truncated ? 1 : 0 }, items))();
  }

  /** One import of the tenant (404 otherwise). */
  get(tenantId: string, id: string): ImportRow {
    const r = this.store.get(tenantId, id);
    if (!r) throw notFound('import');
    return r;
  }

  /** Selects or deselects items while the import is in review (409 after start; 422 naming unknown item ids). */
  select(tenantId: string, id: string, selected: boolean, ids: string[] | 'all'): ImportRow {
    const r = this.get(tenantId, id);
    if (r.status !== 'review') throw new AppError('conflict', `the import is ${r.status}; selection is fixed once started`);
    if (ids !== 'all') {
      const unknown = this.store.unknownItems(id, ids);
      if (unknown.length) throw new AppError('validation_error', `not items of this import: ${unknown.slice(0, 5).join(', ')}`, { errors: [{ field: 'item_ids', detail: `unknown item ids: ${unknown.slice(0, 5).join(', ')}` }] });
    }
    this.store.select(id, selected, ids);
    return r;
  }

  /** Starts (or resumes) registering the selected new items; idempotent; 409 while fetching or after a failed reading. */
  start(tenantId: string, id: string): ImportRow {
    const r = this.get(tenantId, id);
    if (r.status === 'done') return r;
    if (r.status === 'fetching' || r.status === 'failed') throw new AppError('conflict', `the import is ${r.status}; only an import in review can start`);
    this.store.start(id, this.ctx.clock.now());
    this.run(tenantId, id);
    return this.store.get(tenantId, id)!;
  }

  /** The registration loop of one import (at most one per import in this process). */
  run(tenantId: string, id: string): Promise<void> {
    const running = this.ctx.slots.get(RUNNING, () => new Map<string, Promise<void>>());
    const had = running.get(id);
    if (had) return had;
    const p = this.loop(tenantId, id).finally(() => running.delete(id));
    running.set(id, p);
    return p;
  }

  private async loop(tenantId: string, id: string): Promise<void> {
    const assets = new AssetService(this.ctx);
    for (let item = this.store.nextPending(id); item; item = this.store.nextPending(id)) {
      try {
        const a = await assets.create(tenantId, {
          source: { kind: 'url', url: item.video_url }, external_id: item.external_id, title: item.title || undefined,
          metadata: { import: { id, page_url: item.page_url, ...(item.thumbnail_url ? { thumbnail_url: item.thumbnail_url } : {}) } },
        }, false);
        this.store.finishItem(item.id, 'registered', a.id, null);
      } catch (e) {
        const detail = e instanceof AppError ? e.detail : (e as Error).message;
        // Taken: by this import before a crash (then it is ours), or meanwhile by another import of the same site.
        const own = e instanceof AppError && e.code === 'conflict' ? this.store.ownAsset(tenantId, id, item.external_id) : null;
        if (own) this.store.finishItem(item.id, 'registered', own, null);
        else if (e instanceof AppError && e.code === 'conflict') this.store.finishItem(item.id, 'skipped', null, detail);
        else this.store.finishItem(item.id, 'failed', null, detail);
      }
    }
    this.store.finish(id, this.ctx.clock.now());
  }
}

/** Resumes the imports a previous process left running (called once at boot). */
export function resumeImports(ctx: AppContext): void {
  const svc = new ImportService(ctx);
  for (const r of svc.store.running()) void svc.run(r.tenant_id, r.id);
}

/** The `imports.read` job handler (registered in features/jobs/registry.ts). */
export const importJobHandlers: FeatureHandlers<'imports.read'> = {
  'imports.read': (ctx, job) => new ImportService(ctx).read(job.payload.importId, job.signal),
};

/** A reading job that failed for good (after its retries) leaves its import `failed`, not `fetching` for ever. */
export function failImportOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.type !== 'imports.read' || job.subject_kind !== 'library_import' || !job.subject_id) return;
  new ImportStore(ctx.db).fail(job.subject_id, { status: 503, code: 'not_ready', detail: `reading the documents failed: ${error.slice(0, 300)}` }, ctx.clock.now());
}
