/**
 * Whole-word find and replace for cue text, Hebrew-aware (issue 43's glossary corrections and the cue editor's find
 * and replace): words are compared in search form (src/text/hebrew-search: niqqud removed, final letters folded,
 * geresh/gershayim ignored, case folded unless asked otherwise), a word of the text may carry the prefix letters
 * ו ה ב כ ל מ ש before the word looked for and keeps them (`בתל אביב` → `בתל־אביב`), and a phrase of several words
 * matches across spaces, maqaf or hyphens within one line.
 */
import { prefixVariants, searchForm } from './hebrew-search';

/** A word of a text and where it stands (UTF-16 indexes, end exclusive). */
interface Token { start: number; end: number; key: string; cased: string }

/** A word: letters/digits with their marks, inner quote marks (geresh, gershayim, apostrophe) kept inside. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['"\u05f3\u05f4\u2019][\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu;
/** What may stand between the words of a phrase: blanks, maqaf, hyphens (never a line break). */
const JOINER = /^[^\S\n]*[\u05be\u2010\u2011-]?[^\S\n]*$/;

const cased = (s: string) => s.replace(/[^\p{Lu}\p{Ll}\p{Lt}]/gu, '');

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(WORD)) out.push({ start: m.index, end: m.index + m[0].length, key: searchForm(m[0]), cased: cased(m[0]) });
  return out;
}

/** Options of a search. */
export interface WordMatchOptions {
  /** Cased letters (Latin, Cyrillic, Greek) must match exactly; Hebrew and Arabic have no case. Default false. */
  matchCase?: boolean;
}

/** One occurrence: the replaced span starts after any Hebrew prefix letters, which stay. */
export interface WordMatch { start: number; end: number }

/** The UTF-16 length of the first `letters` letters of `word` with the marks (niqqud) that follow each. */
function prefixLength(word: string, letters: number): number {
  const m = new RegExp(`^(?:\\P{M}\\p{M}*){${letters}}`, 'u').exec(word);
  return m ? m[0].length : 0;
}

/** Whole-word occurrences of `phrase` in `text`, left to right, not overlapping. */
export function findWords(text: string, phrase: string, o: WordMatchOptions = {}): WordMatch[] {
  const want = tokens(phrase);
  if (!want.length) return [];
  const have = tokens(text);
  const out: WordMatch[] = [];
  const same = (t: Token, w: Token) => t.key === w.key && (!o.matchCase || t.cased === w.cased);
  for (let i = 0; i + want.length <= have.length; i++) {
    const first = have[i]!;
    // The first word may carry up to three prefix letters before the word looked for.
    const k = prefixVariants(first.key).indexOf(want[0]!.key);
    if (k < 0) continue;
    const word = text.slice(first.start, first.end);
    const skip = k ? prefixLength(word, k) : 0;
    if (o.matchCase && cased(word.slice(skip)) !== want[0]!.cased) continue;
    let ok = true;
    for (let j = 1; j < want.length && ok; j++) {
      const t = have[i + j]!;
      ok = same(t, want[j]!) && JOINER.test(text.slice(have[i + j - 1]!.end, t.start));
    }
    if (!ok) continue;
    out.push({ start: first.start + skip, end: have[i + want.length - 1]!.end });
    i += want.length - 1;
  }
  return out;
}

/** A replacement rule: whole-word occurrences of `find` become `replace`. */
export interface WordRule { find: string; replace: string; matchCase?: boolean; tag?: number }

/** The result of replacing: the new text and how many occurrences changed, per rule tag. */
export interface ReplaceOutcome { text: string; count: number; byTag: Map<number, number> }

/**
 * Applies rules in one pass: every occurrence of every rule is found in the original text, longer ones first where
 * they overlap, and replaced; an occurrence already written as its replacement is not counted (nor changed).
 */
export function replaceWords(text: string, rules: WordRule[]): ReplaceOutcome {
  const hits: (WordMatch & { rule: WordRule })[] = [];
  for (const rule of rules) for (const m of findWords(text, rule.find, rule)) hits.push({ ...m, rule });
  hits.sort((a, b) => a.start - b.start || (b.end - b.start) - (a.end - a.start));
  let out = '', at = 0, count = 0;
  const byTag = new Map<number, number>();
  for (const h of hits) {
    if (h.start < at) continue;
    out += text.slice(at, h.start);
    const was = text.slice(h.start, h.end);
    out += h.rule.replace;
    if (was !== h.rule.replace) {
      count++;
      if (h.rule.tag !== undefined) byTag.set(h.rule.tag, (byTag.get(h.rule.tag) ?? 0) + 1);
    }
    at = h.end;
  }
  return { text: out + text.slice(at), count, byTag };
}

/** Plain substring replacement (find and replace without whole words), case-insensitive unless `matchCase`. */
export function replaceSubstring(text: string, find: string, replace: string, matchCase = false): { text: string; count: number } {
  if (!find) return { text, count: 0 };
  const esc = find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let count = 0;
  const out = text.replace(new RegExp(esc, matchCase ? 'gu' : 'giu'), (m) => { if (m !== replace) count++; return replace; });
  return { text: out, count };
}

/** A glossary entry as the corrections need it. */
export interface GlossaryTerm { term: string; variants: string[] }

/**
 * Rules that correct a glossary: each variant (misrecognition, other spelling) into its term, and the term written in
 * another letter case into the term. Tags are the entries' indexes.
 */
export function glossaryRules(terms: GlossaryTerm[]): WordRule[] {
  return terms.flatMap((g, tag) => [...g.variants, g.term].filter((f) => tokens(f).length).map((find) => ({ find, replace: g.term, tag })));
}

/**
 * The engine prompt from glossary terms: the terms, comma separated, whole terms only, at most `maxChars`
 * characters (Whisper reads about the last 224 tokens of its prompt).
 */
export function glossaryPrompt(terms: string[], maxChars = 800): string {
  let out = '';
  for (const t of terms) {
    const next = out ? `${out}, ${t}` : t;
    if (next.length > maxChars) break;
    out = next;
  }
  return out;
}
