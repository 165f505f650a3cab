/**
 * The cue edits of the cue editor as pure functions over a track's cues (time order): each returns the change it
 * makes, the cues it touched `before` and as they are `after` (by stable cue id), or throws the AppError that refuses
 * it (422 a value, 409 a clash with another cue). `applyChange` applies a change; undo is the change reversed.
 */
import { AppError, invalid, notFound } from '../../kernel/errors';
import { cleanCueText, visibleLength } from '../../text/cue-text';
import { DEFAULT_CUE_RULES } from '../../text/cue-builder';
import { breakLines } from '../../text/line-break';

/** A cue with its stable id inside the track. */
export interface ECue { id: number; startMs: number; endMs: number; text: string }

/** What an edit is called in its revision. */
export type EditOp = 'insert' | 'edit' | 'delete' | 'split' | 'merge' | 'shift' | 'replace' | 'glossary' | 'undo';

/** Counts of a find and replace or a glossary pass. */
export interface ReplaceCounts { replacements: number; cues: number; terms: { term: string; count: number }[] }

/** One change: the cues touched, as they were and as they are. */
export interface Change { op: EditOp; before: ECue[]; after: ECue[]; counts?: ReplaceCounts | null }

/** The rules edits keep (the cue builder's, less reading speed, which is only flagged). */
export interface EditRules { maxLineChars: number; maxLines: number; minDurationMs: number; maxDurationMs: number; minGapMs: number }

/** The default edit rules: 2 lines of 42, 1-7 s, 80 ms (2 frames at 25 fps) between cues. */
export const EDIT_RULES: Readonly<EditRules> = Object.freeze({
  maxLineChars: DEFAULT_CUE_RULES.maxLineChars, maxLines: DEFAULT_CUE_RULES.maxLines, minDurationMs: DEFAULT_CUE_RULES.minDurationMs,
  maxDurationMs: DEFAULT_CUE_RULES.maxDurationMs, minGapMs: DEFAULT_CUE_RULES.minGapMs,
});

/** Largest time a cue may have (ms, about 11.5 days; the cue builder's bound). */
export const MAX_CUE_MS = 1e9;

const byTime = (a: ECue, b: ECue) => a.startMs - b.startMs || a.id - b.id;

/**
 * Cue text as an edit stores it: cleaned (no markup, bidi controls), not empty, at most `maxLines` lines of
 * `maxLineChars` visible characters; one line too long for one line is broken onto two when it fits. Else 422.
 */
export function editText(raw: string, r: EditRules = EDIT_RULES, field = 'text'): string {
  const t = cleanCueText(raw);
  if (!t) throw invalid(field, 'the cue text is empty');
  const lines = t.split('\n');
  if (lines.length === 1 && visibleLength(t) > r.maxLineChars) {
    const b = breakLines(t.split(' '), r.maxLineChars, r.maxLines);
    if (b) return b.join('\n');
    throw invalid(field, `${visibleLength(t)} characters do not fit on ${r.maxLines} lines of ${r.maxLineChars}`);
  }
  if (lines.length > r.maxLines) throw invalid(field, `${lines.length} lines; at most ${r.maxLines}`);
  const long = lines.find((l) => visibleLength(l) > r.maxLineChars);
  if (long) throw invalid(field, `a line of ${visibleLength(long)} characters; at most ${r.maxLineChars}`);
  return t;
}

/** How far a duration is outside the rules (0 inside). */
const outside = (d: number, r: EditRules) => (d < r.minDurationMs ? r.minDurationMs - d : d > r.maxDurationMs ? d - r.maxDurationMs : 0);

/** Refuses (422) a cue whose duration is outside the rules, unless no further outside than `was` (a duration before). */
function checkDuration(c: ECue, r: EditRules, was: number | null, field = 'end_ms'): void {
  if (c.startMs < 0) throw invalid('start_ms', 'must not be negative');
  if (c.endMs > MAX_CUE_MS) throw invalid(field, `at most ${MAX_CUE_MS}`);
  const d = c.endMs - c.startMs;
  if (d <= 0) throw invalid(field, 'the cue must end after it starts');
  const o = outside(d, r);
  if (o === 0 || (was !== null && o <= outside(was, r))) return;
  throw invalid(field, d < r.minDurationMs ? `the cue would be on screen ${d} ms; at least ${r.minDurationMs}` : `the cue would be on screen ${d} ms; at most ${r.maxDurationMs}`);
}

/** The track after a change: `before` removed, `after` added, in time order. */
export function applyChange(cues: ECue[], ch: Pick<Change, 'before' | 'after'>): ECue[] {
  const gone = new Set(ch.before.map((c) => c.id));
  return [...cues.filter((c) => !gone.has(c.id)), ...ch.after].sort(byTime);
}

/**
 * Refuses (409) a change that puts a cue it touched closer than `minGap` to its neighbour (or over it), unless the two
 * were neighbours already at least that close (an imported track's tight cues stay editable).
 */
export function checkNeighbours(old: ECue[], ch: Pick<Change, 'before' | 'after'>, minGap: number): void {
  const next = applyChange(old, ch);
  const touched = new Set(ch.after.map((c) => c.id));
  const at = new Map(old.map((c, i) => [c.id, i]));
  for (let i = 1; i < next.length; i++) {
    const a = next[i - 1]!, b = next[i]!;
    if (!touched.has(a.id) && !touched.has(b.id)) continue;
    const gap = b.startMs - a.endMs;
    if (gap >= minGap) continue;
    const ia = at.get(a.id), ib = at.get(b.id);
    if (ia !== undefined && ib === ia + 1 && gap >= old[ib]!.startMs - old[ia]!.endMs) continue;
    const [mine, other] = touched.has(b.id) ? [b, a] : [a, b];
    throw new AppError('conflict', gap < 0
      ? `cue ${mine.id} would overlap cue ${other.id}`
      : `cue ${mine.id} would be ${gap} ms from cue ${other.id}; cues stay at least ${minGap} ms (2 frames) apart`);
  }
}

function find(cues: ECue[], id: number): ECue {
  const c = cues.find((x) => x.id === id);
  if (!c) throw notFound('cue');
  return c;
}

/** A new cue (422 text or times; 409 next to another cue). */
export function insertCue(cues: ECue[], v: { startMs: number; endMs: number; text: string }, newId: () => number, r: EditRules = EDIT_RULES): Change {
  const c: ECue = { id: newId(), startMs: v.startMs, endMs: v.endMs, text: editText(v.text, r) };
  checkDuration(c, r, null);
  const ch: Change = { op: 'insert', before: [], after: [c] };
  checkNeighbours(cues, ch, r.minGapMs);
  return ch;
}

/** Text and/or times of a cue; null when nothing would change. */
export function editCue(cues: ECue[], id: number, v: { text?: string; startMs?: number; endMs?: number }, r: EditRules = EDIT_RULES): Change | null {
  const was = find(cues, id);
  const c: ECue = { id, startMs: v.startMs ?? was.startMs, endMs: v.endMs ?? was.endMs, text: v.text === undefined ? was.text : editText(v.text, r) };
  if (c.startMs === was.startMs && c.endMs === was.endMs && c.text === was.text) return null;
  if (c.startMs !== was.startMs || c.endMs !== was.endMs) checkDuration(c, r, was.endMs - was.startMs, v.endMs === undefined ? 'start_ms' : 'end_ms');
  const ch: Change = { op: 'edit', before: [was], after: [c] };
  checkNeighbours(cues, ch, r.minGapMs);
  return ch;
}

/** Deletes a cue. */
export function deleteCue(cues: ECue[], id: number): Change {
  return { op: 'delete', before: [find(cues, id)], after: [] };
}

/** The default split point of a text: its line break, else the blank nearest the middle; -1 for one word. */
function defaultOffset(text: string): number {
  const nl = text.indexOf('\n');
  if (nl > 0) return nl;
  let best = -1;
  for (let i = 0; i < text.length; i++) if (text[i] === ' ' && (best < 0 || Math.abs(i - text.length / 2) < Math.abs(best - text.length / 2))) best = i;
  return best;
}

/**
 * Splits a cue at `offset` of its text (UTF-16 index; default the line break or the blank nearest the middle) and at
 * `atMs` (default: the time shared by the halves' characters): `start..atMs` and `atMs + minGap..end`.
 */
export function splitCue(cues: ECue[], id: number, v: { atMs?: number; offset?: number }, newId: () => number, r: EditRules = EDIT_RULES): Change {
  const c = find(cues, id);
  const off = v.offset ?? defaultOffset(c.text);
  if (off < 0) throw invalid('offset', 'the cue is one word; give the offset to split it at');
  if (off < 1 || off >= c.text.length) throw invalid('offset', `between 1 and ${c.text.length - 1}`);
  const code = c.text.charCodeAt(off);
  if (code >= 0xdc00 && code <= 0xdfff) throw invalid('offset', 'inside a character');
  const t1 = cleanCueText(c.text.slice(0, off)), t2 = cleanCueText(c.text.slice(off));
  if (!t1 || !t2) throw invalid('offset', 'both parts must keep some text');
  const total = c.endMs - c.startMs - r.minGapMs;
  const at = v.atMs ?? c.startMs + Math.round((total * visibleLength(t1)) / (visibleLength(t1) + visibleLength(t2)));
  if (at <= c.startMs || at + r.minGapMs >= c.endMs) throw invalid('at_ms', `inside the cue: after ${c.startMs} and before ${c.endMs - r.minGapMs}`);
  const a: ECue = { id: c.id, startMs: c.startMs, endMs: at, text: editText(t1, r) };
  const b: ECue = { id: newId(), startMs: at + r.minGapMs, endMs: c.endMs, text: editText(t2, r) };
  const was = c.endMs - c.startMs;
  checkDuration(a, r, was, 'at_ms');
  checkDuration(b, r, was, 'at_ms');
  return { op: 'split', before: [c], after: [a, b] };
}

/** Merges a cue with the next (or previous) one: the first's start and id, the second's end, the texts joined. */
export function mergeCues(cues: ECue[], id: number, dir: 'next' | 'previous', r: EditRules = EDIT_RULES): Change {
  const i = cues.findIndex((x) => x.id === id);
  if (i < 0) throw notFound('cue');
  const j = dir === 'next' ? i + 1 : i - 1;
  if (j < 0 || j >= cues.length) throw new AppError('conflict', `cue ${id} has no ${dir} cue to merge with`);
  const [a, b] = i < j ? [cues[i]!, cues[j]!] : [cues[j]!, cues[i]!];
  const joined = `${a.text}\n${b.text}`;
  let text: string;
  try { text = editText(joined, r); } catch {
    // Two lines each or long lines: lay all the words out again.
    const lines = breakLines(joined.split(/\s+/), r.maxLineChars, r.maxLines);
    if (!lines) throw invalid('text', `the merged text does not fit on ${r.maxLines} lines of ${r.maxLineChars} characters`);
    text = lines.join('\n');
  }
  const m: ECue = { id: a.id, startMs: a.startMs, endMs: Math.max(a.endMs, b.endMs), text };
  const da = a.endMs - a.startMs, db = b.endMs - b.startMs;
  checkDuration(m, r, outside(da, r) >= outside(db, r) ? da : db);
  return { op: 'merge', before: [a, b], after: [m] };
}

/** Which cues a shift moves. */
export interface ShiftSpec { byMs: number; scope: 'all' | 'following' | 'range'; fromId?: number; fromMs?: number; toMs?: number }

/** Moves cues by `byMs`: all, cue `fromId` and every later one, or those starting in [`fromMs`, `toMs`). */
export function shiftCues(cues: ECue[], s: ShiftSpec, r: EditRules = EDIT_RULES): Change {
  if (s.byMs === 0) throw invalid('by_ms', 'must not be 0');
  let moved: ECue[];
  if (s.scope === 'all') moved = cues;
  else if (s.scope === 'following') {
    if (s.fromId === undefined) throw invalid('from_id', 'required with scope "following"');
    const i = cues.findIndex((c) => c.id === s.fromId);
    if (i < 0) throw notFound('cue');
    moved = cues.slice(i);
  } else {
    if (s.fromMs === undefined || s.toMs === undefined) throw invalid('from_ms', 'from_ms and to_ms are required with scope "range"');
    if (s.toMs <= s.fromMs) throw invalid('to_ms', 'must be after from_ms');
    moved = cues.filter((c) => c.startMs >= s.fromMs! && c.startMs < s.toMs!);
  }
  if (!moved.length) throw invalid(s.scope === 'range' ? 'from_ms' : 'scope', 'no cues to shift');
  const after = moved.map((c) => ({ ...c, startMs: c.startMs + s.byMs, endMs: c.endMs + s.byMs }));
  const first = after.reduce((m, c) => (c.startMs < m.startMs ? c : m));
  if (first.startMs < 0) throw invalid('by_ms', `cue ${first.id} would start before 0`);
  if (after.some((c) => c.endMs > MAX_CUE_MS)) throw invalid('by_ms', `a cue would end after ${MAX_CUE_MS} ms`);
  const ch: Change = { op: 'shift', before: moved, after };
  checkNeighbours(cues, ch, r.minGapMs);
  return ch;
}

/**
 * A find and replace (or glossary pass) over every cue: `rewrite` gives a cue's new text and its replacements; the
 * changed cues must still fit the line rules (422 naming the cue). Null when nothing changes.
 */
export function rewriteCues(cues: ECue[], op: 'replace' | 'glossary', rewrite: (text: string) => { text: string; count: number; byTerm?: Map<string, number> }, r: EditRules = EDIT_RULES): Change | null {
  const before: ECue[] = [], after: ECue[] = [];
  const terms = new Map<string, number>();
  let replacements = 0;
  for (const c of cues) {
    const x = rewrite(c.text);
    if (!x.count || x.text === c.text) continue;
    let text: string;
    try { text = editText(x.text, r); } catch (e) {
      throw invalid(op === 'glossary' ? 'glossary' : 'replace', `cue ${c.id} would become "${x.text.slice(0, 120)}": ${(e as AppError).extra?.errors?.[0]?.detail ?? 'invalid'}`);
    }
    before.push(c); after.push({ ...c, text });
    replacements += x.count;
    for (const [t, n] of x.byTerm ?? []) terms.set(t, (terms.get(t) ?? 0) + n);
  }
  if (!after.length) return null;
  return { op, before, after, counts: { replacements, cues: after.length, terms: [...terms].map(([term, count]) => ({ term, count })) } };
}

/**
 * The change that undoes `rev` (its `after` cues removed, its `before` restored): 409 when any of its cues changed
 * since (undo the later revision first). Gaps are only refused where cues would overlap anew.
 */
export function undoChange(cues: ECue[], rev: Pick<Change, 'before' | 'after'>): Change {
  const now = new Map(cues.map((c) => [c.id, c]));
  for (const c of rev.after) {
    const x = now.get(c.id);
    if (!x || x.startMs !== c.startMs || x.endMs !== c.endMs || x.text !== c.text) throw new AppError('conflict', `cue ${c.id} changed after this revision; undo the later revisions first`);
  }
  const kept = new Set(rev.after.map((c) => c.id));
  for (const c of rev.before) if (!kept.has(c.id) && now.has(c.id)) throw new AppError('conflict', `cue ${c.id} exists again; undo the later revisions first`);
  const ch: Change = { op: 'undo', before: rev.after, after: rev.before };
  checkNeighbours(cues, ch, 0);
  return ch;
}
