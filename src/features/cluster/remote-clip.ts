import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { mediaStoreOf } from '../../kernel/media-store';
import { PermanentJobError } from '../../jobs/errors';
import type { JobRun } from '../../jobs/types';
import { masterPlaylist } from '../../live/playlist';
import { channelById } from '../channels/service';
import { clipPiecesOf, finishFinalClip } from '../clips/finalize';
import { clipDir } from '../clips/service';
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
 * files to its clip directory, writes the master playlist and turns the clip final (it alone writes metadata).
 */
export async function remoteFinalizeClip(ctx: AppContext, job: JobRun<'clip.finalize'>, link: ClusterLink): Promise<void> {
  const c = clipAnyById(ctx, String(job.payload?.clipId ?? ''));
  if (!c || c.status !== 'finalizing') return; // deleted or done already
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
      for (const x of await clipPiecesOf(ctx, ch, r, c.start_ms, c.end_ms)) pieces.push({ ...x.piece, initKey: await keyOf(x.init), segKey: await keyOf(x.seg) });
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
  const final = clipDir(data, c.tenant_id, c.id);
  const tmp = `${final}.work-c${gen}`;
  try {
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    for (const f of end.output.files) {
      if (!(await store.getFile(`${prefix}out/${f}`, join(tmp, f)))) throw new Error(`clip file ${f} missing from the media store`);
    }
    const info = JSON.parse(ch.feed_info || '{}') as { resolution?: string };
    writeFileSync(join(tmp, 'master.m3u8'), masterPlaylist(end.output.variants.map((v) => ({ uri: `${v.name}/index.m3u8`, bandwidth: v.bandwidth * 1.1, resolution: info.resolution ?? null, codecs: v.codecs }))));
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  } finally {
    await store.deletePrefix(prefix).catch(() => undefined);
  }
  job.setResult({ worker: end.worker, worker_ms: end.ms });
  finishFinalClip(ctx, c.id, c.tenant_id, final);
}
