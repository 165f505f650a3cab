/**
 * Lexical helpers of the extractive engine: content words (search form, stop words out, Hebrew prefixes folded),
 * sentence-like units built from whole cues, and term weights. Deterministic: no randomness, ties by position.
 */
import { prefixVariants, searchTokens } from '../../text/hebrew-search';
import type { ArticleCue } from './types';

const STOP_EN = `a about above after again against all am an and any are as at be because been before being below between both
but by can could did do does doing down during each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our
ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they
this those through to too under until up very was we were what when where which while who whom why will with would you
your yours yourself yourselves also one two well yes oh okay ok um uh like get got go going gonna say said says know think
really right see let lets thing things way much many even still back make made us may might must shall upon`;
const STOP_HE = `של את על עם זה זו זאת הוא היא הם הן אני אנחנו אתה את אתם אתן לא כן גם כל או אבל אם כי כמו יש אין היה היתה היו
יהיה עוד כבר רק מה מי איך למה כאן שם פה עכשיו אז אותו אותה אותם להם לו לה לי לנו לך אל מן מאוד הרבה קצת אחד אחת שני שתי
בין לפני אחרי תחת מול עד כך כדי יותר פחות ככה הזה הזאת האלה אלה אלו שלו שלה שלהם שלנו שלי שלך בו בה בהם עליו עליה עליהם`;
/** Words that carry no topic (English and Hebrew), in search form. */
export const STOP_WORDS: ReadonlySet<string> = new Set([...STOP_EN.split(/\s+/), ...STOP_HE.split(/\s+/).flatMap((w) => searchTokens(w))]);

/** The content words of a text: search-form tokens of two letters or more, stop words out, one Hebrew prefix folded. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const t of searchTokens(text)) {
    if (t.length < 2 || /^\d+$/.test(t) || STOP_WORDS.has(t)) continue;
    // A Hebrew word with a one-letter prefix (ו ה ב כ ל מ ש) counts as the word: `והממשלה` is `ממשלה`.
    const v = prefixVariants(t);
    const base = v.length > 1 && /[\u05d0-\u05ea]/.test(t) && v[v.length - 1]!.length >= 3 ? v[v.length - 1]! : t;
    if (!STOP_WORDS.has(base)) out.push(base);
  }
  return out;
}

/** A sentence-like unit: consecutive whole cues (`from`..`to` ids) with their text and times. */
export interface Unit { index: number; from: number; to: number; startMs: number; endMs: number; text: string; words: string[] }

const END = /[.!?…؟]["'”’)\]]*$/;

/**
 * Units from cues: a unit ends at a sentence end, a pause of `pauseMs` or more, or `maxCues` cues, so every unit is a
 * run of whole cues (quotes and chapters stay cue ranges). Transcripts without punctuation (built-in speech
 * recognition) are split by pauses.
 */
export function unitsOf(cues: ArticleCue[], o: { pauseMs?: number; maxCues?: number } = {}): Unit[] {
  const pause = o.pauseMs ?? 1000, max = o.maxCues ?? 3;
  const out: Unit[] = [];
  let cur: ArticleCue[] = [];
  const flush = () => {
    if (!cur.length) return;
    const text = cur.map((c) => c.text.replace(/\s*\n\s*/g, ' ').trim()).join(' ').trim();
    out.push({ index: out.length, from: cur[0]!.id, to: cur[cur.length - 1]!.id, startMs: cur[0]!.startMs, endMs: cur[cur.length - 1]!.endMs, text, words: contentWords(text) });
    cur = [];
  };
  cues.forEach((c, i) => {
    cur.push(c);
    const next = cues[i + 1];
    if (!next || END.test(c.text.trim()) || next.startMs - c.endMs >= pause || cur.length >= max) flush();
  });
  return out;
}

/** Term counts of a word list. */
export function counts(words: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/** Cosine similarity of two term-count vectors (0 when either is empty). */
export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0, na = 0, nb = 0;
  for (const [k, v] of a) { na += v * v; const w = b.get(k); if (w) dot += v * w; }
  for (const v of b.values()) nb += v * v;
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Term weights over units: tf across the programme times an inverse unit frequency, so a word that recurs in some
 * units (a topic) outweighs one that is everywhere or said once.
 */
export function termWeights(units: Unit[]): Map<string, number> {
  const tf = new Map<string, number>(), df = new Map<string, number>();
  for (const u of units) {
    for (const w of u.words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of new Set(u.words)) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const n = Math.max(1, units.length), out = new Map<string, number>();
  for (const [w, f] of tf) out.set(w, (1 + Math.log(f)) * Math.log(1 + n / (df.get(w) ?? 1)));
  return out;
}

/**
 * Sentence strength: the mean weight of its content words times a length factor (short fragments and very long
 * run-ons score lower), plus its similarity to the whole text (centrality).
 */
export function unitScores(units: Unit[], weights: Map<string, number>): number[] {
  const all = counts(units.flatMap((u) => u.words));
  return units.map((u) => {
    if (!u.words.length) return 0;
    const mean = u.words.reduce((s, w) => s + (weights.get(w) ?? 0), 0) / u.words.length;
    const n = u.text.split(/\s+/).length;
    const len = Math.min(1, n / 8) * (n > 45 ? 45 / n : 1);
    return mean * len * (1 + cosine(counts(u.words), all));
  });
}

/** Indices of the `k` highest scores, ties by position, returned in position order. */
export function topIndices(scores: number[], k: number, keep: (i: number) => boolean = () => true): number[] {
  return scores.map((s, i) => [s, i] as const).filter(([, i]) => keep(i)).sort((a, b) => b[0] - a[0] || a[1] - b[1]).slice(0, k).map(([, i]) => i).sort((a, b) => a - b);
}
