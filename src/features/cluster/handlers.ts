import type { JobSetup } from '../../jobs/worker';
import type { ClusterLink } from './control';
import { remoteEncodeAsset } from './remote-encode';

/** Encodes waiting on workers at once on the control node (each is a wait, not an encode). */
const REMOTE_ENCODES = 64;

/** The app's job setup with `asset.encode` handed to the cluster when one is linked (unchanged otherwise). */
export function withCluster(setup: JobSetup, link: ClusterLink | null): JobSetup {
  if (!link) return setup;
  return {
    ...setup,
    handlers: { ...setup.handlers, 'asset.encode': (ctx, job) => remoteEncodeAsset(ctx, job, link) },
    concurrency: { ...setup.concurrency, 'asset.encode': REMOTE_ENCODES },
  };
}
