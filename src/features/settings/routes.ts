import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { audit } from '../audit/service';
import { SettingsService } from './service';
import { SettingsPatch, SettingsView } from './model';

/** GET/PATCH /v1/settings: tenant settings and branding. */
export function settingsRoutes(ctx: AppContext) {
  const svc = new SettingsService(ctx);
  return new Elysia({ prefix: '/v1' })
    .use(ctx.http)
    .get('/settings', ({ principal: p }) => svc.get(p.tenantId), {
      auth: { scope: 'assets:read' },
      response: { 200: SettingsView },
      detail: doc('Identity', 'Read tenant settings and branding', 'קריאת הגדרות ומיתוג הדייר', 'Name, logo, colours, time zone, default encoding ladder, auto-publish and default languages, with defaults filled in. Catch-up exclusions live with the guide.'),
    })
    .patch('/settings', ({ principal: p, body, request }) => {
      const { out, changed } = svc.patch(p.tenantId, body);
      if (Object.keys(changed).length) audit(ctx, { tenantId: p.tenantId, action: 'settings.changed', actor: p, request, target: p.tenantId, details: { changed } });
      return out;
    }, {
      auth: { scope: 'tenant:settings' },
      body: SettingsPatch,
      response: { 200: SettingsView },
      detail: doc('Identity', 'Change tenant settings and branding', 'שינוי הגדרות ומיתוג הדייר', 'Any subset of the fields; colours merge with the current ones. `logo_url` must be https; `time_zone` an IANA name; `default_ladder` one of the configured ladders. Each change is audited (`settings.changed`, with before and after).'),
    });
}
