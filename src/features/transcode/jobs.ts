import type { FeatureHandlers } from '../../jobs/types';
import { encodeAsset } from './encode-job';
import { processAsset } from './probe-job';
import type { MediaRuntime } from './runtime';

/**
 * Job handlers of the media lifecycle, given the tools and encoder chosen at start. `asset.process` (queued with
 * the asset) probes the source and queues `asset.encode`, which encodes, packages and makes the asset ready.
 */
export function transcodeJobHandlers(media: MediaRuntime | null): FeatureHandlers<'asset.process' | 'asset.encode'> {
  return {
    'asset.process': (ctx, job) => processAsset(ctx, job, media),
    'asset.encode': (ctx, job) => encodeAsset(ctx, job, media),
  };
}

/** Parallel jobs per media job type: probes are light; encodes follow the chosen encoder's capacity. */
export function transcodeConcurrencyOf(media: MediaRuntime | null): { 'asset.process': number; 'asset.encode'?: number } {
  return media ? { 'asset.process': 2, 'asset.encode': media.choice.concurrency } : { 'asset.process': 2 };
}
