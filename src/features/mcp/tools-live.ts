import { z } from 'zod';
import { invalid } from '../../kernel/errors';
import { liveControl } from '../../live/registry';
import { ChannelService } from '../channels/service';
import { channelView } from '../channels/view';
import { CatchupService } from '../catchup/service';
import { GuideService } from '../guide/service';
import { programmeView } from '../guide/view';
import { dayRange } from '../guide/days';
import { tool, type Tool } from './tool';
import { ChannelOut, Id, Instant, ListOf, Loose } from './schemas';

const CatchupItem = Loose({ id: z.string(), title: z.string(), start_at: z.string(), end_at: z.string(), status: z.string(), coverage: z.number(), playback: Loose({ hls: z.string() }) });

/** Live read tools: channels with live status, catch-up list and search, the guide of one day. */
export const liveReadTools: Tool[] = [
  tool({
    name: 'list_channels', title: 'List channels with live status', scope: 'channels:read', write: false,
    description: 'Every channel of the tenant with `status` (stopped, waiting, live, failed), the feed in use (primary, backup, none), recording state, input bitrate/resolution/codecs and warnings while live, and the live HLS address. Never shows ingest secrets.',
    input: { limit: z.number().int().min(1).max(200).optional().describe('1-200, default 50'), cursor: z.string().max(500).optional() },
    output: ListOf(ChannelOut, { next_cursor: z.string().nullable() }),
    run({ ctx, p }, a) {
      const svc = new ChannelService(ctx);
      const limit = a.limit ?? 50;
      const scope = `channels:${p.tenantId}`;
      const before = a.cursor ? ctx.cursors.decode(scope, a.cursor) : null;
      const live = liveControl(ctx.db);
      return ctx.cursors.page(scope, svc.store.list(p.tenantId, before, limit), limit, (r) => channelView(r, p.tenantSlug, ctx.config.cdnBaseUrl, live?.feedInfo(r.id) ?? null)) as unknown as Record<string, unknown>;
    },
  }),
  tool({
    name: 'list_catchup', title: 'Catch-up programmes of a channel', scope: 'channels:read', write: false,
    description: 'Recorded programmes of a channel, newest first, with recorded `coverage` (0-1), status and the catch-up HLS address. Window `from`/`to` (RFC 3339; default the last 24 hours; at most 8 days apart), clipped to the recording retention.',
    input: { channel_id: Id, from: Instant.optional(), to: Instant.optional() },
    output: ListOf(CatchupItem, { from: z.string(), to: z.string(), retention_from: z.string(), excluded_hidden: z.number().int() }),
    run({ ctx, p }, a) {
      const svc = new CatchupService(ctx);
      return svc.list(svc.guide.channel(p.tenantId, a.channel_id), p.tenantSlug, { from: a.from, to: a.to });
    },
  }),
  tool({
    name: 'search_catchup', title: 'Search catch-up', scope: 'channels:read', write: false,
    description: 'Finds recorded programmes of a channel by title, series or description (Hebrew-aware: niqqud and final letters fold, one-letter prefixes ignored). Items add `match {field, snippet}`.',
    input: { channel_id: Id, q: z.string().min(2).max(100), limit: z.number().int().min(1).max(50).optional().describe('1-50, default 20') },
    output: ListOf(CatchupItem, { truncated: z.boolean() }),
    run({ ctx, p }, a) {
      const svc = new CatchupService(ctx);
      return svc.search(svc.guide.channel(p.tenantId, a.channel_id), p.tenantSlug, a.q, a.limit === undefined ? undefined : String(a.limit));
    },
  }),
  tool({
    name: 'get_guide_day', title: 'Programme guide for a day', scope: 'channels:read', write: false,
    description: 'Published programmes of a channel overlapping one calendar day (YYYY-MM-DD) in the channel\'s time zone, by start time.',
    input: { channel_id: Id, date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('YYYY-MM-DD in the channel time zone') },
    output: ListOf(Loose({ id: z.string(), title: z.string(), start_at: z.string(), end_at: z.string() }), { date: z.string(), timezone: z.string(), from: z.string(), to: z.string() }),
    run({ ctx, p }, a) {
      const svc = new GuideService(ctx);
      const ch = svc.channel(p.tenantId, a.channel_id);
      if (Number.isNaN(Date.parse(`${a.date}T00:00:00Z`))) throw invalid('date', 'not a calendar day');
      const [from, to] = dayRange(a.date, ch.timezone);
      const items = svc.store.overlapping(ch.id, from, to).map((r) => programmeView(r, ch.id) as unknown as Record<string, unknown>);
      return { date: a.date, timezone: ch.timezone, from: new Date(from).toISOString(), to: new Date(to).toISOString(), items };
    },
  }),
];
