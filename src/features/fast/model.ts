import { t } from 'elysia';
import { Int } from '../../kernel/http/schema';

/** One playlist entry: a ready asset of the tenant, aired `loops` times in a row. */
export interface FastItem { asset_id: string; loops: number }
/** A time-of-day block (channel time zone, `HH:MM`, end exclusive; an end at or before the start runs past midnight) with its own playlist. */
export interface Daypart { name: string; start: string; end: string; items: FastItem[] }
/** A rendition the FAST channel airs (from its reference asset): assets whose renditions differ are conformed. */
export interface ChannelRendition { name: string; width: number; height: number; video_k: number }
/** Prepared segments of one asset for a rendition profile: per rendition its init and segments (data-dir relative), their durations (ms). */
export interface PrepSegments {
  init: Record<string, string>; segs: Record<string, string[]>; ms: number[];
  /** Per segment: ms from its start to where its shorter track ends (an airing cut after it ends there: no hole at the join). */
  cut?: number[];
}

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const HHMM = t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: '`HH:MM`, channel time zone' });
const Item = t.Object({
  asset_id: t.String({ description: 'a ready asset of the tenant' }),
  loops: t.Optional(Int({ minimum: 1, maximum: 100, description: 'times in a row (default 1)' })),
}, { additionalProperties: false });
const DaypartIn = t.Object({
  name: t.Optional(t.String({ maxLength: 80 })), start: HHMM, end: HHMM,
  items: t.Array(Item, { minItems: 1, maxItems: 200 }),
}, { additionalProperties: false });

/** Body of PUT /v1/channels/{id}/fast. */
export const PutFastBody = t.Object({
  enabled: t.Optional(t.Boolean({ description: 'default true: a started channel airs the schedule instead of its ingest' })),
  items: t.Array(Item, { minItems: 1, maxItems: 200, description: 'the default playlist, looped for ever' }),
  dayparts: t.Optional(t.Array(DaypartIn, { maxItems: 24, description: 'time-of-day blocks with their own playlists; must not overlap' })),
  breaks: t.Optional(t.Object({
    slate_asset_id: t.Optional(Nullable(t.String({ description: 'a ready asset aired during each break (looped or cut to the duration)' }))),
    duration_s: t.Optional(Nullable(t.Number({ minimum: 1, maximum: 600, description: 'break length; default the slate\'s length, or 30 s of markers only without a slate' }))),
  }, { additionalProperties: false })),
  guide_hours: t.Optional(Int({ minimum: 1, maximum: 168, description: 'hours of guide generated ahead (default 24)' })),
}, { additionalProperties: false });
export type PutFast = typeof PutFastBody.static;

const ItemView = t.Object({
  asset_id: t.String(), loops: Int(), title: t.String(), duration_s: Nullable(t.Number()), cues: t.Array(t.Number()),
  prep: t.Object({ status: t.String({ description: '`pending`, `ready` or `failed`' }), mode: t.String({ description: '`copy` (stream copy of its CMAF renditions) or `conform` (re-encoded to the channel renditions)' }), error: Nullable(t.String()) }),
});

/** A FAST schedule as the API shows it. */
export const FastView = t.Object({
  channel_id: t.String(), enabled: t.Boolean(), status: t.String({ description: '`preparing` (some asset is being prepared), `ready` or `failed`' }),
  items: t.Array(ItemView), dayparts: t.Array(t.Object({ name: t.String(), start: t.String(), end: t.String(), items: t.Array(ItemView) })),
  breaks: t.Object({ slate_asset_id: Nullable(t.String()), duration_s: Nullable(t.Number()), slate: Nullable(ItemView) }),
  renditions: t.Array(t.Object({ name: t.String(), width: Int(), height: Int(), video_k: Int() })),
  guide_hours: Int(), anchor_at: t.String({ description: 'the default playlist starts its first loop here' }), version: Int(),
  created_at: t.String(), updated_at: t.String(),
});

/** One entry of the preview: an airing of an asset or a break. */
export const PreviewEntry = t.Object({
  kind: t.String({ description: '`asset` or `break`' }), asset_id: Nullable(t.String()), title: t.String(),
  start_at: t.String(), end_at: t.String(), daypart: Nullable(t.String({ description: 'the daypart it airs in (null: the default playlist)' })),
});
export const PreviewView = t.Object({ from: t.String(), to: t.String(), entries: t.Array(PreviewEntry), truncated: t.Boolean() });
export const PreviewQuery = t.Object({
  hours: t.Optional(t.Numeric({ minimum: 0.01, maximum: 48, description: 'hours ahead (default 6, at most 48)' })),
  from: t.Optional(t.String({ description: 'RFC 3339; default now' })),
});
