/**
 * Search inside what was said (issue 43): queries over the transcript index of search-index.ts. A query's words (in
 * the Hebrew-aware search form) must all occur in one cue. Cues holding every word exactly come first; then cues
 * where a word matches as a word prefix or once prefix letters (ו ה ב כ ל מ ש) are stripped on either side. Inside
 * each class the newest track's cues come first (later cues first). The query text never reaches FTS5 syntax: only letters and
 * digits survive, each word quoted.
 */
import type { Db } from '../../kernel/db/sqlite';
import { prefixVariants, searchTokens } from '../../text/hebrew-search';
import { CUE_BITS, scopeToken } from './search-index';

/** Where to search: a tenant's asset tracks (optionally one asset's), or one channel's recording tracks. */
export type CueScope = { tenantId: string; assetId?: string } | { tenantId: string; channelId: string };

/** One matching cue, with its track's owner and times (cue times relative to the track, as stored). */
export interface CueHit {
  trackId: string; language: string; assetId: string; channelId: string | null;
  /** Channel tracks: the wall-clock start of the track's range (epoch ms); null for asset tracks. */
  rangeStartMs: number | null;
  startMs: number; endMs: number; text: string;
  /** Every query word matched a cue word exactly (after normalising). */
  exact: boolean;
}

/** Most words of a query that are searched (the rest are ignored). */
export const MAX_QUERY_WORDS = 10;

/** The words of a query in search form, at most MAX_QUERY_WORDS, or null when it has none. */
export function queryWords(q: string): string[] | null {
  const w = [...new Set(searchTokens(q))].slice(0, MAX_QUERY_WORDS);
  return w.length ? w : null;
}

const quote = (w: string) => `"${w.replace(/"/g, '')}"`;

/** FTS5 expression: every word exactly in the cue's words. */
export function exactExpression(words: string[]): string {
  return words.map((w) => `exact : ${quote(w)}`).join(' AND ');
}

/**
 * FTS5 expression: every word as a word prefix (two letters or more), or with its prefix letters stripped as a
 * whole word, among the cue's words and their prefix-stripped copies.
 */
export function looseExpression(words: string[]): string {
  return words.map((w) => {
    const alts = [[...w].length >= 2 ? `${quote(w)}*` : quote(w), ...prefixVariants(w).slice(1).map(quote)];
    return `{exact loose} : (${alts.join(' OR ')})`;
  }).join(' AND ');
}

/**
 * How a query is kept inside its scope. One asset is a small part of any index: its FTS scope token narrows the
 * match itself. A channel or a tenant's library is usually most of it (a year of one channel is the whole index), and
 * intersecting with a token every row holds would read that token's whole list: the matches are checked against
 * their track instead, newest first, until `limit` are in scope.
 */
function scopeFilter(s: CueScope): { fts: string; sql: string; args: string[] } {
  if ('channelId' in s) return { fts: '', sql: 'AND t.tenant_id = ? AND t.channel_id = ?', args: [s.tenantId, s.channelId] };
  if (s.assetId) return { fts: ` AND scope : ${quote(scopeToken('a', s.assetId))}`, sql: 'AND t.tenant_id = ?', args: [s.tenantId] };
  return { fts: '', sql: "AND t.tenant_id = ? AND t.channel_id IS NULL", args: [s.tenantId] };
}

interface HitRow { id: number; track_id: string; language: string; asset_id: string; channel_id: string | null; range_start_ms: number | null; start_ms: number; end_ms: number; text: string }

const hit = (r: HitRow, exact: boolean): CueHit => ({
  trackId: r.track_id, language: r.language, assetId: r.asset_id, channelId: r.channel_id,
  rangeStartMs: r.channel_id ? r.range_start_ms : null, startMs: r.start_ms, endMs: r.end_ms, text: r.text, exact,
});

/**
 * Cues matching `q` inside `scope`: up to `limit` exact hits, then loose hits up to `limit` in all (exact first).
 * An empty answer for a query without letters or digits.
 */
export function searchCues(db: Db, scope: CueScope, q: string, limit: number): CueHit[] {
  const words = queryWords(q);
  if (!words) return [];
  const f = scopeFilter(scope);
  // CROSS JOIN keeps the full-text match the outer loop (newest track first), so LIMIT stops the scan early. A match's
  // rowid names its track and cue (search-index.ts searchRowId): the track (a small, cached table) is checked against
  // the scope, and only matches kept read their cue (times and text) — one lookup a hit.
  const rows = (expr: string, n: number) => db.query<HitRow, (string | number)[]>(`SELECT f.rowid AS id, t.id AS track_id, t.language, t.asset_id,
    t.channel_id, t.range_start_ms, c.start_ms, c.end_ms, c.text
    FROM subtitle_search f CROSS JOIN subtitle_tracks t CROSS JOIN subtitle_cues c
    WHERE subtitle_search MATCH ? AND t.seq = (f.rowid >> ${CUE_BITS}) ${f.sql} AND c.track_id = t.id AND c.seq = (f.rowid & ${2 ** CUE_BITS - 1})
    ORDER BY f.rowid DESC LIMIT ?`).all(expr + f.fts, ...f.args, n);
  const first = rows(`(${exactExpression(words)})`, limit);
  if (first.length >= limit) return first.map((r) => hit(r, true));
  // Loose hits include the exact ones: those are dropped.
  const seen = new Set(first.map((r) => r.id));
  const rest = rows(`(${looseExpression(words)})`, limit).filter((r) => !seen.has(r.id)).slice(0, limit - first.length);
  return [...first.map((r) => hit(r, true)), ...rest.map((r) => hit(r, false))];
}

/**
 * The asset ids (of the tenant) with a published, ready subtitle cue matching `q` as a SQL fragment's JSON argument
 * would need them: every matching asset, however many cues match.
 */
export function assetsWithCues(db: Db, tenantId: string, q: string): string[] {
  const words = queryWords(q);
  if (!words) return [];
  return db.query<{ asset_id: string }, [string, string]>(`SELECT DISTINCT t.asset_id FROM subtitle_search f
    CROSS JOIN subtitle_tracks t WHERE subtitle_search MATCH ? AND t.seq = (f.rowid >> ${CUE_BITS}) AND t.tenant_id = ? AND t.channel_id IS NULL`)
    .all(`(${looseExpression(words)})`, tenantId).map((r) => r.asset_id);
}

/** A moment of a search hit: seconds from the start of the programme or asset, and the cue's text on one line. */
export interface Moment { seconds: number; line: string }

/** A cue's text as one snippet line (its lines joined by a space). */
export function cueLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Moments in time order, at most `max`, exact hits kept first when there are more; seconds to 0.1 s. */
export function momentsOf(hits: { ms: number; text: string; exact: boolean }[], max: number): Moment[] {
  const kept = [...hits].sort((a, b) => Number(b.exact) - Number(a.exact) || a.ms - b.ms).slice(0, max);
  return kept.sort((a, b) => a.ms - b.ms).map((h) => ({ seconds: Math.round(h.ms / 100) / 10, line: cueLine(h.text) }));
}
