import { t } from 'elysia';
import { iso } from '../../kernel/clock';
import { readingChars, visibleLength } from '../../text/cue-text';
import { EDIT_RULES, type ECue, type EditRules } from './cues-ops';
import type { RevisionRow } from './cues-store';

const Ms = (description: string) => t.Integer({ minimum: 0, maximum: 1e9, description });

/** A cue as the API shows it. */
export const CueView = t.Object({
  id: t.Integer({ description: 'stable id of the cue inside its track' }),
  start_ms: t.Integer(), end_ms: t.Integer(),
  text: t.String({ description: 'plain text in logical order, lines joined by \\n' }),
  chars_per_second: t.Number({ description: 'reading speed of the cue (visible characters, a line break read as a space)' }),
  over_limit: t.Array(t.String(), { description: 'rules the cue breaks: reading_speed, duration_min, duration_max, gap, line_length, lines' }),
});
/** A page of cues. */
export const CueList = t.Object({ items: t.Array(CueView), next_cursor: t.Union([t.String(), t.Null()]), etag: t.String() });

const StoredCue = t.Object({ id: t.Integer(), start_ms: t.Integer(), end_ms: t.Integer(), text: t.String() });
/** A revision as the API shows it. */
export const RevisionView = t.Object({
  id: t.String(), version: t.Integer({ description: 'the track version this revision made' }),
  op: t.String({ description: 'insert, edit, delete, split, merge, shift, replace, glossary or undo' }),
  author: t.Object({ kind: t.String({ description: 'user, key or system' }), id: t.Union([t.String(), t.Null()]), name: t.Union([t.String(), t.Null()]) }),
  created_at: t.String({ format: 'date-time' }),
  before: t.Array(StoredCue, { description: 'the cues it touched, as they were' }),
  after: t.Array(StoredCue, { description: 'the cues it touched, as they became' }),
  counts: t.Union([t.Object({ replacements: t.Integer(), cues: t.Integer(), terms: t.Array(t.Object({ term: t.String(), count: t.Integer() })) }), t.Null()]),
  undo_of: t.Union([t.String(), t.Null()]), undone_by: t.Union([t.String(), t.Null()]),
});
/** A page of revisions. */
export const RevisionList = t.Object({ items: t.Array(RevisionView), next_cursor: t.Union([t.String(), t.Null()]) });
/** The answer of a write. */
export const WriteResult = t.Object({
  revision: t.Union([RevisionView, t.Null()], { description: 'null when nothing changed' }),
  etag: t.String({ description: 'the track\'s new ETag, for the next If-Match' }), cue_count: t.Integer(),
});

/** POST .../cues body. */
export const InsertBody = t.Object({ start_ms: Ms('start, ms from the start of the media'), end_ms: Ms('end, ms'), text: t.String({ maxLength: 1000 }) }, { additionalProperties: false });
/** PATCH .../cues/{cue} body. */
export const EditBody = t.Object({ text: t.Optional(t.String({ maxLength: 1000 })), start_ms: t.Optional(Ms('new start')), end_ms: t.Optional(Ms('new end')) }, { additionalProperties: false, minProperties: 1 });
/** POST .../cues/{cue}/split body. */
export const SplitBody = t.Object({
  at_ms: t.Optional(Ms('where the first part ends; the second starts 80 ms (2 frames) later')),
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1000, description: 'UTF-16 index into the text where the second part starts' })),
}, { additionalProperties: false });
/** POST .../cues/{cue}/merge body. */
export const MergeBody = t.Object({ with: t.Optional(t.Union([t.Literal('next'), t.Literal('previous')])) }, { additionalProperties: false });
/** POST .../cues/shift body. */
export const ShiftBody = t.Object({
  by_ms: t.Integer({ minimum: -86_400_000, maximum: 86_400_000, description: 'ms to move by (negative: earlier)' }),
  scope: t.Union([t.Literal('all'), t.Literal('following'), t.Literal('range')]),
  from_id: t.Optional(t.Integer({ description: 'scope following: the first cue moved' })),
  from_ms: t.Optional(Ms('scope range: cues starting at or after')), to_ms: t.Optional(Ms('scope range: and before')),
}, { additionalProperties: false });
/** POST .../replace body. */
export const ReplaceBody = t.Object({
  find: t.String({ minLength: 1, maxLength: 200 }), replace: t.String({ maxLength: 200 }),
  whole_word: t.Optional(t.Boolean({ description: 'default true: whole words, Hebrew prefix letters kept' })),
  match_case: t.Optional(t.Boolean({ description: 'default false' })),
}, { additionalProperties: false });

/** The rules a cue breaks (reading speed against the tenant's limit; `prev` is the cue before it). */
export function overLimit(c: ECue, prev: ECue | null, readingSpeed: number, r: EditRules = EDIT_RULES): string[] {
  const d = c.endMs - c.startMs, out: string[] = [];
  if (cps(c) > readingSpeed) out.push('reading_speed');
  if (d < r.minDurationMs) out.push('duration_min');
  if (d > r.maxDurationMs) out.push('duration_max');
  if (prev && c.startMs - prev.endMs < r.minGapMs) out.push('gap');
  const lines = c.text.split('\n');
  if (lines.some((l) => visibleLength(l) > r.maxLineChars)) out.push('line_length');
  if (lines.length > r.maxLines) out.push('lines');
  return out;
}

/** Reading speed of a cue, characters per second, one decimal. */
export const cps = (c: ECue) => Math.round((readingChars(c.text) * 10_000) / Math.max(1, c.endMs - c.startMs)) / 10;

/** The API view of a cue. */
export function cueView(c: ECue, prev: ECue | null, readingSpeed: number) {
  return { id: c.id, start_ms: c.startMs, end_ms: c.endMs, text: c.text, chars_per_second: cps(c), over_limit: overLimit(c, prev, readingSpeed) };
}

const stored = (c: ECue) => ({ id: c.id, start_ms: c.startMs, end_ms: c.endMs, text: c.text });
/** Stored (JSON) cues of a revision. */
export const revisionCues = (cues: ECue[]) => JSON.stringify(cues.map(stored));
/** Cues of a revision back from JSON. */
export const cuesOf = (json: string): ECue[] => (JSON.parse(json) as ReturnType<typeof stored>[]).map((c) => ({ id: c.id, startMs: c.start_ms, endMs: c.end_ms, text: c.text }));

/** The API view of a revision. */
export function revisionView(r: RevisionRow) {
  return {
    id: r.id, version: r.version, op: r.op, author: { kind: r.author_kind, id: r.author_id, name: r.author_name }, created_at: iso(r.created_at),
    before: JSON.parse(r.before) as ReturnType<typeof stored>[], after: JSON.parse(r.after) as ReturnType<typeof stored>[],
    counts: r.counts ? JSON.parse(r.counts) as { replacements: number; cues: number; terms: { term: string; count: number }[] } : null,
    undo_of: r.undo_of, undone_by: r.undone_by,
  };
}
