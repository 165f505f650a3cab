import type { AppContext } from '../../kernel/context';
import { deliveryPath } from '../playback/delivery-table';
import { emitEvent } from '../../kernel/events/outbox';
import type { JobRow } from '../../jobs/types';
import { lifecycleAsset, markFailed, markReady as markReadyRow, publishIfRequested, reviveFailed, type LifecycleAsset } from './lifecycle-store';
import type { Db } from '../../kernel/db/sqlite';
import type { AssetOutput } from './output';
import { encryptedOnly, parseAssetOutput } from './output';

/** The lifecycle's state operations, for the jobs that move an asset through it (other features use these, not the store). */
export { lifecycleAsset, resetForReencode, savePreview, saveProbe, saveProgress, tenantAsset, transition, WORKING, type LifecycleAsset } from './lifecycle-store';

/*
 * The asset lifecycle: registered → probing → queued → encoding → packaging → ready | failed. The assets feature
 * owns the states (lifecycle-store.ts), the output model (output.ts), the events and failure handling (here); the
 * transcode feature's jobs (transcode/jobs.ts: `asset.process` probes, `asset.encode` encodes and packages) move
 * an asset through the working states.
 */

/**
 * Data of `asset.ready` / `asset.failed` events: `{asset: id, external_id, status, error?, playback?}` —
 * `error` on failure (readable reason), `playback` (as on GET /v1/assets/{id}) when ready.
 */
export function assetEventData(a: Pick<LifecycleAsset, 'id' | 'external_id' | 'status'>, error?: string): Record<string, unknown> {
  return { asset: a.id, external_id: a.external_id, status: a.status, ...(error ? { error } : {}) };
}

/**
 * Marks an asset ready (from `packaging` only; call inside the transaction that emits `asset.ready`); an asset
 * created with `publish: true` (mode `on_ready`, e.g. a programme published to the library) is published in the same
 * step, with its `asset.published` event. Returns whether it became ready.
 */
export function markReady(db: Db, id: string, output: AssetOutput, version: number, now = Date.now()): boolean {
  if (!markReadyRow(db, id, output, version, now)) return false;
  if (publishIfRequested(db, id, now)) {
    const a = lifecycleAsset(db, id)!;
    emitEvent(db, a.tenant_id, 'asset.published', assetEventData(a), now);
  }
  return true;
}

/** Playback URLs of a ready asset (absolute, under the delivery base URL, from the delivery table), or null when not ready. */
export function playbackFor(ctx: AppContext, asset: { id: string; tenant_id: string; status: string; output: string | null }): Record<string, string> | null {
  if (asset.status !== 'ready' || !asset.output) return null;
  const out = parseAssetOutput(asset.output);
  if (!out) return null;
  const url = (file: string) => ctx.config.cdnBaseUrl + deliveryPath('vodFile', { tenant: asset.tenant_id, asset: asset.id, ver: `v${out.version}`, file });
  const f = out.files;
  if (encryptedOnly(out)) {
    // AES-128 by default: the encrypted HLS view only; no clear DASH or MP4 download.
    const hls = ctx.config.cdnBaseUrl + deliveryPath('vodAesFile', { tenant: asset.tenant_id, asset: asset.id, ver: `v${out.version}`, file: f.hls });
    return { hls, poster: url(f.poster), sprite: url(f.sprite), thumbs_vtt: url(f.thumbs_vtt) };
  }
  return { hls: url(f.hls), ...(f.dash ? { dash: url(f.dash) } : {}), poster: url(f.poster), sprite: url(f.sprite), thumbs_vtt: url(f.thumbs_vtt), download: url(f.download) };
}

/**
 * Called in the transaction that fails a job for good: a job about an asset (process, encode, or the assets
 * feature's fetch) leaves its asset `failed` with the job's error and emits `asset.failed`.
 */
export function failAssetOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.subject_kind !== 'asset' || !job.subject_id) return;
  const a = lifecycleAsset(ctx.db, job.subject_id);
  if (!a) return;
  const msg = error === 'cancelled' ? 'processing was cancelled' : error;
  if (markFailed(ctx.db, a.id, msg)) emitEvent(ctx.db, a.tenant_id, 'asset.failed', assetEventData({ ...a, status: 'failed' }, msg));
}

/**
 * Job retry/cancel from /v1/jobs: retrying a job about a failed asset puts the asset back to `queued` (encode) or
 * `registered` (probe, fetch); cancelling a queued one fails the asset like any final failure.
 */
export function reviveAssetForRetry(ctx: AppContext, job: JobRow, mode: 'retry' | 'cancel' = 'retry'): void {
  if (job.subject_kind !== 'asset' || !job.subject_id) return;
  if (mode === 'cancel') { failAssetOfJob(ctx, job, 'cancelled'); return; }
  reviveFailed(ctx.db, job.subject_id, job.type === 'asset.encode' ? 'queued' : 'registered');
}
