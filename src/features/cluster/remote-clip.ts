import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { mediaStoreOf } from '../../kernel/media-store';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { masterPlaylist } from '../../live/playlist';
import { channelById } from '../channels/service';
import { clipPiecesOf, dropClipLeftovers, finishFinalClip } from '../clips/finalize';
import { isUuid } from '../../kernel/ids';
import { clearClipWork, clipDir, placeFinalClip } from '../clips/final-files';
import { clipAnyById } from '../clips/service';
import type { ClusterLink } from './link';
import { SUBJECTS, type ClipJobMsg, type ClipOutput } from './protocol';
import { runRemoteJob } from './remote-job';
import { clusterJob } from './store';

/** The store prefix a cluster job moves its files through: `cluster/<job>-<gen>/` (inputs in `in/`, outputs in `out/`). */
export function transferPrefix(jobId: string, gen: number): string { return `cluster/${jobId}-${gen}/`; }

/**
 * `clip.finalize` on the cluster: the control node plans the pieces over its recording index, hands their init and
 * media segments to the store (a bucket: uploaded under the job's transfer prefix; local disk: named where they
 * lie), a worker cuts them (frame-exact edges re-encoded there) into `out/`, and the control node brings the clip's
 * files over, writes the master playlist, puts them in place (its clip directory, or with a bucket the clip's own
 * prefix `media/<tenant>/clips/<id>/`: final-files.ts) and turns the clip final (it alone writes metadata).
 */
export async function remoteFinalizeClip(ctx: AppContext, job: JobRun<'clip.finalize'>, link: ClusterLink): Promise<void> {
  const id = String(job.payload?.clipId ?? '');
  const c = clipAnyById(ctx, id);
  if (!c) { if (isUuid(id)) await dropClipLeftovers(ctx, job.tenantId, id); return; } // deleted: what a killed attempt left goes
  if (c.status !== 'finalizing') return; // done already
  const ch = channelById(ctx, c.tenant_id, c.channel_id);
  if (!ch) throw new PermanentJobError('the channel was deleted');
  const store = mediaStoreOf(ctx);
  const data = ctx.config.dataDir;
  const rends = JSON.parse(c.renditions) as string[];
  const end = await runRemoteJob<ClipOutput>(ctx, job, link, SUBJECTS.job('clip', 'any'), async (gen): Promise<ClipJobMsg> => {
    const prefix = transferPrefix(job.id, gen);
    const keyOf = async (abs: string): Promise<string> => {
      const rel = relative(data, abs).split('\\').join('/');
      if (store.kind === 'local') return rel;
      const key = `${prefix}in/${rel}`;
      if (!(await store.stat(key))) await store.putFile(key, abs);
      return key;
    };
    const renditions: ClipJobMsg['renditions'] = [];
    for (const r of rends) {
      const pieces = [];
      const planned = await clipPiecesOf(ctx, ch, r, c.start_ms, c.end_ms);
      try {
        for (const x of planned.pieces) pieces.push({ ...x.piece, initKey: await keyOf(x.init), segKey: await keyOf(x.seg) });
      } finally { planned.release(); }
      renditions.push({ name: r, pieces });
    }
    const info = JSON.parse(ch.feed_info || '{}') as { resolution?: string };
    return { kind: 'clip', jobId: job.id, gen, tenantId: c.tenant_id, clipId: c.id, renditions, resolution: info.resolution ?? null, outPrefix: `${prefix}out/`, inputPrefix: store.kind === 'local' ? null : `${prefix}in/` };
  }, (pct) => job.progress(Math.min(95, pct))).catch(async (e) => {
    // An ended generation (failed or cancelled) leaves nothing in the store; a shutdown of this node leaves it running.
    const row = clusterJob(ctx.db, job.id);
    if (row && row.status === 'failed') await store.deletePrefix(transferPrefix(job.id, row.gen)).catch(() => undefined);
    throw e;
  });
  const gen = end.gen;
  const prefix = transferPrefix(job.id, gen);
  const tmp = `${clipDir(data, c.tenant_id, c.id)}.work-c${gen}`;
  let final: string;
  try {
    clearClipWork(data, c.tenant_id, c.id); // earlier attempts killed mid-way
    mkdirSync(tmp, { recursive: true });
    for (const f of end.output.files) {
      if (!(await store.getFile(`${prefix}out/${f}`, join(tmp, f)))) throw new Error(`clip file ${f} missing from the media store`);
    }
    const info = JSON.parse(ch.feed_info || '{}') as { resolution?: string };
    writeFileSync(join(tmp, 'master.m3u8'), masterPlaylist(end.output.variants.map((v) => ({ uri: `${v.name}/index.m3u8`, bandwidth: v.bandwidth * 1.1, resolution: info.resolution ?? null, codecs: v.codecs }))));
    // Into the clip's directory, or (a bucket) to the objects under the same path: the clip is served from there.
    final = await placeFinalClip(ctx, c.tenant_id, c.id, tmp);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    await store.deletePrefix(prefix).catch(() => undefined);
    throw e;
  }
  job.setResult({ worker: end.worker, worker_ms: end.ms });
  await finishFinalClip(ctx, c.id, c.tenant_id, final);
  // Only once the clip is final: a restart before this finds the worker's output still there and places it again.
  await store.deletePrefix(prefix).catch(() => undefined);
}
