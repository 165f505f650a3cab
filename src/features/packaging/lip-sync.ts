/** The lip-sync switch (issue 48): off on the platform; visible per tenant, refused when asked on. */
import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';

/** The platform rule (the seed's): lip-sync checks cannot be created while lip-sync is switched off. */
export const LIP_SYNC_RULE = 'Lip-sync checks cannot be created while lip-sync is switched off on the platform (currently off).';

/** The lip-sync state as answered. */
export const LipSyncView = t.Object({
  enabled: t.Boolean({ description: 'whether lip-sync analysis runs (false: switched off on the platform)' }),
  platform: t.Literal('off', { description: 'the platform switch' }),
  checks_creatable: t.Boolean({ description: 'whether `lip_sync` monitor checks can be created' }),
  rule: t.String(),
});

const view = () => ({ enabled: false, platform: 'off' as const, checks_creatable: false, rule: LIP_SYNC_RULE });

/** GET/PATCH /v1/lip-sync. */
export function lipSyncRoutes(ctx: AppContext) {
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/lip-sync', () => view(), {
      auth: { scope: 'channels:read' },
      response: { 200: LipSyncView },
      detail: doc('Monitors', 'Read the lip-sync setting', 'קריאת הגדרת סנכרון השפתיים', 'Lip-sync analysis is switched off on the platform: `enabled` is false and `lip_sync` monitor checks are refused (422).'),
    })
    .patch('/lip-sync', ({ body }) => {
      if (body.enabled) throw new AppError('feature_disabled', LIP_SYNC_RULE);
      return view();
    }, {
      auth: { scope: 'tenant:settings' },
      body: t.Object({ enabled: t.Boolean() }, { additionalProperties: false }),
      response: { 200: LipSyncView },
      detail: doc('Monitors', 'Change the lip-sync setting', 'שינוי הגדרת סנכרון השפתיים', 'While lip-sync is switched off on the platform, `enabled: true` answers 403 `feature_disabled` with the rule; `false` answers the state.'),
    });
}
