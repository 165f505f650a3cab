import { mkdirSync, linkSync, copyFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { jobQueue } from '../../jobs/worker';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { emitEvent } from '../../kernel/events/outbox';
import { enqueueJob } from '../../jobs/enqueue';
import { BlockedAddressError, assertPublicUrl } from '../../kernel/net/safe-fetch';
import { AssetStore, type AssetRow } from './store';

/** The asset row as the service hands it to other features. */
export type { AssetRow } from './store';
import { assetEventData } from './lifecycle';
import { checkExternalId, checkLadder, checkMetadata, checkTitle, publishMode } from './validate';
import { assetDir, ingestPath, relToData, sourceExt } from './paths';
import { assertInBucket } from './s3-source';

/** Common optional fields of a new asset (create and upload completion). */
export interface AssetInput {
  external_id?: string; title?: string; ladder?: string; publish?: 'auto' | 'manual' | boolean; metadata?: Record<string, unknown>;
}

/** A new asset whose source file is already in place (s3 copy, completed upload). */
export interface ReadyAsset { id: string; tenantId: string; sourceRel: string | null; status: 'registered' | 'probing'; source: unknown }

/** Checks the shared fields and the `publish` scope; returns the normalised values. */
export function checkAssetInput(input: AssetInput, canPublish: boolean) {
  if (input.publish !== undefined && publishMode(input.publish) !== 'manual' && !canPublish) {
    throw new AppError('insufficient_scope', 'assets:publish');
  }
  return {
    externalId: checkExternalId(input.external_id),
    title: checkTitle(input.title) ?? '',
    ladder: checkLadder(input.ladder) ?? null,
    metadata: checkMetadata(input.metadata) ?? '{}',
    publishMode: publishMode(input.publish),
  };
}

/** Throws 409 when `externalId` is taken in the tenant (a retried create returns nothing new). */
export function assertExternalIdFree(ctx: AppContext, tenantId: string, externalId: string | null, except?: string): void {
  if (!externalId) return;
  const other = new AssetStore(ctx.db).byExternalId(tenantId, externalId);
  if (other && other.id !== except) {
    throw new AppError('conflict', `external_id "${externalId}" is already used by asset ${other.id}${other.deleted_at ? ' (in trash)' : ''}`);
  }
}

/** One asset by id, any tenant and trashed ones too (the uploads feature finishing a completion it recorded). */
export function assetById(ctx: AppContext, id: string): AssetRow | null {
  return new AssetStore(ctx.db).byId(id);
}

/** Inserts an asset and its first job in ONE transaction (the durable hand-off to the media engine). */
export function insertAssetWithJob(ctx: AppContext, a: ReadyAsset, input: ReturnType<typeof checkAssetInput>, jobType: 'asset.process' | 'asset.fetch'): AssetRow {
  const now = ctx.clock.now();
  return tx(ctx.db, () => {
    assertExternalIdFree(ctx, a.tenantId, input.externalId);
    new AssetStore(ctx.db).insert({
      id: a.id, tenantId: a.tenantId, externalId: input.externalId, title: input.title, status: a.status, ladder: input.ladder,
      publishMode: input.publishMode, metadata: input.metadata, source: JSON.stringify(a.source), sourcePath: a.sourceRel,
    }, now);
    enqueueJob(ctx.db, { tenantId: a.tenantId, type: jobType, payload: { assetId: a.id }, subject: { kind: 'asset', id: a.id } }, now);
    // Claimed as soon as the (outer) transaction commits, not at the next poll: first play starts here.
    jobQueue(ctx)?.wake();
    return new AssetStore(ctx.db).get(a.tenantId, a.id)!;
  });
}

/** The assets feature's operations (no HTTP here). */
export class AssetService {
  private readonly store: AssetStore;
  constructor(private ctx: AppContext) { this.store = new AssetStore(ctx.db); }

  /** POST /v1/assets: url (fetched by a job through the safe fetcher) or s3 (ingest area, linked in place). */
  async create(tenantId: string, body: AssetInput & { source: { kind: string; url?: string; key?: string } }, canPublish: boolean): Promise<AssetRow> {
    const input = checkAssetInput(body, canPublish);
    const { kind } = body.source;
    if (kind === 'upload') throw invalid('source.kind', 'upload sources are created with POST /v1/uploads and completed there');
    assertExternalIdFree(this.ctx, tenantId, input.externalId);
    const id = newId();
    if (kind === 'url') {
      const url = body.source.url;
      if (!url) throw invalid('source.url', 'required for kind url');
      if (body.source.key !== undefined) throw invalid('source.key', 'not allowed for kind url');
      try { await assertPublicUrl(url, this.ctx.config.privateAllowlist); } catch (e) {
        if (e instanceof BlockedAddressError) throw invalid('source.url', e.detail);
        throw e;
      }
      return insertAssetWithJob(this.ctx, { id, tenantId, sourceRel: null, status: 'registered', source: { kind, url } }, input, 'asset.fetch');
    }
    if (kind === 's3') {
      const key = body.source.key;
      if (!key) throw invalid('source.key', 'required for kind s3');
      if (body.source.url !== undefined) throw invalid('source.url', 'not allowed for kind s3');
      const bucket = this.ctx.config.s3;
      if (bucket) { // configured bucket: checked now, copied by the asset.fetch job
        await assertInBucket(bucket, tenantId, key);
        return insertAssetWithJob(this.ctx, { id, tenantId, sourceRel: null, status: 'registered', source: { kind, key } }, input, 'asset.fetch');
      }
      const src = ingestPath(this.ctx.config.dataDir, tenantId, key);
      if (!statSync(src).isFile()) throw invalid('source.key', 'not a file');
      const dir = assetDir(this.ctx.config.dataDir, tenantId, id);
      mkdirSync(dir, { recursive: true });
      const dest = join(dir, `source.${sourceExt(key)}`);
      try { linkSync(src, dest); } catch { copyFileSync(src, dest); }
      try {
        return insertAssetWithJob(this.ctx, { id, tenantId, sourceRel: relToData(this.ctx.config.dataDir, dest), status: 'registered', source: { kind, key } }, input, 'asset.process');
      } catch (e) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
    throw invalid('source.kind', 'must be one of: url, s3');
  }

  /** A live (not trashed) asset of the tenant, else 404. */
  get(tenantId: string, id: string): AssetRow {
    const a = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!a || a.deleted_at !== null) throw notFound('asset');
    return a;
  }

  /** Live (not trashed) assets, newest first, below `before` (a row seq); `match` is an ftsQuery() text or null. */
  list(tenantId: string, o: { before: number | null; limit: number; match: string | null }): AssetRow[] {
    return this.store.list(tenantId, { ...o, trash: false });
  }

  /** PATCH: metadata fields; `publish: true` needs assets:publish and a ready asset (else 409). */
  patch(tenantId: string, id: string, body: { title?: string; external_id?: string | null; ladder?: string; metadata?: Record<string, unknown>; publish?: boolean }, canPublish: boolean): AssetRow {
    if (body.publish !== undefined && !canPublish) throw new AppError('insufficient_scope', 'assets:publish');
    const title = checkTitle(body.title);
    const externalId = body.external_id === undefined ? undefined : checkExternalId(body.external_id);
    const ladder = checkLadder(body.ladder);
    const metadata = checkMetadata(body.metadata);
    const now = this.ctx.clock.now();
    return tx(this.ctx.db, () => {
      const a = this.get(tenantId, id);
      if (externalId) assertExternalIdFree(this.ctx, tenantId, externalId, a.id);
      if (body.publish === true && a.status !== 'ready') throw new AppError('conflict', `asset is ${a.status}, not ready; it cannot be published yet`);
      this.store.update(a.seq, { title, externalId, ladder, metadata }, now);
      if (body.publish !== undefined && (a.published === 1) !== body.publish) {
        this.store.setPublished(a.seq, body.publish, now);
        if (body.publish) emitEvent(this.ctx.db, tenantId, 'asset.published', assetEventData({ ...a, external_id: externalId ?? a.external_id }), now);
      }
      return this.store.get(tenantId, id)!;
    });
  }

  /** DELETE: moves the asset to the trash (restorable until purged). */
  trash(tenantId: string, id: string): void {
    tx(this.ctx.db, () => {
      const a = this.get(tenantId, id);
      this.store.setDeleted(a.seq, this.ctx.clock.now(), this.ctx.clock.now());
    });
  }

  private trashed(tenantId: string, id: string): AssetRow {
    const a = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!a || a.deleted_at === null) throw notFound('asset in trash');
    return a;
  }

  /** Brings a trashed asset back. */
  restore(tenantId: string, id: string): AssetRow {
    return tx(this.ctx.db, () => {
      const a = this.trashed(tenantId, id);
      this.store.setDeleted(a.seq, null, this.ctx.clock.now());
      return this.store.get(tenantId, id)!;
    });
  }

  /** Deletes a trashed asset for good: its row and every file under its asset folder. */
  purge(tenantId: string, id: string): void {
    const a = this.trashed(tenantId, id);
    this.purgeRow(a);
  }

  /** Empties the tenant's trash; returns how many assets were purged. */
  emptyTrash(tenantId: string): number {
    let n = 0;
    for (;;) {
      const rows = this.store.trashed(tenantId, null, 200);
      if (!rows.length) return n;
      for (const a of rows) { this.purgeRow(a); n++; }
    }
  }

  /** Purges trashed assets older than each tenant's retention; returns how many. */
  sweepTrash(): number {
    let n = 0;
    for (const t of this.store.trashTenants()) {
      const cutoff = this.ctx.clock.now() - t.days * 86_400_000;
      for (const a of this.store.trashed(t.tenant_id, cutoff)) { this.purgeRow(a); n++; }
    }
    return n;
  }

  private purgeRow(a: AssetRow): void {
    this.store.remove(a.seq);
    rmSync(assetDir(this.ctx.config.dataDir, a.tenant_id, a.id), { recursive: true, force: true });
  }

  /** Trash retention in days. */
  retention(tenantId: string): number { return this.store.retentionDays(tenantId); }

  /** Sets trash retention in days. */
  setRetention(tenantId: string, days: number): number {
    this.store.setRetentionDays(tenantId, days, this.ctx.clock.now());
    return days;
  }
}
