/**
 * Catch-up search inside what was said: the cues of a channel's recording tracks that match a query, placed on the
 * guide programmes they fall in, as `moments` (seconds from the programme's playback start, the cue's line).
 */
import type { AppContext } from '../../kernel/context';
import { invalid } from '../../kernel/errors';
import { matchScore, searchTokens } from '../../text/hebrew-search';
import type { ProgrammeRow } from '../guide/store';
import { cueLine, momentsOf, searchCues, type Moment } from './search';

/** Most cues looked at for a catch-up query of `limit` programmes (exact hits first, then newest): 10 a programme. */
export function catchupCueCap(limit: number): number {
  return Math.max(100, Math.min(500, limit * 10));
}
/** Most moments listed on one programme. */
export const MAX_MOMENTS = 20;

/** A programme found through its subtitles. */
export interface TranscriptHit {
  programme: ProgrammeRow;
  /** Some cue held every query word exactly. */
  exact: boolean;
  /** The line of its best cue (exact first, then earliest). */
  snippet: string;
  moments: Moment[];
}

/**
 * Programmes of `channelId` (started in [fromMs, toMs)) whose playback range holds subtitle cues matching `q`, in
 * rank order: programmes with an exact hit first, then newest first. `keep` drops programmes (exclusion rules).
 */
export function transcriptProgrammes(ctx: AppContext, tenantId: string, channelId: string, q: string, fromMs: number, toMs: number, keep: (p: ProgrammeRow) => boolean, limit = 20): TranscriptHit[] {
  const hits = searchCues(ctx.db, { tenantId, channelId }, q, catchupCueCap(limit));
  const at = ctx.db.query<ProgrammeRow, [string, number]>('SELECT * FROM programmes WHERE channel_id = ? AND start_ms <= ? ORDER BY start_ms DESC LIMIT 1');
  const found = new Map<string, { p: ProgrammeRow; cues: { ms: number; text: string; exact: boolean }[] }>();
  let last: ProgrammeRow | null = null;
  for (const h of hits) {
    if (h.rangeStartMs === null) continue;
    const wall = h.rangeStartMs + h.startMs;
    if (wall < fromMs || wall >= toMs) continue;
    const p: ProgrammeRow | null = last && last.start_ms <= wall && wall < last.end_ms ? last : at.get(channelId, wall);
    if (!p || wall >= p.end_ms) continue;
    last = p;
    if (p.start_ms < fromMs || !keep(p)) continue;
    const ps = p.play_start_ms ?? p.start_ms, pe = p.play_end_ms ?? p.end_ms;
    if (wall < ps || wall >= pe) continue; // outside what catch-up plays of it
    const e = found.get(p.id) ?? { p, cues: [] as { ms: number; text: string; exact: boolean }[] };
    e.cues.push({ ms: wall - ps, text: h.text, exact: h.exact });
    found.set(p.id, e);
  }
  const out = [...found.values()].map(({ p, cues }) => {
    const best = [...cues].sort((a, b) => Number(b.exact) - Number(a.exact) || a.ms - b.ms)[0]!;
    return { programme: p, exact: best.exact, snippet: cueLine(best.text), moments: momentsOf(cues, MAX_MOMENTS) };
  });
  return out.sort((a, b) => Number(b.exact) - Number(a.exact) || b.programme.start_ms - a.programme.start_ms);
}

/** The `transcript` query parameter: absent, `true` or `1` search subtitles; `false` or `0` do not; else 422. */
export function transcriptFlag(raw: string | undefined): boolean {
  if (raw === undefined || raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw invalid('transcript', 'true or false');
}

/** A ranked catch-up search hit: the programme, whether its guide text matched, its subtitle hit if any. */
export interface RankedHit { p: ProgrammeRow; meta: boolean; said: TranscriptHit | null }

/**
 * Merges guide-text hits (in their order) and subtitle hits (in theirs, after them) into one list, programmes where
 * every query word is found exactly (in the guide text or in one cue) first; the order is kept otherwise.
 */
export function rankHits(q: string, meta: ProgrammeRow[], said: TranscriptHit[]): RankedHit[] {
  const words = searchTokens(q).length;
  const byId = new Map<string, RankedHit>();
  for (const p of meta) byId.set(p.id, { p, meta: true, said: null });
  for (const h of said) {
    const e = byId.get(h.programme.id);
    if (e) e.said = h; else byId.set(h.programme.id, { p: h.programme, meta: false, said: h });
  }
  const exact = (h: RankedHit) => (h.said?.exact ?? false)
    || (h.meta && matchScore(q, [h.p.title, h.p.series ?? '', h.p.description ?? ''].join(' ')) === 2 * words);
  return [...byId.values()].map((h, i) => ({ h, i, x: exact(h) })).sort((a, b) => Number(b.x) - Number(a.x) || a.i - b.i).map((e) => e.h);
}
