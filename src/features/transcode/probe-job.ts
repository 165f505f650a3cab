import { isAbsolute, join, normalize } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { planLadder, type Ladder, type Plan } from '../../media/ladder';
import { probeFile } from '../../media/probe';
import type { MediaInfo } from '../../media/probe-parse';
import { jobQueue } from '../../jobs/worker';
import { identityService } from '../identity/service';
import { lifecycleAsset, saveProbe, saveProgress, transition, WORKING } from '../assets/lifecycle';
import { laddersOf, pickLadder } from './ladders';
import { startQuickPlay } from './quick-play';
import { requireRuntime, type MediaRuntime } from './runtime';

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
  // The ladder depends on the tenant and the asked name only: resolved once here, before the probe, and carried to the encode.
  const tenant = identityService(ctx).tenant(a.tenant_id) as { slug?: string } | null;
  const picked = pickLadder(laddersOf(ctx), job.payload?.ladder ?? a.ladder, tenant?.slug ?? null);
  if (!picked) throw new PermanentJobError(`unknown ladder "${job.payload?.ladder ?? a.ladder}"`);
  const source = sourceFile(ctx.config.dataDir, a.source_path);
  // The quick-play remux starts beside the probe (first encode only: a re-encoded asset stays playable from its
  // previous output); the probe then says whether its output is used.
  const quick = a.output_version === 0 ? startQuickPlay(ctx, job, rt, { id, tenantId: a.tenant_id, source, segmentS: picked.ladder.segment_s }) : null;
  let info: MediaInfo, plan: Plan, encodeId: string;
  try {
    ({ info, plan, encodeId } = await probeAndQueue(ctx, job, rt, { id, tenantId: a.tenant_id, source, ladder: picked }));
  } catch (e) {
    await quick?.drop();
    throw e;
  }
  job.setResult({ ladder: picked.name, renditions: plan.renditions.map((r) => r.name), encode_job: encodeId });
  // The encode starts now; the preview (when the source allows it) is published beside it.
  jobQueue(ctx)?.wake();
  if (quick) await quick.finish(info, plan);
  job.progress(100);
}

/** Probes the source, plans the ladder and, in one transaction, stores the probe, moves to `queued` and queues the encode. */
async function probeAndQueue(ctx: AppContext, job: JobRun<'asset.process'>, rt: MediaRuntime, o: { id: string; tenantId: string; source: string; ladder: { name: string; ladder: Ladder } }): Promise<{ info: MediaInfo; plan: Plan; encodeId: string }> {
  // Which reader answered is kept in the job's result (`probe`: in-process or ffprobe) for operators.
  const info = await probeFile(rt.tools.ffprobe, o.source, { signal: job.signal, maxBytes: MAX_SOURCE_BYTES, fast: rt.fastProbe, via: (how) => job.setResult({ probe: how }) });
  if ('error' in info) throw new PermanentJobError(info.error);
  if (!info.video) throw new PermanentJobError('audio-only sources are not supported: the file has no video stream');
  const plan = planLadder(o.ladder.ladder, info.video);
  if ('error' in plan) throw new PermanentJobError(plan.error);
  const encodeId = tx(ctx.db, () => {
    saveProbe(ctx.db, o.id, info, info.durationS);
    if (!transition(ctx.db, o.id, ['probing'], 'queued')) throw new PermanentJobError('asset changed while probing');
    saveProgress(ctx.db, o.id, 2, null);
    return enqueueJob(ctx.db, { tenantId: o.tenantId, type: 'asset.encode', payload: { assetId: o.id, ladder: o.ladder.name, plan }, subject: { kind: 'asset', id: o.id } });
  });
  return { info, plan, encodeId };
}
