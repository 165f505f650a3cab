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
import { DEFAULT_READ_LIMITS, readImport, type ReadLimits } from './read';
import { ImportStore, type ImportRow, type ItemRow } from './store';

/** An import as answered. */
export function importView(store: ImportStore, r: ImportRow) {
  return {
    id: r.id, url: r.url, format: r.format, status: r.status, truncated: r.truncated === 1, counts: store.counts(r.id),
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

  /** Reads the URL and stores the import with its items for review. */
  async create(tenantId: string, url: string): Promise<ImportRow> {
    checkUrlShape(url, this.ctx.config.privateAllowlist);
    const found = await readImport(this.ctx, url, this.limits);
    const known = this.store.assetIdentities(tenantId);
    const seen = new Map<string, number>();
    const id = newId();
    const items: Parameters<ImportStore['insert']>[1] = [];
    for (const v of found.videos) {
      const page = canonicalUrl(v.pageUrl), video = canonicalUrl(v.videoUrl);
      if (!page || !video) continue;
      const n = seen.get(page) ?? 0;
      seen.set(page, n + 1);
      const externalId = importExternalId(page, n);
      const exists = known.externalIds.has(externalId) || known.sourceUrls.has(video) || known.sourceUrls.has(v.videoUrl);
      items.push({
        id: newId(), import_id: id, page_url: page, video_url: video, video_kind: v.videoKind, external_id: externalId,
        title: [...v.title].slice(0, 500).join(''), duration_s: v.durationS, thumbnail_url: v.thumbnailUrl ? canonicalUrl(v.thumbnailUrl) : null,
        status: exists ? 'skipped' : 'new', selected: exists ? 0 : 1,
      });
    }
    this.ctx.db.transaction(() => this.store.insert({
      id, tenant_id: tenantId, url, format: found.format, sources: JSON.stringify(found.sources), truncated: found.truncated ? 1 : 0, created_at: this.ctx.clock.now(),
    }, items))();
    return this.store.get(tenantId, id)!;
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

  /** Starts (or resumes) registering the selected new items; idempotent. */
  start(tenantId: string, id: string): ImportRow {
    const r = this.get(tenantId, id);
    if (r.status === 'done') return r;
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
