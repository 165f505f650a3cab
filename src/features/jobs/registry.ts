/**
 * The one place the features hand their job handlers to the queue (called by app.ts `startWorkers`): every job
 * type's handler, typed as the complete `HandlerMap` so a type without a handler fails to compile; the reactions
 * to final failures; per-type concurrency. The media tools and encoder are found once here and passed down.
 */
import type { AppContext } from '../../kernel/context';
import type { JobSetup } from '../../jobs/worker';
import type { HandlerMap, JobRow } from '../../jobs/types';
import { assetJobHandlers } from '../assets/jobs';
import { failAssetOfJob } from '../assets/lifecycle';
import { clipJobHandlers, failClipOfJob } from '../clips/finalize';
import { failVodOfJob, vodJobHandlers } from '../live-to-vod/job';
import { transcodeConcurrencyOf, transcodeJobHandlers } from '../transcode/jobs';
import { failTrackOfJob, subtitleJobHandlers } from '../subtitles/jobs';
import { failTranslationOfJob, translateJobHandlers } from '../subtitles/translate';
import { channelJobHandlers, failChannelTrackOfJob } from '../subtitles/channel-jobs';
import { articleJobHandlers } from '../articles/jobs';
import type { MediaRuntime } from '../transcode/runtime';
import { edgeJobHandlers } from '../edge/jobs';
import { failImportOfJob, importJobHandlers } from '../imports/service';
import { failPrepOfJob, fastJobHandlers } from '../fast/prep';
import { guideDeliveryJobHandlers } from '../guide/deliveries';
import { failTraceOfJob, watermarkJobHandlers } from '../watermark/service';

/** Runs when any job fails for good; each feature reacts to its own subjects. */
export function onJobFinalFailure(ctx: AppContext, job: JobRow, error: string): void {
  failAssetOfJob(ctx, job, error);
  failClipOfJob(ctx, job, error);
  failVodOfJob(ctx, job, error);
  failTrackOfJob(ctx, job, error);
  failTranslationOfJob(ctx, job, error);
  failChannelTrackOfJob(ctx, job, error);
  failImportOfJob(ctx, job, error);
  failPrepOfJob(ctx, job, error);
  failTraceOfJob(ctx, job, error);
}

/** Builds the queue's setup from the media runtime found once at boot (ffmpeg and the encoder) and every feature's handlers. */
export function featureJobs(media: MediaRuntime | null): JobSetup {
  const handlers: HandlerMap = {
    ...assetJobHandlers,
    ...transcodeJobHandlers(media),
    ...clipJobHandlers,
    ...vodJobHandlers(media?.tools ?? null),
    ...subtitleJobHandlers,
    ...edgeJobHandlers,
    ...translateJobHandlers,
    ...channelJobHandlers,
    ...articleJobHandlers,
    ...importJobHandlers,
    ...fastJobHandlers(media?.tools ?? null),
    ...guideDeliveryJobHandlers,
    ...watermarkJobHandlers(media?.tools ?? null),
  };
  return { handlers, onFinalFailure: onJobFinalFailure, concurrency: transcodeConcurrencyOf(media) };
}
