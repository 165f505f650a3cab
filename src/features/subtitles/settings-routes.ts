import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { audit } from '../audit/service';
import { SubtitleSettingsPatch, SubtitleSettingsView } from './settings-model';
import { SubtitleSettingsService } from './settings-service';

/** GET/PATCH /v1/settings/subtitles: the tenant's subtitle settings (issue 43; docs/subtitles.md). */
export function subtitleSettingsRoutes(ctx: AppContext) {
  const svc = new SubtitleSettingsService(ctx);
  return new Elysia({ prefix: '/v1/settings' })
    .use(ctx.http)
    .get('/subtitles', ({ principal: p }) => svc.get(p.tenantId), {
      auth: { scope: 'assets:read' },
      response: { 200: SubtitleSettingsView },
      detail: doc('Identity', 'Read subtitle settings', 'קריאת הגדרות הכתוביות',
        'Languages subtitled automatically for new assets and for channel recordings, the reading speed (characters per second, default 17) and the default speech engine, with defaults filled in.'),
    })
    .patch('/subtitles', ({ principal: p, body, request }) => {
      const { out, changed } = svc.patch(p.tenantId, body);
      if (Object.keys(changed).length) audit(ctx, { tenantId: p.tenantId, action: 'settings.changed', actor: p, request, target: p.tenantId, details: { changed: Object.fromEntries(Object.entries(changed).map(([k, v]) => [`subtitles.${k}`, v])) } });
      return out;
    }, {
      auth: { scope: 'tenant:settings' },
      body: SubtitleSettingsPatch,
      response: { 200: SubtitleSettingsView },
      detail: doc('Identity', 'Change subtitle settings', 'שינוי הגדרות הכתוביות',
        'Any subset: `auto_subtitles.assets` / `.recordings` (languages; a list replaces the old one), `reading_speed` (5-40) and `default_engine`. Each change is audited (`settings.changed`).'),
    });
}
