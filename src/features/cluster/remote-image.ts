import type { AppContext } from '../../kernel/context';
import { AppError, invalid } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import type { PosterDrawer } from '../assets/poster-remote';
import type { ClusterLink } from './link';
import { SUBJECTS, type ImageJobMsg } from './protocol';

/** How long a poster request waits for a worker before answering 503. */
const IMAGE_WAIT_MS = 60_000;

/**
 * Poster frames on the cluster: each request publishes an `image` job (request-scoped: no queue row; a restart of
 * this node loses only the request) and waits for its result; past the wait the job is cancelled and the request
 * answers 503. "No frame at this time" from the worker answers 422 as on one box.
 */
export function remotePosterDrawer(ctx: AppContext, link: ClusterLink): PosterDrawer {
  return async (req) => {
    const jobId = `img-${newId()}`;
    const signal = AbortSignal.timeout(IMAGE_WAIT_MS);
    const result = link.awaitResult(jobId, signal);
    result.catch(() => undefined);
    const msg: ImageJobMsg = { kind: 'image', jobId, gen: 1, tenantId: req.tenantId, sourceKey: req.sourceKey, atS: req.atS, width: req.width, upscale: req.upscale, outKey: req.outKey };
    const seq = await link.publish(SUBJECTS.job('image', 'any'), msg);
    let r;
    try { r = await result; } catch {
      await link.cancel(jobId, 1, seq).catch(() => undefined);
      throw new AppError('not_ready', `no worker drew the frame within ${IMAGE_WAIT_MS / 1000} s; try again`);
    }
    ctx.log.info('poster drawn on worker', { asset: req.assetId, worker: r.worker, ok: r.ok });
    if (!r.ok) {
      if (/no frame at this time/.test(r.error)) throw invalid('time_s', 'no frame at this time');
      throw new AppError('internal_error', `the frame could not be drawn on worker ${r.worker}: ${r.error.slice(0, 300)}`);
    }
  };
}
