import { rmSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { planLadder } from '../../media/ladder';
import { probeFile } from '../../media/probe';
import type { MediaInfo } from '../../media/probe-parse';
import { remuxBlocker, remuxPreview } from '../../media/preview';
import { jobQueue } from '../../jobs/worker';
import { identityService } from '../identity/service';
import { lifecycleAsset, savePreview, saveProbe, saveProgress, transition, WORKING } from '../assets/lifecycle';
import { previewOutput } from '../assets/output';
import { laddersOf, pickLadder } from './ladders';
import { assetRelDir, requireRuntime, type MediaRuntime } from './runtime';

/** Largest source file accepted for processing (bytes). */
export const MAX_SOURCE_BYTES = 200 * 2 ** 30;

/** Resolves a data-dir-relative source path; refuses absolute paths and `..` escapes. */
export function sourceFile(dataDir: string, rel: string): string {
  const n = normalize(rel);
  if (isAbsolute(n) || n.startsWith('..')) throw new PermanentJobError('source path is outside the data directory');
  return join(dataDir, n);
}

/** `asset.process`: registered → probing → queued, hands over to an `asset.encode` job, then remuxes the quick-play preview. */
export async function processAsset(ctx: AppContext, job: JobRun<'asset.process'>, media: MediaRuntime | null): Promise<void> {
  const id = String(job.payload?.assetId ?? job.subject?.id ?? '');
  const a = lifecycleAsset(ctx.db, id);
  if (!a || a.deleted_at !== null) throw new PermanentJobError('asset not found or deleted');
  if (a.status === 'ready') return;
  // Probed already and handed to its encode (this job ran on to remux the preview when the process died): the
  // encode job owns the asset now; probing again would queue a second encode.
  if (a.probe && (a.status === 'queued' || a.status === 'encoding' || a.status === 'packaging')) return;
  // A source still being fetched: transient, retried with backoff.
  if (!a.source_path) throw new Error('source not available yet');
  if (!transition(ctx.db, id, [...WORKING, 'failed'], 'probing')) throw new PermanentJobError(`asset is ${a.status}`);
  saveProgress(ctx.db, id, 0, null);
  const rt = requireRuntime(media);
  const info = await probeFile(rt.tools.ffprobe, sourceFile(ctx.config.dataDir, a.source_path), { signal: job.signal, maxBytes: MAX_SOURCE_BYTES });
  if ('error' in info) throw new PermanentJobError(info.error);
  if (!info.video) throw new PermanentJobError('audio-only sources are not supported: the file has no video stream');
  const tenant = identityService(ctx).tenant(a.tenant_id) as { slug?: string } | null;
  const picked = pickLadder(laddersOf(ctx), job.payload?.ladder ?? a.ladder, tenant?.slug ?? null);
  if (!picked) throw new PermanentJobError(`unknown ladder "${job.payload?.ladder ?? a.ladder}"`);
  const plan = planLadder(picked.ladder, info.video);
  if ('error' in plan) throw new PermanentJobError(plan.error);
  const encodeId = tx(ctx.db, () => {
    saveProbe(ctx.db, id, info, info.durationS);
    if (!transition(ctx.db, id, ['probing'], 'queued')) throw new PermanentJobError('asset changed while probing');
    saveProgress(ctx.db, id, 2, null);
    return enqueueJob(ctx.db, { tenantId: a.tenant_id, type: 'asset.encode', payload: { assetId: id, ladder: picked.name, plan }, subject: { kind: 'asset', id } });
  });
  job.setResult({ ladder: picked.name, renditions: plan.renditions.map((r) => r.name), encode_job: encodeId });
  // The encode starts now; the quick-play preview is remuxed beside it (first encode only: a re-encoded asset
  // stays playable from its previous output until the new one is ready).
  jobQueue(ctx)?.wake();
  if (a.output_version === 0) await quickPlay(ctx, job, rt, { id, tenantId: a.tenant_id, source: sourceFile(ctx.config.dataDir, a.source_path), info, segmentS: plan.ladder.segment_s });
  job.progress(100);
}

/**
 * First play in about a second: a browser-ready H.264/AAC source is remuxed (no re-encode) into a one-variant
 * CMAF preview under `<asset>/preview/`, published as the asset's preview while the ladder encodes. Best effort:
 * a source that cannot be remuxed, or a remux that fails, leaves the preview to the ladder's first segments.
 */
async function quickPlay(ctx: AppContext, job: JobRun<'asset.process'>, rt: MediaRuntime, o: { id: string; tenantId: string; source: string; info: MediaInfo; segmentS: number }): Promise<void> {
  const why = remuxBlocker(o.info);
  if (why) { job.setResult({ preview: 'ladder', preview_reason: why }); return; }
  const rel = join(assetRelDir(o.tenantId, o.id), 'preview');
  const t0 = Date.now();
  try {
    await remuxPreview({ ffmpeg: rt.tools.ffmpeg, source: o.source, outDir: join(ctx.config.dataDir, rel), info: o.info, segmentS: o.segmentS, signal: job.signal });
  } catch (e) {
    // Never fail (or retry) the probe for its preview: the encode is already queued and must not be queued twice.
    ctx.log.warn('quick-play preview remux failed; the ladder provides the preview', { asset: o.id, error: String((e as Error).message ?? e) });
    job.setResult({ preview: 'ladder', preview_reason: 'remux failed' });
    return;
  }
  if (savePreview(ctx.db, o.id, previewOutput(rel), true)) {
    job.note('first_playable', { ms: Date.now() - t0, preview: 'remux' });
    job.setResult({ preview: 'remux', preview_ms: Date.now() - t0 });
  } else {
    // The ladder finished first (or the asset left the working states): the preview is not needed.
    rmSync(join(ctx.config.dataDir, rel), { recursive: true, force: true });
  }
}
