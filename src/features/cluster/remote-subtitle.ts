import type { AppContext } from '../../kernel/context';
import { mediaStoreOf } from '../../kernel/media-store';
import { PermanentJobError } from '../../jobs/errors';
import type { Handler, JobRun } from '../../jobs/types';
import { asrEngines, asrSettings, engineFor } from '../../engines/asr/select';
import { baseLanguage } from '../../engines/asr/types';
import { AssetService } from '../assets/service';
import { sourceFile } from '../transcode/probe-job';
import { applyRecognition, recognitionPrompt } from '../subtitles/jobs';
import { SubtitleSettingsService } from '../subtitles/settings-service';
import { setSubtitleTrackStatus, subtitleTrackById } from '../subtitles/service';
import type { ClusterLink } from './link';
import { SUBJECTS, type SubtitleOutput } from './protocol';
import { runRemoteJob } from './remote-job';

/**
 * `subtitles.recognise` on the cluster: a worker with a speech engine for the track's language takes it from
 * `vs.jobs.subtitle.lang-<code>` (it waits there until such a worker joins), extracts and recognises the source's
 * audio and sends the segments back; the control node builds the cues and stores them. When this node's engine
 * for the language is a recognition service (nothing heavy runs here), the job stays local.
 */
export async function remoteRecognise(ctx: AppContext, job: JobRun<'subtitles.recognise'>, link: ClusterLink, local: Handler<'subtitles.recognise'>): Promise<void> {
  const track = subtitleTrackById(ctx, job.payload.trackId);
  if (!track) throw new PermanentJobError('the subtitle track was deleted');
  const settings = new SubtitleSettingsService(ctx).get(track.tenant_id);
  const prefer = settings.default_engine === 'auto' ? null : settings.default_engine;
  let here = null;
  try { here = engineFor(asrEngines(asrSettings(ctx.config.asr)), track.language, prefer); } catch { /* none here: a worker may have one */ }
  if (here && here.compute === 'remote') return local(ctx, job);
  const asset = new AssetService(ctx).get(track.tenant_id, track.asset_id);
  if (!asset.source_path) throw new PermanentJobError('the asset has no source file to recognise');
  const store = mediaStoreOf(ctx);
  const sourceKey = asset.source_path;
  setSubtitleTrackStatus(ctx, track.id, 'running', ctx.clock.now(), {});
  const t0 = performance.now();
  const end = await runRemoteJob<SubtitleOutput>(ctx, job, link, SUBJECTS.job('subtitle', `lang:${baseLanguage(track.language)}`), async (gen) => {
    if (store.kind !== 'local' && !(await store.stat(sourceKey))) await store.putFile(sourceKey, sourceFile(ctx.config.dataDir, sourceKey));
    return { kind: 'subtitle', jobId: job.id, gen, tenantId: track.tenant_id, sourceKey, language: track.language, prefer, prompt: recognitionPrompt(ctx, job, track) || null };
  });
  applyRecognition(ctx, job, track, { ...end.output, seconds: end.ms / 1000 || (performance.now() - t0) / 1000, audioS: asset.duration_s, worker: end.worker });
}
