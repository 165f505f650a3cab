/**
 * Checks a model's answer against the transcript and repairs what can be repaired, saying so in `warnings`:
 *  - a quote whose cue range is not in the transcript, is reversed or longer than 8 cues is dropped; a quote whose
 *    role is not presenter/guest/report (a name, a guess) is dropped; every kept quote's text and times are rebuilt
 *    from the stored cues, so no quote can be invented;
 *  - a chapter with a range outside the transcript is dropped; chapters are ordered by their first cue and an
 *    overlapping chapter is cut to start after the one before (dropped when nothing is left);
 *  - entities not found in the transcript are dropped.
 * What cannot be repaired (not an object, empty headline or summary, no usable chapter) throws: the job fails with
 * the reason instead of publishing a broken draft.
 */
import { searchForm } from '../../text/hebrew-search';
import { ArticleEngineError, QUOTE_ROLES, cueRangeText, type ArticleChapter, type ArticleCue, type ArticleQuote, type QuoteRole } from './types';

/** A validated chunk answer: the body parts with times, and what was repaired. */
export interface CheckedChunk {
  headline: string; standfirst: string; summary: string;
  chapters: (ArticleChapter & { from: number; to: number })[]; quotes: ArticleQuote[]; entities: string[]; tags: string[];
  warnings: string[];
}

type Json = Record<string, unknown>;
const MAX_QUOTE_CUES = 8;
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter(Boolean) : []);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);

/** Parses the model's message content as JSON (a fenced ```json block is accepted); throws with the reason. */
export function parseAnswer(content: string): Json {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content);
  let v: unknown;
  try { v = JSON.parse(m ? m[1]! : content); } catch (e) {
    throw new ArticleEngineError(`the model's answer is not valid JSON (${(e as Error).message}): ${content.slice(0, 120)}`, false);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ArticleEngineError('the model\'s answer is not a JSON object', false);
  return v as Json;
}

/** Validates and repairs one chunk's answer against its cues (see the file comment). */
export function checkChunk(answer: Json, cues: ArticleCue[], fullText: string): CheckedChunk {
  const warnings: string[] = [];
  const byId = new Map(cues.map((c) => [c.id, c]));
  const lo = cues[0]!.id, hi = cues[cues.length - 1]!.id;
  const range = (f: unknown, t: unknown): [number, number] | string => {
    const a = int(f), b = int(t);
    if (a === null || b === null) return 'cue numbers missing';
    if (!byId.has(a) || !byId.has(b)) return `cue range #${a}-#${b} is not in the transcript (#${lo}-#${hi})`;
    if (b < a) return `cue range #${a}-#${b} is reversed`;
    return [a, b];
  };
  const headline = text(answer.headline), summary = text(answer.summary);
  if (!headline) throw new ArticleEngineError('the model returned no headline', false);
  if (!summary) throw new ArticleEngineError('the model returned no summary', false);

  const quotes: ArticleQuote[] = [];
  for (const [i, q] of (Array.isArray(answer.quotes) ? answer.quotes as Json[] : []).entries()) {
    const r = range(q?.from_cue, q?.to_cue);
    if (typeof r === 'string') { warnings.push(`quote ${i + 1} dropped: ${r}`); continue; }
    if (r[1] - r[0] + 1 > MAX_QUOTE_CUES) { warnings.push(`quote ${i + 1} dropped: cue range #${r[0]}-#${r[1]} is longer than ${MAX_QUOTE_CUES} cues`); continue; }
    const role = q?.role;
    if (typeof role !== 'string' || !(QUOTE_ROLES as readonly string[]).includes(role)) {
      warnings.push(`quote ${i + 1} dropped: role ${JSON.stringify(role)} is not one of ${QUOTE_ROLES.join(', ')}`);
      continue;
    }
    quotes.push({ text: cueRangeText(cues, r[0], r[1]), role: role as QuoteRole, start_ms: byId.get(r[0])!.startMs, end_ms: byId.get(r[1])!.endMs });
  }

  const raw: (ArticleChapter & { from: number; to: number })[] = [];
  for (const [i, c] of (Array.isArray(answer.chapters) ? answer.chapters as Json[] : []).entries()) {
    const r = range(c?.from_cue, c?.to_cue);
    if (typeof r === 'string') { warnings.push(`chapter ${i + 1} dropped: ${r}`); continue; }
    const title = text(c?.title);
    if (!title) { warnings.push(`chapter ${i + 1} dropped: no title`); continue; }
    raw.push({ title, description: text(c?.description), paragraphs: strings(c?.paragraphs), from: r[0], to: r[1], start_ms: 0, end_ms: 0 });
  }
  const sorted = [...raw].sort((a, b) => a.from - b.from || a.to - b.to);
  if (sorted.some((c, i) => c !== raw[i])) warnings.push('chapters reordered by their first cue');
  const chapters: CheckedChunk['chapters'] = [];
  for (const c of sorted) {
    const prev = chapters[chapters.length - 1];
    if (prev && c.from <= prev.to) {
      const from = prev.to + 1;
      if (from > c.to) { warnings.push(`chapter "${c.title}" dropped: cues #${c.from}-#${c.to} lie inside the chapter before`); continue; }
      warnings.push(`chapter "${c.title}" overlapped the chapter before: now starts at cue #${from} instead of #${c.from}`);
      c.from = from;
    }
    c.start_ms = byId.get(c.from)!.startMs;
    c.end_ms = byId.get(c.to)!.endMs;
    chapters.push(c);
  }
  if (!chapters.length) throw new ArticleEngineError('the model returned no usable chapter (every chapter range was invalid)', false);

  const folded = searchForm(fullText);
  const entities: string[] = [];
  for (const e of strings(answer.entities)) {
    if (folded.includes(searchForm(e))) entities.push(e);
    else warnings.push(`entity "${e}" dropped: not found in the transcript`);
  }
  return { headline, standfirst: text(answer.standfirst), summary, chapters, quotes, entities, tags: strings(answer.tags).slice(0, 8), warnings };
}
