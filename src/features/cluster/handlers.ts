import type { JobSetup } from '../../jobs/worker';
import type { ClusterLink } from './link';
import { remoteEncodeAsset } from './remote-encode';
import { remoteFinalizeClip } from './remote-clip';
import { remoteRecognise } from './remote-subtitle';
import { remoteDraft } from './remote-article';

/** Encodes waiting on workers at once on the control node (each is a wait, not an encode). */
const REMOTE_ENCODES = 64;

/**
 * The app's job setup with the heavy kinds handed to the cluster when one is linked (unchanged otherwise):
 * `asset.encode`, `clip.finalize`, `subtitles.recognise` and `article.draft` (posters are drawn on workers through the drawer the
 * cluster sets at start).
 */
export function withCluster(setup: JobSetup, link: ClusterLink | null): JobSetup {
  if (!link) return setup;
  return {
    ...setup,
    handlers: {
      ...setup.handlers,
      'asset.encode': (ctx, job) => remoteEncodeAsset(ctx, job, link),
      'clip.finalize': (ctx, job) => remoteFinalizeClip(ctx, job, link),
      'subtitles.recognise': (ctx, job) => remoteRecognise(ctx, job, link, setup.handlers['subtitles.recognise']),
      'article.draft': (ctx, job) => remoteDraft(ctx, job, link, setup.handlers['article.draft']),
    },
    concurrency: { ...setup.concurrency, 'asset.encode': REMOTE_ENCODES, 'clip.finalize': REMOTE_ENCODES, 'subtitles.recognise': REMOTE_ENCODES, 'article.draft': REMOTE_ENCODES },
  };
}
