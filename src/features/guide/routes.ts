import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { GuideService } from './service';
import { BoundsBody, CreateProgrammeBody, ExclusionsBody, ExclusionsView, PatchProgrammeBody, ProgrammeList, ProgrammeView, StagedAnswer } from './model';
import { answers } from '../meta/model';
import { programmeView } from './view';
import { authorOf } from './versions';
import { auditDirect, beforeChange } from './audit-direct';

const T = 'Guide';
const Id = t.Object({ id: t.String() });
const IdP = t.Object({ id: t.String(), programme_id: t.String() });
const WRITE = { anyOf: ['channels:write', 'epg:write'] as ('channels:write' | 'epg:write')[], scope: null, platform: true };
const READ = { scope: 'channels:read' as const, platform: true };

/** /v1/channels/{id}/programmes: guide programmes (create, list, get, change, delete, boundaries); catch-up exclusions. */
export function guideRoutes(ctx: AppContext) {
  const svc = new GuideService(ctx);
  return new Elysia()
    .use(ctx.http)
    .post('/v1/channels/:id/programmes', ({ principal: p, params, body, set, request }) => {
      const ch = svc.channel(p.tenantId, params.id);
      const c = beforeChange(p, request, ch, svc.store, 'edit');
      const r = svc.create(ch, body, authorOf(p));
      auditDirect(ctx, c);
      set.status = r.staged ? 202 : 201;
      return programmeView(r.programme, ch.id, r.staged);
    }, { auth: WRITE, params: Id, body: CreateProgrammeBody,
      detail: doc(T, 'Add a programme', 'הוספת תוכנית', 'Answers 201 with the programme (published at once and recorded as a guide version, kind `edit`), or 202 with `draft: true` when the channel is in review mode (publish with POST .../guide/publish). The newest write wins: programmes it overlaps are trimmed back, removed when covered. A change reaching into the channel\'s locked hours answers 409 `lock_window`.', answers({ 201: ProgrammeView, 202: ProgrammeView })) })
    .get('/v1/channels/:id/programmes', ({ principal: p, params, query }) => {
      const ch = svc.channel(p.tenantId, params.id);
      const now = ctx.clock.now();
      const [from, to] = svc.window(query.from, query.to, now - 86_400_000, now + 7 * 86_400_000, 31);
      return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), items: svc.store.overlapping(ch.id, from, to).map((r) => programmeView(r, ch.id)) };
    }, { auth: READ, params: Id, query: t.Object({ from: t.Optional(t.String()), to: t.Optional(t.String()) }),
      detail: doc(T, 'List programmes', 'רשימת תוכניות', 'Published programmes overlapping `from`-`to` (default: last 24 hours to 7 days ahead; at most 31 days), by start.', answers({ 200: ProgrammeList })) })
    .get('/v1/channels/:id/programmes/:programme_id', ({ principal: p, params }) => {
      const ch = svc.channel(p.tenantId, params.id);
      return programmeView(svc.get(ch, params.programme_id), ch.id);
    }, { auth: READ, params: IdP, detail: doc(T, 'Get a programme', 'תוכנית', 'A published programme with its playback boundaries.', answers({ 200: ProgrammeView })) })
    .patch('/v1/channels/:id/programmes/:programme_id', ({ principal: p, params, body, set, request }) => {
      const ch = svc.channel(p.tenantId, params.id);
      const c = beforeChange(p, request, ch, svc.store, 'edit');
      const r = svc.patch(ch, params.programme_id, body, authorOf(p));
      auditDirect(ctx, c);
      set.status = r.staged ? 202 : 200;
      return programmeView(r.programme, ch.id, r.staged);
    }, { auth: WRITE, params: IdP, body: PatchProgrammeBody, detail: doc(T, 'Change a programme', 'שינוי תוכנית', 'Staged (202) in review mode. Moving the times resets confirmed boundaries.', answers({ 200: ProgrammeView, 202: ProgrammeView })) })
    .delete('/v1/channels/:id/programmes/:programme_id', ({ principal: p, params, set, request }) => {
      const ch = svc.channel(p.tenantId, params.id);
      const c = beforeChange(p, request, ch, svc.store, 'edit');
      const staged = svc.remove(ch, params.programme_id, authorOf(p));
      auditDirect(ctx, c);
      set.status = staged ? 202 : 204;
      return staged ? { draft: true } : null;
    }, { auth: WRITE, params: IdP, detail: doc(T, 'Delete a programme', 'מחיקת תוכנית', 'Staged (202) in review mode.', answers({ 204: null, 202: StagedAnswer })) })
    .put('/v1/channels/:id/programmes/:programme_id/boundaries', ({ principal: p, params, body }) => {
      const ch = svc.channel(p.tenantId, params.id);
      return programmeView(svc.setBounds(ch, params.programme_id, body), ch.id);
    }, { auth: WRITE, params: IdP, body: BoundsBody,
      detail: doc(T, 'Confirm playback boundaries', 'אישור גבולות ניגון', 'Catch-up plays `play_start`-`play_end` instead of the guide times; `bounds_status` becomes `confirmed`. Within one hour of the guide times.', answers({ 200: ProgrammeView })) })
    .delete('/v1/channels/:id/programmes/:programme_id/boundaries', ({ principal: p, params }) => {
      const ch = svc.channel(p.tenantId, params.id);
      return programmeView(svc.setBounds(ch, params.programme_id, null), ch.id);
    }, { auth: WRITE, params: IdP, detail: doc(T, 'Reset playback boundaries', 'איפוס גבולות ניגון', 'Back to the guide times (`bounds_status: epg`).', answers({ 200: ProgrammeView })) })
    .get('/v1/catchup/exclusions', ({ principal: p }) => ({ rules: svc.exclusions(p.tenantId) }), {
      auth: READ, detail: doc(T, 'Catch-up exclusion rules', 'כללי החרגה מצפייה חוזרת', 'The tenant\'s rules; programmes matching one are left out of catch-up.', answers({ 200: ExclusionsView })) })
    .put('/v1/catchup/exclusions', ({ principal: p, body }) => ({ rules: svc.putExclusions(p.tenantId, body.rules) }), {
      auth: { scope: 'tenant:settings', platform: true }, body: ExclusionsBody,
      detail: doc(T, 'Set catch-up exclusion rules', 'קביעת כללי החרגה', 'Programmes whose title or series matches a rule are dropped from catch-up lists (counted in `excluded_hidden`) and cannot be published to the library (422).', answers({ 200: ExclusionsView })) });
}
