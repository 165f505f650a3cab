/**
 * Asset search inside what was said: which field of a found asset matched (`title`, `external_id`, `metadata` or
 * `subtitles`) with a snippet, and the `moments` of its published, ready subtitle tracks that match.
 */
import type { Db } from '../../kernel/db/sqlite';
import { foldText } from '../assets/search';
import { momentsOf, searchCues, cueLine, type Moment } from './search';

/** Most cues looked at for one asset's moments. */
const ASSET_CUE_CAP = 200;
/** Most moments listed on one asset. */
export const MAX_ASSET_MOMENTS = 20;

/** What a found asset adds to its list entry. */
export interface AssetSearchMatch { match: { field: string; snippet: string }; moments?: Moment[] }

const words = (s: string) => foldText(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Whether every query term is a word prefix in `text` (the guide/asset search rule, prefix letters ignored). */
function holds(text: string, terms: string[]): boolean {
  const ws = words(text);
  return terms.every((t) => ws.some((w) => w.startsWith(t) || w.slice(1).startsWith(t) || w.slice(2).startsWith(t)));
}

function metadataStrings(metadata: string): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 4 || out.length > 200) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (v && typeof v === 'object') Object.values(v).forEach((x) => walk(x, depth + 1));
  };
  try { walk(JSON.parse(metadata), 0); } catch { /* always JSON */ }
  return out;
}

const clip = (s: string) => ([...s].length > 160 ? `${[...s].slice(0, 159).join('')}…` : s);

/** The match and moments of one asset found by `q` (its text fields first, else its subtitles). */
export function assetSearchMatch(db: Db, tenantId: string, a: { id: string; title: string; external_id: string | null; metadata: string }, q: string): AssetSearchMatch {
  const hits = searchCues(db, { tenantId, assetId: a.id }, q, ASSET_CUE_CAP);
  const moments = hits.length ? momentsOf(hits.map((h) => ({ ms: h.startMs, text: h.text, exact: h.exact })), MAX_ASSET_MOMENTS) : undefined;
  const terms = words(q);
  let match: AssetSearchMatch['match'] | null = null;
  if (holds(a.title, terms)) match = { field: 'title', snippet: a.title };
  else if (a.external_id && holds(a.external_id, terms)) match = { field: 'external_id', snippet: a.external_id };
  else {
    const m = metadataStrings(a.metadata).find((s) => holds(s, terms));
    if (m) match = { field: 'metadata', snippet: clip(m) };
  }
  if (!match && hits.length) match = { field: 'subtitles', snippet: cueLine(hits[0]!.text) };
  return { match: match ?? { field: 'title', snippet: a.title }, ...(moments ? { moments } : {}) };
}
