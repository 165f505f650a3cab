import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { requireScope } from '../../kernel/http/auth';
import { GuideService } from '../guide/service';
import { VodService } from './service';
import { VodBatchAnswer, VodPublishAnswer } from '../catchup/model';
import { answers } from '../meta/model';
import { audit } from '../audit/service';

const T = 'Catch-up';
const Options = {
  publish: t.Optional(t.Boolean({ description: 'publish the asset as soon as it is ready (needs assets:publish; stored as publish mode `on_ready`); otherwise it stays a draft' })),
  collection_id: t.Optional(t.String({ maxLength: 200, description: 'kept in the asset metadata' })),
  replace: t.Optional(t.Boolean({ description: 'publish again although a library asset exists (the old one goes to the trash)' })),
};

/** POST /v1/channels/{id}/programmes/{programme_id}/publish-vod and the batch form. */
export function vodRoutes(ctx: AppContext) {
  const vod = new VodService(ctx);
  const guide = new GuideService(ctx);
  return new Elysia()
    .use(ctx.http)
    .post('/v1/channels/:id/programmes/:programme_id/publish-vod', ({ principal: p, params, body, set, request }) => {
      if (body?.publish) requireScope(p, 'assets:publish');
      const r = vod.publish(guide.channel(p.tenantId, params.id), params.programme_id, body ?? {});
      audit(ctx, { tenantId: p.tenantId, action: 'programme.to_library', actor: p, request, target: params.programme_id, details: { publish: !!body?.publish, job: r.job_id } });
      set.status = 202;
      return r;
    }, { auth: { scope: 'assets:write', platform: true }, params: t.Object({ id: t.String(), programme_id: t.String() }),
      body: t.Optional(t.Object({ ...Options, start_at: t.Optional(t.String()), end_at: t.Optional(t.String()) }, { additionalProperties: false })),
      detail: doc(T, 'Publish a programme to the library', 'פרסום תוכנית לספרייה', '202. Remuxes the recorded range (`play_start`-`play_end`, or `start_at`/`end_at`) without re-encoding into a new library asset, which then follows the normal asset lifecycle and events. Progress in the catch-up item\'s `vod.status` (`publishing`, `published`, `failed`). Excluded programmes and ranges with nothing recorded: 422; on air, or already published without `replace`: 409.', answers({ 202: VodPublishAnswer })) })
    .post('/v1/channels/:id/programmes/publish-vod', ({ principal: p, params, body, set }) => {
      if (body.publish) requireScope(p, 'assets:publish');
      const ch = guide.channel(p.tenantId, params.id);
      set.status = 202;
      return { items: vod.publishMany(ch, body.programme_ids, body) };
    }, { auth: { scope: 'assets:write', platform: true }, params: t.Object({ id: t.String() }),
      body: t.Object({ programme_ids: t.Array(t.String(), { minItems: 1, maxItems: 50 }), ...Options }, { additionalProperties: false }),
      detail: doc(T, 'Publish programmes to the library (batch)', 'פרסום תוכניות לספרייה (אצווה)', '202 with one entry per programme: `accepted` and the job, or the refusal (same rules as the single form).', answers({ 202: VodBatchAnswer })) });
}
