import { isAbsolute, join, normalize } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { planLadder } from '../../media/ladder';
import { probeFile } from '../../media/probe';
import { identityService } from '../identity/service';
import { lifecycleAsset, saveProbe, saveProgress, transition, WORKING } from '../assets/lifecycle';
import { loadLadders, pickLadder } from './ladders';
import { requireRuntime, type MediaRuntime } from './runtime';

/** Largest source file accepted for processing (bytes). */
export const MAX_SOURCE_BYTES = 200 * 2 ** 30;

/** Resolves a data-dir-relative source path; refuses absolute paths and `..` escapes. */
export function sourceFile(dataDir: string, rel: string): string {
  const n = normalize(rel);
  if (isAbsolute(n) || n.startsWith('..')) throw new PermanentJobError('source path is outside the data directory');
  return join(dataDir, n);
}

/** `asset.process`: registered → probing → queued, then hands over to an `asset.encode` job. */
export async function processAsset(ctx: AppContext, job: JobRun<'asset.process'>, media: MediaRuntime | null): Promise<void> {
  const id = String(job.payload?.assetId ?? job.subject?.id ?? '');
  const a = lifecycleAsset(ctx.db, id);
  if (!a || a.deleted_at !== null) throw new PermanentJobError('asset not found or deleted');
  if (a.status === 'ready') return;
  // A source still being fetched: transient, retried with backoff.
  if (!a.source_path) throw new Error('source not available yet');
  if (!transition(ctx.db, id, [...WORKING, 'failed'], 'probing')) throw new PermanentJobError(`asset is ${a.status}`);
  saveProgress(ctx.db, id, 0, null);
  const rt = requireRuntime(media);
  const info = await probeFile(rt.tools.ffprobe, sourceFile(ctx.config.dataDir, a.source_path), { signal: job.signal, maxBytes: MAX_SOURCE_BYTES });
  if ('error' in info) throw new PermanentJobError(info.error);
  if (!info.video) throw new PermanentJobError('audio-only sources are not supported: the file has no video stream');
  const tenant = identityService(ctx).tenant(a.tenant_id) as { slug?: string } | null;
  const picked = pickLadder(loadLadders(ctx.config.dataDir), job.payload?.ladder ?? a.ladder, tenant?.slug ?? null);
  if (!picked) throw new PermanentJobError(`unknown ladder "${job.payload?.ladder ?? a.ladder}"`);
  const plan = planLadder(picked.ladder, info.video);
  if ('error' in plan) throw new PermanentJobError(plan.error);
  job.progress(100);
  tx(ctx.db, () => {
    saveProbe(ctx.db, id, info, info.durationS);
    if (!transition(ctx.db, id, ['probing'], 'queued')) throw new PermanentJobError('asset changed while probing');
    saveProgress(ctx.db, id, 2, null);
    const encodeId = enqueueJob(ctx.db, { tenantId: a.tenant_id, type: 'asset.encode', payload: { assetId: id, ladder: picked.name }, subject: { kind: 'asset', id } });
    job.setResult({ ladder: picked.name, renditions: plan.renditions.map((r) => r.name), encode_job: encodeId });
  });
}
