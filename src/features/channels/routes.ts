import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { parseLimit } from '../../kernel/http/pagination';
import { notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { liveControl } from '../../live/registry';
import { ChannelService } from './service';
import { InputChecksService } from './input-checks-service';
import { MonitorService } from '../monitors/service';
import { ChannelView, CreateChannelBody, HistoryQuery, HistoryView, IngestView, LogsView, PatchChannelBody, RotateBody } from './model';
import { channelHistory, historyWindow } from './history';
import { channelView } from './view';
import { answers, PageQuery } from '../meta/model';
import type { ChannelRow } from './store';
import { audit } from '../audit/service';

const Id = t.Object({ id: t.String() });
const T = 'Live channels';

/** /v1/channels: create, list, change, delete, ingest secrets, start/stop, logs. */
export function channelRoutes(ctx: AppContext) {
  const svc = new ChannelService(ctx);
  const monitors = new MonitorService(ctx);
  const inputChecks = new InputChecksService(ctx);
  const view = (r: ChannelRow, tenantSlug: string) => {
    const live = liveControl(ctx.db);
    return { ...channelView(r, tenantSlug, ctx.config.cdnBaseUrl, live?.feedInfo(r.id) ?? null, live?.inputs?.(r.id) ?? null, live?.lastRefused?.(r.id) ?? null), input_checks: inputChecks.state(r.id) };
  };
  const id = (s: string) => { if (!isUuid(s)) throw notFound('channel'); return s; };
  return new Elysia({ prefix: '/v1/channels' })
    .use(ctx.http)
    .post('/', ({ principal: p, body, set }) => {
      set.status = 201;
      return view(svc.create(p.tenantId, body), p.tenantSlug);
    }, { auth: { scope: 'channels:write', platform: true }, body: CreateChannelBody, response: { 201: ChannelView },
      detail: doc(T, 'Create a channel', 'יצירת ערוץ', 'Allocates two SRT listener ports (primary, backup) from the appliance range, an SRT passphrase and two RTMP stream keys. Starts `stopped`.') })
    .get('/', ({ principal: p, query }) => {
      const limit = parseLimit(query.limit, 50, 200);
      const scope = `channels:${p.tenantId}`;
      const cursor = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null;
      return ctx.cursors.page(scope, svc.store.list(p.tenantId, cursor, limit), limit, (r) => view(r, p.tenantSlug));
    }, { auth: { scope: 'channels:read', platform: true }, query: PageQuery(),
      response: { 200: t.Object({ items: t.Array(ChannelView), next_cursor: t.Union([t.String(), t.Null()]) }) },
      detail: doc(T, 'List channels', 'רשימת ערוצים', 'Newest first; `limit` up to 200 (default 50).') })
    .get('/:id', ({ principal: p, params }) => view(svc.get(p.tenantId, id(params.id)), p.tenantSlug), {
      auth: { scope: 'channels:read', platform: true }, params: Id, response: { 200: ChannelView },
      detail: doc(T, 'Get a channel', 'ערוץ', 'Status (`stopped`, `waiting`, `live`, `failed`), feed (`primary`, `backup`, `none`), recording (`on`, `off`, `gap`) and the measured input.') })
    .patch('/:id', async ({ principal: p, params, body }) => view(await svc.patch(p.tenantId, id(params.id), body), p.tenantSlug), {
      auth: { scope: 'channels:write', platform: true }, params: Id, body: PatchChannelBody, response: { 200: ChannelView },
      detail: doc(T, 'Change a channel', 'שינוי ערוץ', 'Changes to the protocol (`ingest.protocol`: the one the channel listens to), latency, segment duration, packaging or recording restart a running channel\'s ingest (a few seconds without feed); fields sent unchanged restart nothing.') })
    .delete('/:id', async ({ principal: p, params, set }) => { await svc.remove(p.tenantId, id(params.id)); set.status = 204; return null; }, {
      auth: { scope: 'channels:write', platform: true }, params: Id,
      detail: doc(T, 'Delete a channel', 'מחיקת ערוץ', 'Stops it and drops its segment index; recorded files are left for retention.', answers({ 204: null })) })
    .get('/:id/ingest', ({ principal: p, params }) => svc.ingest(p.tenantId, id(params.id)), {
      auth: { scope: 'channels:operate', platform: true }, params: Id, response: { 200: IngestView },
      detail: doc(T, 'Ingest endpoints and secrets', 'כתובות קליטה וסודות', 'SRT caller URLs (AES-128, `pbkeylen=16`) for primary and backup, and RTMP URL plus stream keys (push to `url + "/" + stream_key`).') })
    .post('/:id/ingest/rotate', async ({ principal: p, params, body }) => svc.rotate(p.tenantId, id(params.id), body ?? {}), {
      auth: { scope: 'channels:operate', platform: true }, params: Id, body: t.Optional(RotateBody), response: { 200: IngestView },
      detail: doc(T, 'Rotate ingest secrets', 'החלפת סודות קליטה', 'New SRT passphrase and RTMP stream keys; the old ones are refused at once (a running channel restarts its listeners).') })
    .post('/:id/start', async ({ principal: p, params, request }) => {
      const c = await svc.start(p.tenantId, id(params.id));
      audit(ctx, { tenantId: p.tenantId, action: 'channel.started', actor: p, request, target: c.id, details: { name: c.name } });
      // Nothing watches the channel yet: its default watch (feed lost during a scheduled programme → an alert in the bell).
      try { monitors.ensureFeedWatch(p.tenantId, c.id); } catch (e) { ctx.log.warn('default channel watch not created', { channel: c.id, error: String(e) }); }
      return view(c, p.tenantSlug);
    }, {
      auth: { scope: 'channels:operate', platform: true }, params: Id, response: { 200: ChannelView },
      detail: doc(T, 'Start a channel', 'הפעלת ערוץ', 'Opens the listener of its protocol; the channel is `waiting` until a feed arrives, then `live`. Started channels start again after a server restart. A channel no monitor watches gets its default watch (a monitor named after it: `feed_down` during scheduled programmes, critical, 10 s; see docs/monitors.md).') })
    .post('/:id/stop', async ({ principal: p, params, request }) => {
      const c = await svc.stop(p.tenantId, id(params.id));
      audit(ctx, { tenantId: p.tenantId, action: 'channel.stopped', actor: p, request, target: c.id, details: { name: c.name } });
      return view(c, p.tenantSlug);
    }, {
      auth: { scope: 'channels:operate', platform: true }, params: Id, response: { 200: ChannelView },
      detail: doc(T, 'Stop a channel', 'עצירת ערוץ', 'Closes the listeners and stops recording.') })
    .get('/:id/logs', ({ principal: p, params }) => {
      svc.get(p.tenantId, id(params.id));
      return liveControl(ctx.db)?.logs(params.id) ?? { primary: [], backup: [], restarts: 0 };
    }, { auth: { scope: 'channels:operate', platform: true }, params: Id, response: { 200: LogsView },
      detail: doc(T, 'Ingest process logs', 'יומני תהליכי קליטה', 'The last stderr lines of each input\'s ffmpeg (secrets redacted) and how often they were restarted.') })
    .get('/:id/history', ({ principal: p, params, query }) => {
      const ch = svc.get(p.tenantId, id(params.id));
      const [from, to] = historyWindow(query, ctx.clock.now());
      return channelHistory(ctx, ch, from, to);
    }, { auth: { scope: 'channels:read', platform: true }, params: Id, query: HistoryQuery, response: { 200: HistoryView },
      detail: doc(T, 'Channel history', 'היסטוריית ערוץ', '`from`/`to` (RFC 3339; default the last hour; at most 8 days apart). Feed changes and primary ⇄ backup failovers with their times and reasons, recording status changes, and recording gaps (holes of a second or more between recorded segments, from the segment index; `open` while nothing is recorded yet). Each list holds at most 500 entries, oldest first (`truncated` when more happened).') });
}
