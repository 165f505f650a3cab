import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { answers } from '../meta/model';
import { GuideService } from './service';
import { ApplyAnswer, ApplyBody, TemplateBody, TemplateView } from './templates-model';
import { TemplateService } from './templates';

const T = 'Guide';
const Id = t.Object({ id: t.String() });
const WRITE = { anyOf: ['channels:write', 'epg:write'] as ('channels:write' | 'epg:write')[], scope: null, platform: true };
const READ = { scope: 'channels:read' as const, platform: true };

/** /v1/guide/templates: weekly schedule templates and applying one to a channel's days (as a draft). */
export function guideTemplateRoutes(ctx: AppContext) {
  const svc = new TemplateService(ctx);
  const guide = new GuideService(ctx);
  return new Elysia({ prefix: '/v1/guide/templates' })
    .use(ctx.http)
    .get('/', ({ principal: p }) => ({ items: svc.list(p.tenantId) }), {
      auth: READ, detail: doc(T, 'List guide templates', 'רשימת תבניות לוח שידורים', 'The tenant\'s weekly schedule templates.', answers({ 200: t.Object({ items: t.Array(TemplateView) }) })) })
    .post('/', ({ principal: p, body, set }) => { set.status = 201; return svc.create(p.tenantId, body); }, {
      auth: WRITE, body: TemplateBody, detail: doc(T, 'Create a guide template', 'יצירת תבנית לוח שידורים', 'A week of slots (ISO weekday, `HH:MM` start in the channel\'s time zone, duration, title, ...); slots are kept by weekday and start.', { 'x-problems': [422], ...answers({ 201: TemplateView }) }) })
    .get('/:id', ({ principal: p, params }) => svc.get(p.tenantId, params.id), {
      auth: READ, params: Id, detail: doc(T, 'Get a guide template', 'תבנית לוח שידורים', 'One template with its slots.', { 'x-problems': [404], ...answers({ 200: TemplateView }) }) })
    .put('/:id', ({ principal: p, params, body }) => svc.replace(p.tenantId, params.id, body), {
      auth: WRITE, params: Id, body: TemplateBody, detail: doc(T, 'Replace a guide template', 'החלפת תבנית לוח שידורים', 'The name and the whole week of slots.', { 'x-problems': [404, 422], ...answers({ 200: TemplateView }) }) })
    .delete('/:id', ({ principal: p, params, set }) => { svc.delete(p.tenantId, params.id); set.status = 204; return null; }, {
      auth: WRITE, params: Id, detail: doc(T, 'Delete a guide template', 'מחיקת תבנית לוח שידורים', 'Drafts it made stay.', { 'x-problems': [404], ...answers({ 204: null }) }) })
    .post('/:id/apply', ({ principal: p, params, body, set }) => {
      const ch = guide.channel(p.tenantId, body.channel_id);
      set.status = 202;
      return svc.apply(p.tenantId, params.id, ch, body.from_day, body.to_day ?? body.from_day, body.mode ?? 'fill');
    }, {
      auth: WRITE, params: Id, body: ApplyBody,
      detail: doc(T, 'Apply a guide template', 'החלת תבנית על לוח השידורים', 'Stages the template over `from_day`-`to_day` (inclusive, channel time zone, at most 31 days) as a draft of the channel: the preview (GET .../guide/draft), published with POST .../guide/publish or discarded. `fill` (default) stages only slots where the published guide has a gap; `replace` stages the range replaced by the template.', { 'x-problems': [404, 422], ...answers({ 202: ApplyAnswer }) }) });
}
