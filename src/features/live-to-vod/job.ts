/**
 * `vod.publish`: builds a library asset from a programme's recorded range. The recorded CMAF runs are joined and
 * remuxed (stream copy, never re-encoded here) into the asset's source file; then the asset and its
 * `asset.process` job are inserted in one transaction and the normal asset lifecycle (probe, ladder encode,
 * package, `asset.ready`) takes over. The programme's `vod` follows the asset from then on.
 */
import { appendFileSync, createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRow, JobRun } from '../../jobs/types';
import type { FfmpegTools } from '../../media/locate';
import { runTool } from '../../media/process';
import { AssetService, checkAssetInput, insertAssetWithJob } from '../assets/service';
import { assetDir, relToData } from '../assets/paths';
import { channelById, fetchSegments, initFile, recordedRenditions, segmentFile, segmentsInRange } from '../channels/service';
import { selectRange } from '../catchup/coverage';
import { programmeOf, setProgrammeVod } from '../guide/service';
import { remuxArgs } from '../../media/args/remux';
import { runsOf } from './runs';
import { copyRecordingTracks } from '../subtitles/recording-copy';

/** Payload of a `vod.publish` job (declared with every job type in src/jobs/payloads.ts). */
export type { VodPayload } from '../../jobs/payloads';

async function publishVod(ctx: AppContext, job: JobRun<'vod.publish'>, tools: FfmpegTools | null): Promise<void> {
  const p = job.payload;
  const prog = programmeOf(ctx, job.tenantId, p.channelId, p.programmeId);
  if (!prog) throw new PermanentJobError('the programme was deleted');
  const ch = channelById(ctx, job.tenantId, p.channelId);
  if (!ch) throw new PermanentJobError('the channel was deleted');
  const rend = recordedRenditions(ctx, ch.id).includes('src') ? 'src' : recordedRenditions(ctx, ch.id)[0];
  const segs = rend ? selectRange(segmentsInRange(ctx, ch.id, rend, p.from, p.to), p.from, p.to) : [];
  if (!segs.length) throw new PermanentJobError('nothing is recorded in the programme range any more');
  const ffmpeg = tools?.ffmpeg;
  if (!ffmpeg) throw new PermanentJobError('ffmpeg not found');
  const dir = assetDir(ctx.config.dataDir, job.tenantId, p.assetId);
  const work = join(dir, `.remux-${job.attempt}`);
  mkdirSync(work, { recursive: true });
  const list = join(work, 'list.ffconcat');
  try {
    const runs = runsOf(segs);
    appendFileSync(list, 'ffconcat version 1.0\n');
    for (let i = 0; i < runs.length; i++) {
      const file = join(work, `run-${i}.mp4`);
      const out = createWriteStream(file);
      await fetchSegments(ctx, ch, rend!, [], [runs[i].initMs]); // hours that moved to a bucket media store come back through a local spool
      out.write(readFileSync(initFile(ctx, ch, rend!, runs[i].initMs)));
      for (const s of runs[i].segs) {
        await fetchSegments(ctx, ch, rend!, [s]);
        if (!out.write(readFileSync(segmentFile(ctx, s)))) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      appendFileSync(list, `file '${file.replace(/'/g, "'\\''")}'\n`);
      job.progress(((i + 1) / runs.length) * 50);
    }
    const source = join(dir, 'source.mp4');
    const r = await runTool(remuxArgs({ ffmpeg, list, out: source }), { timeoutMs: 3_600_000, stallMs: 120_000, stderrIsProgress: true, signal: job.signal }).done;
    if (r.code !== 0) throw new Error(`remux failed: ${r.stderrTail.slice(-3).join(' | ') || `exit ${r.code}`}`);
    rmSync(work, { recursive: true, force: true });
    const input = checkAssetInput({ title: prog.title, publish: p.publish ? true : 'manual', metadata: { programme_id: prog.id, channel_id: ch.id, collection_id: p.collectionId, recorded_from: new Date(p.from).toISOString(), recorded_to: new Date(p.to).toISOString() } }, true);
    tx(ctx.db, () => {
      insertAssetWithJob(ctx, { id: p.assetId, tenantId: job.tenantId, sourceRel: relToData(ctx.config.dataDir, source), status: 'registered', source: { kind: 'live', channel_id: ch.id, programme_id: prog.id } }, input, 'asset.process');
      const old = prog.vod_asset_id;
      setProgrammeVod(ctx, prog.id, { asset_id: p.assetId, status: 'publishing' });
      // The channel's subtitle tracks over the range go with it, on the asset's own (joined) timeline.
      copyRecordingTracks(ctx.db, { tenantId: job.tenantId, channelId: ch.id, assetId: p.assetId, now: ctx.clock.now(),
        runs: runs.map((r) => ({ startMs: r.segs[0]!.start_ms, durationMs: r.segs.reduce((n, x) => n + x.duration_ms, 0) })) });
      if (p.replace && old && old !== p.assetId) { try { new AssetService(ctx).trash(job.tenantId, old); } catch { /* already gone */ } }
    });
    job.setResult({ asset_id: p.assetId, segments: segs.length, runs: runs.length });
  } catch (e) {
    rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

/** Job handlers of the live-to-VOD feature, given the ffmpeg located at start (`VS_FFMPEG` honoured). */
export function vodJobHandlers(tools: FfmpegTools | null): FeatureHandlers<'vod.publish'> {
  return { 'vod.publish': (ctx, job) => publishVod(ctx, job, tools) };
}

/** A `vod.publish` job that failed for good marks the programme's `vod` failed. */
export function failVodOfJob(ctx: AppContext, job: JobRow, error: string): void {
  if (job.subject_kind !== 'programme' || !job.subject_id || job.type !== 'vod.publish') return;
  setProgrammeVod(ctx, job.subject_id, { status: 'failed', error });
}
