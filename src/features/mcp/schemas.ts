import { z } from 'zod';

/** Shared zod pieces of tool schemas (input and output). */
export const Id = z.string().min(1).max(100);
/** An RFC 3339 instant as text. */
export const Instant = z.string().min(1).max(40).describe('RFC 3339 date-time');
/** Any object with these known fields (more fields may be present). */
export const Loose = (shape: z.ZodRawShape = {}) => z.looseObject(shape);
/** Truncation markers added by the result cap. */
export const Cap = { _truncated: z.boolean().optional().describe('true when a list was shortened to fit about 60 KB'), _omitted: z.number().int().optional().describe('items left out') };
/** A list result: items plus an optional cursor and truncation markers. */
export const ListOf = (item: z.ZodType, extra: z.ZodRawShape = {}) => z.object({ items: z.array(item), ...extra, ...Cap });
/** An asset as the API shows it (the fields assistants read; more are present). */
export const AssetOut = Loose({ id: z.string(), title: z.string(), status: z.string(), external_id: z.string().nullable(), playback: z.record(z.string(), z.string()).optional() });
/** A channel with live status. */
export const ChannelOut = Loose({ id: z.string(), slug: z.string(), name: z.string(), status: z.string(), feed: z.string(), recording: z.string(), playback: Loose({ hls: z.string() }) });
