/**
 * Background work of the assets feature: `asset.fetch` downloads a URL source through the safe fetcher (the
 * media engine and ffmpeg never touch customer URLs), or copies an `s3` source from the configured bucket
 * (s3-source.ts), stores it as the asset's source file and hands the asset on with `asset.process`. Permanent problems (refused address, 4xx, too large) fail at once; network trouble
 * and 5xx answers are retried by the queue, whose final-failure hook marks the asset failed.
 */
import { createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError } from '../../kernel/errors';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRun } from '../../jobs/types';
import { BlockedAddressError, FetchTooLargeError, safeFetch } from '../../kernel/net/safe-fetch';
import { AssetStore, type AssetRow } from './store';
import { copyFromBucket } from './s3-source';
import { assetDir, relToData, sourceExt } from './paths';

/** The slice of a queued `asset.fetch` job the handler uses (the queue passes more). */
export type AssetJob = Pick<JobRun<'asset.fetch'>, 'id' | 'tenantId' | 'payload' | 'signal' | 'progress'>;

/** Limits of URL ingest, handed to the handler when the app builds it (tests build one with lower limits). */
export interface FetchLimits { timeoutMs: number; idleTimeoutMs: number; maxBytes: number; maxRedirects: number }

/** The shipped URL ingest limits. */
export const DEFAULT_FETCH_LIMITS: Readonly<FetchLimits> = Object.freeze({
  /** Whole download deadline. */
  timeoutMs: 6 * 3600_000,
  /** Longest silence from the source before giving up (the attempt is retried). */
  idleTimeoutMs: 60_000,
  /** Largest source accepted (the upload limit). */
  maxBytes: 200e9,
  maxRedirects: 5,
});

async function fetchSource(ctx: AppContext, job: AssetJob, limits: Readonly<FetchLimits>): Promise<void> {
  const a = new AssetStore(ctx.db).byId(String(job.payload?.assetId ?? ''));
  if (!a || a.deleted_at !== null || a.status !== 'registered') return; // gone, trashed or handled already
  if (a.source_path) return;
  const src = JSON.parse(a.source) as { kind: string; url?: string; key?: string };
  const dir = assetDir(ctx.config.dataDir, a.tenant_id, a.id);
  if (src.kind === 's3' && src.key) {
    if (!ctx.config.s3) throw new PermanentJobError('s3 source, but no bucket is configured (s3 / VS_S3_*)');
    mkdirSync(dir, { recursive: true });
    return registerSource(ctx, a, await copyFromBucket(ctx.config.s3, a.tenant_id, src.key, dir, job));
  }
  if (src.kind !== 'url' || !src.url) throw new PermanentJobError('asset has no URL source');
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, 'source.partial');
  let res;
  try {
    res = await safeFetch(src.url, { ...limits, allowlist: ctx.config.privateAllowlist, signal: job.signal });
  } catch (e) {
    if (e instanceof BlockedAddressError || e instanceof FetchTooLargeError) throw new PermanentJobError(`source refused: ${e.detail}`);
    throw e instanceof AppError ? new Error(`source fetch failed: ${e.detail}`) : e;
  }
  if (res.status >= 400 || res.status < 200 || !res.body) {
    await res.body?.cancel();
    const msg = `source answered HTTP ${res.status}`;
    if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) throw new PermanentJobError(msg);
    throw new Error(msg);
  }
  const total = Number(res.headers.get('content-length') ?? NaN);
  const out = createWriteStream(partial);
  let got = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      got += chunk.byteLength;
      if (!out.write(chunk)) await once(out, 'drain');
      if (Number.isFinite(total) && total > 0) job.progress((got / total) * 100);
    }
    out.end();
    await once(out, 'finish');
  } catch (e) {
    out.destroy();
    rmSync(partial, { force: true });
    if (e instanceof FetchTooLargeError) throw new PermanentJobError(`source refused: ${e.detail}`);
    throw e instanceof AppError ? new Error(`source download failed: ${e.detail}`) : e;
  }
  if (got === 0) { rmSync(partial, { force: true }); throw new PermanentJobError('source is empty'); }
  const name = new URL(res.url).pathname.split('/').pop() ?? '';
  const dest = join(dir, `source.${sourceExt(name, res.headers.get('content-type'))}`);
  renameSync(partial, dest);
  registerSource(ctx, a, dest);
}

/** Records the stored source file and queues `asset.process`, once. */
function registerSource(ctx: AppContext, a: AssetRow, dest: string): void {
  const now = ctx.clock.now();
  tx(ctx.db, () => {
    const cur = new AssetStore(ctx.db).byId(a.id);
    if (!cur || cur.source_path) return;
    new AssetStore(ctx.db).setSourcePath(a.id, relToData(ctx.config.dataDir, dest), now);
    enqueueJob(ctx.db, { tenantId: a.tenant_id, type: 'asset.process', payload: { assetId: a.id }, subject: { kind: 'asset', id: a.id } }, now);
  });
}

/** Job handlers of the assets feature with the given fetch limits (features/jobs/registry.ts combines every feature's share). */
export function assetJobHandlersWith(limits: Readonly<FetchLimits>): FeatureHandlers<'asset.fetch'> {
  return { 'asset.fetch': (ctx, job) => fetchSource(ctx, job, limits) };
}

/** Job handlers of the assets feature with the shipped limits (an immutable map). */
export const assetJobHandlers: FeatureHandlers<'asset.fetch'> = Object.freeze(assetJobHandlersWith(DEFAULT_FETCH_LIMITS));
