import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { isUuid } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { jobQueue } from '../../jobs/worker';
import { resetForReencode, tenantAsset } from '../assets/lifecycle';
import { laddersOf } from './ladders';

/** POST /v1/assets/{id}/re-encode: encode a ready (or failed) asset again, optionally with another ladder. */
export function reencodeRoutes(ctx: AppContext) {
  return new Elysia({ prefix: '/v1/assets' })
    .use(ctx.http)
    .post('/:id/re-encode', ({ principal: p, params, body, set }) => {
      const a = isUuid(params.id) ? tenantAsset(ctx.db, p.tenantId, params.id) : null;
      if (!a) throw notFound('asset');
      const ladder = body?.ladder ?? null;
      if (ladder && !laddersOf(ctx).ladders[ladder]) throw invalid('ladder', `unknown ladder "${ladder}"`);
      const jobId = tx(ctx.db, () => {
        if (!resetForReencode(ctx.db, a.id, ladder)) throw new AppError('conflict', `asset is ${a.status}; only ready or failed assets can be re-encoded`);
        return enqueueJob(ctx.db, { tenantId: p.tenantId, type: 'asset.process', payload: { assetId: a.id, ...(ladder ? { ladder } : {}) }, subject: { kind: 'asset', id: a.id } });
      });
      jobQueue(ctx)?.wake();
      set.status = 202;
      return { asset: a.id, status: 'registered', job_id: jobId };
    }, {
      auth: { scope: 'assets:write', platform: true },
      params: t.Object({ id: t.String() }),
      body: t.Optional(t.Object({ ladder: t.Optional(t.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false })),
      response: { 202: t.Object({ asset: t.String(), status: t.String(), job_id: t.String() }) },
      detail: doc('Assets', 'Re-encode an asset', 'קידוד מחדש של נכס', 'Runs processing again (registered → probing → queued → encoding → packaging → ready) with the asset\'s ladder or `ladder` from the body (named ladders from config/ladders.yml). The previous output is replaced when the new one is complete; follow the job with GET /v1/jobs/{job_id}. Assets that are still processing answer 409.'),
    });
}
