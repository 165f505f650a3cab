/**
 * Editing a draft: the fields sent replace the body's, after checks against the programme and its transcript
 * (chapters in order, not overlapping, inside the programme; each quote the verbatim text of the cues between its
 * times, so an edit can change a role or drop a quote but never put words in a speaker's mouth). Each changed field
 * is one correction (before, after, who, when).
 */
import { AppError, invalid, type FieldError } from '../../kernel/errors';
import type { ArticleBody, ArticleCue } from '../../engines/article/types';
import type { ArticlePatch } from './model';

/** A changed field of the body. */
export interface FieldChange { field: keyof ArticleBody; before: unknown; after: unknown }

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The text of the cues inside [start, end] (ms), joined as quotes are. */
export function cuesTextBetween(cues: ArticleCue[], start: number, end: number): string {
  return norm(cues.filter((c) => c.startMs >= start && c.endMs <= end).map((c) => c.text).join(' '));
}

/** Checks a patch and answers the new body with the fields that changed; 422 naming each bad item. */
export function applyPatch(body: ArticleBody, patch: ArticlePatch, o: { durationMs: number; cues: ArticleCue[] | null }): { body: ArticleBody; changes: FieldChange[] } {
  const keys = Object.keys(patch) as (keyof ArticlePatch)[];
  if (!keys.length) throw invalid('body', 'name at least one field to change');
  const errors: FieldError[] = [];
  patch.chapters?.forEach((c, i) => {
    if (c.end_ms <= c.start_ms) errors.push({ field: `body.chapters[${i}].end_ms`, detail: 'must be after start_ms' });
    if (c.end_ms > o.durationMs) errors.push({ field: `body.chapters[${i}].end_ms`, detail: `must be inside the programme (at most ${o.durationMs} ms)` });
    const prev = patch.chapters![i - 1];
    if (prev && c.start_ms < prev.end_ms) errors.push({ field: `body.chapters[${i}].start_ms`, detail: 'chapters are in order and do not overlap: starts before the chapter before ends' });
  });
  patch.quotes?.forEach((q, i) => {
    if (q.end_ms <= q.start_ms) { errors.push({ field: `body.quotes[${i}].end_ms`, detail: 'must be after start_ms' }); return; }
    if (!o.cues) { errors.push({ field: `body.quotes[${i}]`, detail: 'the transcript the draft was written from is gone; quotes cannot be checked' }); return; }
    const said = cuesTextBetween(o.cues, q.start_ms, q.end_ms);
    if (!said || said !== norm(q.text)) errors.push({ field: `body.quotes[${i}].text`, detail: `must be the verbatim text of the transcript cues between ${q.start_ms} and ${q.end_ms} ms${said ? ` ("${said.slice(0, 80)}")` : ' (there are none)'}` });
  });
  if (errors.length) throw new AppError('validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; '), { errors });
  const next = { ...body } as ArticleBody;
  const changes: FieldChange[] = [];
  for (const k of keys) {
    const after = k === 'quotes' ? patch.quotes!.map((q) => ({ ...q, text: norm(q.text) })) : patch[k];
    if (after === undefined || JSON.stringify(after) === JSON.stringify(body[k])) continue;
    changes.push({ field: k, before: body[k], after });
    (next as unknown as Record<string, unknown>)[k] = after;
  }
  return { body: next, changes };
}
