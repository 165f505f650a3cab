import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { mediaStoreOf } from '../../kernel/media-store';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { assetEventData, markReady, playbackFor, saveProgress, transition } from '../assets/lifecycle';
import { serializeOutput, type AssetOutput } from '../assets/output';
import { beginEncode, encryptionOf } from '../transcode/encode-job';
import { sourceFile } from '../transcode/probe-job';
import { assetRelDir } from '../transcode/runtime';
import type { ClusterLink } from './link';
import { runRemoteJob } from './remote-job';
import { SUBJECTS, type TranscodeOutput } from './protocol';

/**
 * `asset.encode` on the cluster: the source goes into the media store (once), the transcode is published to the
 * work queue, and this handler waits for the result the results consumer records, then makes the asset ready (the
 * control node alone writes metadata). A restart finds the record: a job already published is not published again
 * (its message waits in the stream, or its result does); a failed generation is published anew.
 */
export async function remoteEncodeAsset(ctx: AppContext, job: JobRun<'asset.encode'>, link: ClusterLink): Promise<void> {
  const begun = beginEncode(ctx, job);
  if (!begun) return;
  const { id, a, info, ladderName, plan, packaging } = begun;
  const store = mediaStoreOf(ctx);
  const rel = assetRelDir(a.tenant_id, id);
  const version = a.output_version + 1;
  const dir = `${rel}/v${version}`;
  // The source once into the store (a bucket: uploaded; local disk: already there).
  const ensureSource = async () => {
    const local = sourceFile(ctx.config.dataDir, a.source_path);
    if (store.kind !== 'local' && !(await store.stat(a.source_path))) await store.putFile(a.source_path, local);
  };
  const subject = SUBJECTS.transcode('any');
  const end = await runRemoteJob<TranscodeOutput>(ctx, job, link, subject, async (gen) => {
    await ensureSource();
    return { jobId: job.id, gen, tenantId: a.tenant_id, assetId: id, sourceKey: a.source_path, info, plan, outPrefix: `${dir}/` };
  }, (pct, eta) => saveProgress(ctx.db, id, Math.round(pct * 10) / 10, eta));
  const { output: out, ms } = end;
  const output: AssetOutput = {
    dir, version, encoder: out.encoder, fallback_from: out.fallbackFrom, ladder: ladderName, audio: out.audio,
    renditions: out.renditions, files: withoutDash(out.files, packaging.dash), thumb: { w: out.thumb.w, h: out.thumb.h, interval_s: out.thumb.intervalS },
    ...encryptionOf(packaging),
  };
  job.setResult({ encoder: out.encoder, output_version: version, worker: end.worker, worker_ms: ms });
  tx(ctx.db, () => {
    transition(ctx.db, id, ['encoding'], 'packaging'); // the worker packaged; ready is reached from packaging only
    if (!markReady(ctx.db, id, output, version)) throw new PermanentJobError('asset changed while encoding');
    const playback = playbackFor(ctx, { id, tenant_id: a.tenant_id, status: 'ready', output: serializeOutput(output) });
    emitEvent(ctx.db, a.tenant_id, 'asset.ready', { ...assetEventData({ ...a, status: 'ready' }), playback });
  });
  // Earlier versions and leftovers of interrupted attempts go; the local preview (served while encoding) too.
  for (const e of await store.list(`${rel}/`)) {
    const first = e.key.slice(rel.length + 1).split('/')[0]!;
    if (/^v\d+$/.test(first) && first !== `v${version}`) await store.delete(e.key);
  }
  rmSync(join(ctx.config.dataDir, rel, 'preview'), { recursive: true, force: true });
  if (!packaging.dash && out.files.dash) await store.delete(`${dir}/${out.files.dash}`);
}

/** The output files without the DASH manifest when the tenant's packaging turns DASH off. */
function withoutDash(files: Record<string, string>, dash: boolean): Record<string, string> {
  if (dash) return files;
  const { dash: _, ...rest } = files;
  return rest;
}
