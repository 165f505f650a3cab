import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import type { ChannelRow } from '../channels/store';
import { doc } from '../../kernel/http/plugin';
import { GuideReview } from './review';
import { CopyBody, DayAnswer, DraftView, GuideSettingsBody, GuideSettingsView, ImportAnswer, PublishAnswer, RollbackAnswer, RollbackBody, ShiftBody, VersionView } from './model';
import { answers } from '../meta/model';
import { fetchXmltv, importXmltv, MAX_XMLTV_BYTES } from './import';
import { invalid } from '../../kernel/errors';
import { authorOf } from './versions';
import { audit } from '../audit/service';
import { auditDirect, beforeChange } from './audit-direct';

const T = 'Guide';
const Id = t.Object({ id: t.String() });
const WRITE = { anyOf: ['channels:write', 'epg:write'] as ('channels:write' | 'epg:write')[], scope: null, platform: true };
const PUBLISH = { anyOf: ['channels:write', 'epg:publish'] as ('channels:write' | 'epg:publish')[], scope: null, platform: true };
const READ = { scope: 'channels:read' as const, platform: true };

/** /v1/channels/{id}/guide/...: settings, drafts, publish, rollback, versions, copy, shift, XMLTV import. */
export function guideReviewRoutes(ctx: AppContext) {
  const rv = new GuideReview(ctx);
  const ch = (tenantId: string, id: string) => rv.guide.channel(tenantId, id);
  const accepted = (set: { status?: number | string }, r: { staged: boolean }) => { set.status = r.staged ? 202 : 200; return r; };
  /** Runs a day or import change, then audits it when it went live (review mode off). */
  const direct = async <R,>(p: Principal, request: Request, c: ChannelRow, kind: string, fn: () => R | Promise<R>): Promise<R> => {
    const b = beforeChange(p, request, c, rv.guide.store, kind);
    const r = await fn();
    auditDirect(ctx, b);
    return r;
  };
  return new Elysia({ prefix: '/v1/channels/:id/guide' })
    .use(ctx.http)
    .get('/settings', ({ principal: p, params }) => rv.guide.settings(ch(p.tenantId, params.id)), { auth: READ, params: Id, detail: doc(T, 'Guide settings', 'הגדרות לוח שידורים', '`review_mode` and `lock_hours` of the channel\'s guide.', answers({ 200: GuideSettingsView })) })
    .put('/settings', ({ principal: p, params, body }) => rv.guide.putSettings(ch(p.tenantId, params.id), body), {
      auth: { scope: 'channels:write', platform: true }, params: Id, body: GuideSettingsBody,
      detail: doc(T, 'Change guide settings', 'שינוי הגדרות לוח שידורים', '`review_mode`: edits are staged as a draft until someone with `epg:publish` publishes. `lock_hours`: the next N hours cannot change (409 `lock_window`).', answers({ 200: GuideSettingsView })) })
    .get('/draft', ({ principal: p, params }) => ({ items: rv.drafts(ch(p.tenantId, params.id)) }), { auth: READ, params: Id, detail: doc(T, 'Staged guide changes', 'שינויים ממתינים', 'Changes waiting for publication (review mode), oldest first.', answers({ 200: t.Object({ items: t.Array(DraftView) }) })) })
    .delete('/draft', ({ principal: p, params }) => ({ discarded: rv.discard(ch(p.tenantId, params.id)) }), { auth: WRITE, params: Id, detail: doc(T, 'Discard staged changes', 'ביטול שינויים ממתינים', 'Drops every staged change; answers how many were discarded.', answers({ 200: t.Object({ discarded: t.Integer() }) })) })
    .post('/publish', ({ principal: p, params, request }) => {
      const c = ch(p.tenantId, params.id);
      const r = rv.publish(c, authorOf(p));
      audit(ctx, { tenantId: p.tenantId, action: 'guide.published', actor: p, request, target: c.id, details: { name: c.name, ...r } });
      return r;
    }, {
      auth: PUBLISH, params: Id, detail: doc(T, 'Publish the guide', 'פרסום לוח השידורים', 'Applies the staged changes in order (the lock window is checked again), records a numbered version and emits `epg.published`.', answers({ 200: PublishAnswer })) })
    .get('/versions', ({ principal: p, params }) => ({ items: rv.versions(ch(p.tenantId, params.id)) }), { auth: READ, params: Id, detail: doc(T, 'Published guide versions', 'גרסאות שפורסמו', 'The newest 100 published versions, newest first. Every change that reaches the published guide is a version: a reviewed draft published (`publish`), a rollback (`rollback:N`) and, with review mode off, each direct change (`edit`, `copy`, `shift`, `import`).', answers({ 200: t.Object({ items: t.Array(VersionView) }) })) })
    .post('/rollback', ({ principal: p, params, body, request }) => {
      const c = ch(p.tenantId, params.id);
      const r = rv.rollback(c, body.version, authorOf(p));
      audit(ctx, { tenantId: p.tenantId, action: 'guide.rolled_back', actor: p, request, target: c.id, details: { name: c.name, ...r } });
      return r;
    }, {
      auth: PUBLISH, params: Id, body: RollbackBody, detail: doc(T, 'Roll back the guide', 'החזרת גרסה', 'Restores a published version as a new version; `epg.published`. A version holds the programmes that end after one day before it was recorded: that part is restored (older programmes stay as they are). The newest 100 versions can be restored (older ones answer 404).', answers({ 200: RollbackAnswer })) })
    .post('/copy', async ({ principal: p, params, body, set, request }) => { const c = ch(p.tenantId, params.id); return accepted(set, await direct(p, request, c, 'copy', () => rv.copyDay(c, body.from_day, body.to_day, authorOf(p)))); }, {
      auth: WRITE, params: Id, body: CopyBody, detail: doc(T, 'Copy a day', 'העתקת יום', 'Replaces `to_day` (channel time zone) with copies of `from_day`\'s programmes. Staged (202) in review mode; otherwise published as a version (`copy`).', answers({ 200: DayAnswer, 202: DayAnswer })) })
    .post('/shift', async ({ principal: p, params, body, set, request }) => { const c = ch(p.tenantId, params.id); return accepted(set, await direct(p, request, c, 'shift', () => rv.shiftDay(c, body.day, body.minutes, authorOf(p)))); }, {
      auth: WRITE, params: Id, body: ShiftBody, detail: doc(T, 'Shift a day', 'הזזת יום', 'Moves every programme starting on `day` by `minutes`. Staged (202) in review mode; otherwise published as a version (`shift`).', answers({ 200: DayAnswer, 202: DayAnswer })) })
    .post('/import', async ({ principal: p, params, body, set, request }) => {
      const c = ch(p.tenantId, params.id);
      if (body.file.size > MAX_XMLTV_BYTES) throw invalid('file', 'at most 20 MB');
      return accepted(set, await direct(p, request, c, 'import', () => importXmltv(ctx, c, body.file.stream(), body.xmltv_channel, authorOf(p))));
    }, { auth: { ...WRITE, multipart: true }, params: Id, body: t.Object({ file: t.File(), xmltv_channel: t.Optional(t.String({ maxLength: 200 })) }),
      detail: doc(T, 'Import XMLTV (upload)', 'ייבוא XMLTV (קובץ)', 'multipart/form-data with `file`. Replaces the covered range; overlaps inside the file resolve predictably (a later start wins, the earlier programme is cut). Malformed documents answer 422. Staged (202) in review mode.', answers({ 200: ImportAnswer, 202: ImportAnswer })) })
    .post('/import-url', async ({ principal: p, params, body, set, request }) => {
      const c = ch(p.tenantId, params.id);
      return accepted(set, await direct(p, request, c, 'import', async () => importXmltv(ctx, c, await fetchXmltv(ctx, body.url), body.xmltv_channel, authorOf(p))));
    }, { auth: WRITE, params: Id, body: t.Object({ url: t.String({ maxLength: 2000 }), xmltv_channel: t.Optional(t.String({ maxLength: 200 })) }, { additionalProperties: false }),
      detail: doc(T, 'Import XMLTV (EPG source URL)', 'ייבוא XMLTV (כתובת)', 'Fetched through the safe fetcher (private addresses refused, 20 MB, 30 s), then imported like an upload. Staged (202) in review mode.', answers({ 200: ImportAnswer, 202: ImportAnswer })) });
}
