import { assetJobHandlers } from '../features/assets/jobs';
import { failAssetOfJob, lifecycleJobHandlers } from '../features/assets/lifecycle';
import { clipJobHandlers, failClipOfJob } from '../features/clips/finalize';
import { failVodOfJob, vodJobHandlers } from '../features/live-to-vod/job';
import type { AppContext } from '../kernel/context';
import type { HandlerMap, JobRow } from './types';

/**
 * Every job type the appliance runs, combined from each feature's handler map (one place, so a type without a
 * handler is visible here). Add a feature's map with one spread line.
 */
export function allJobHandlers(): HandlerMap {
  return {
    ...assetJobHandlers,
    ...lifecycleJobHandlers,
    ...clipJobHandlers,
    ...vodJobHandlers,
  };
}

/** Runs when any job fails for good; each feature reacts to its own subjects. */
export function onJobFinalFailure(ctx: AppContext, job: JobRow, error: string): void {
  failAssetOfJob(ctx, job, error);
  failClipOfJob(ctx, job, error);
  failVodOfJob(ctx, job, error);
}
