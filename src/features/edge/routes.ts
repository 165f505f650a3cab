import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { PrewarmBody, PrewarmView, PurgeAccepted, PurgeBody } from './model';
import { EdgeService } from './service';

const T = 'CDN';

/** The edge's operations (issue 46; docs/edge.md): purge and pre-warm of the caching delivery front. */
export function edgeRoutes(ctx: AppContext) {
  const svc = new EdgeService(ctx);
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .post('/purge', ({ principal: p, body, set }) => { set.status = 202; return svc.purge(p.tenantId, body); }, {
      auth: { scope: 'delivery:write' }, body: PurgeBody,
      detail: doc(T, 'Purge the edge cache', 'ניקוי מטמון הקצה',
        'Exactly one of `urls`, `prefix`, `asset_id`, `clip_id`, `tag`. The keys of this tenant\'s cached objects it names now are counted (`keys`) and an `edge.purge` job evicts them (follow with `GET /v1/jobs/{job_id}`: `result.keys`, `result.removed`); the next request for each is a `MISS`. Works for CDN-only tenants too. Without a caching front the job purges nothing (`result.edge: false`).',
        { 'x-problems': [404, 422], ...answers({ 202: PurgeAccepted }) }),
    })
    .post('/prewarm', ({ principal: p, body, set }) => { set.status = 202; return svc.prewarm(p.tenantId, body); }, {
      auth: { scope: 'prewarm' }, body: PrewarmBody,
      detail: doc(T, 'Pre-warm the edge cache', 'חימום מוקדם של מטמון הקצה',
        'Exactly one of `asset_id`, `clip_id`, `channel_id` (walked as a viewer would: master, variant playlists, init and media segments; `renditions: lowest` takes the lowest bandwidth only; a channel: its live playlists and the segments they list) or `urls` (each fetched once, as given). At most 6 per minute per tenant (then 429 with `Retry-After`). Follow with `GET /v1/prewarm/{id}`; `prewarm.finished` when done. 403 `feature_disabled` when no caching front runs.',
        { 'x-problems': [403, 404, 422, 429], ...answers({ 202: PrewarmView }) }),
    })
    .get('/prewarm/:id', ({ principal: p, params }) => svc.view(p.tenantId, params.id), {
      auth: { scope: 'prewarm' }, params: t.Object({ id: t.String() }),
      detail: doc(T, 'Get a pre-warm', 'מצב חימום מוקדם',
        'Status, progress and the report: URLs fetched, already cached (`hit`), stored by this pre-warm (`stored`), failed (the first 20 with their status), bytes.',
        { 'x-problems': [404], ...answers({ 200: PrewarmView }) }),
    });
}
