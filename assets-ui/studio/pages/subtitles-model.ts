/** Shapes of the subtitle API the cue editor reads (docs/subtitles.md) and small pure helpers over them. */

/** A subtitle track as the API shows it. */
export interface Track {
  id: string; asset_id: string; language: string; kind: string; label: string | null; source: string; status: string;
  published: boolean; engine: string | null; job_id: string | null; error: string | null; cue_count: number;
  version?: number; etag?: string; original_source?: string | null; created_at: string; updated_at: string;
}

/** One cue: times in ms, plain logical-order text, its reading speed and the rules it breaks. */
export interface Cue { id: number; start_ms: number; end_ms: number; text: string; chars_per_second?: number; over_limit?: string[] }

/** Who made a revision. */
export interface Author { kind: string; id?: string | null; name?: string | null }

/** What a replace or glossary pass changed. */
export interface Counts { replacements: number; cues: number; terms?: { term: string; count: number }[] }

/** One change of a track's cues, undoable. */
export interface Revision {
  id: string; version: number; op: string; author: Author | null; created_at: string; before: Cue[]; after: Cue[];
  counts: Counts | null; undo_of: string | null; undone_by: string | null;
}

/** A write's answer. */
export interface WriteAnswer { revision: Revision | null; etag: string; cue_count: number; counts?: Counts | null }

/** A glossary entry of the tenant. */
export interface GlossaryEntry { id: string; term: string; variants: string[]; language: string | null }

/** The cue editor's waveform (audiowaveform JSON, version 2). */
export interface Peaks { sample_rate: number; samples_per_pixel: number; length: number; data: number[] }

/** Languages offered for a new track (any BCP 47 tag can also be typed). */
export const TRACK_LANGUAGES = ['he', 'ar', 'en', 'ru', 'fr', 'es', 'de', 'am'];

/** Right-to-left languages (text is shown right to left; timecodes stay left to right). */
export function isRtl(lang: string): boolean { return /^(he|ar|fa|ur|yi|iw)\b/i.test(lang); }

/** Milliseconds as h:mm:ss.mmm (always left to right; the h: part only past an hour). */
export function tc(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000), m = Math.floor((t % 3_600_000) / 60_000), s = Math.floor((t % 60_000) / 1000), r = t % 1000;
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(r).padStart(3, '0')}`;
  return h ? `${h}:${mmss}` : mmss;
}

/** Reading speed when the API did not send it: visible characters (line break read as a space, niqqud not counted) a second. */
export function cps(c: Cue): number {
  if (typeof c.chars_per_second === 'number') return c.chars_per_second;
  const chars = c.text.replace(/[\u0591-\u05C7]/g, '').replace(/\n/g, ' ').length;
  const s = (c.end_ms - c.start_ms) / 1000;
  return s > 0 ? Math.round((chars / s) * 10) / 10 : 0;
}

/** The cue shown at `ms` (start inclusive, end exclusive), else null. Cues are in time order. */
export function cueAt(cues: Cue[], ms: number): Cue | null {
  let lo = 0, hi = cues.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1, c = cues[mid]!;
    if (ms < c.start_ms) hi = mid - 1; else if (ms >= c.end_ms) lo = mid + 1; else return c;
  }
  return null;
}

/** The text of the cues of another track that overlap `c` most (the side-by-side translation column). */
export function besideText(c: Cue, other: Cue[]): string {
  const hits = other.filter((o) => o.start_ms < c.end_ms && o.end_ms > c.start_ms);
  return hits.map((o) => o.text).join('\n');
}

/** Cues whose text contains `find` (case-insensitive unless matchCase), in order. */
export function matching(cues: Cue[], find: string, matchCase: boolean): Cue[] {
  if (!find) return [];
  const f = matchCase ? find : find.toLocaleLowerCase();
  return cues.filter((c) => (matchCase ? c.text : c.text.toLocaleLowerCase()).includes(f));
}

/** Glossary entries one of whose variants occurs in the cues (the editor's suggestions), with the variant found. */
export function glossaryHints(cues: Cue[], glossary: GlossaryEntry[]): { entry: GlossaryEntry; variant: string; cues: number }[] {
  const out: { entry: GlossaryEntry; variant: string; cues: number }[] = [];
  for (const e of glossary) {
    for (const v of e.variants) {
      if (!v || v === e.term) continue;
      const n = cues.filter((c) => c.text.includes(v)).length;
      if (n) out.push({ entry: e, variant: v, cues: n });
    }
  }
  return out;
}
