/**
 * The built-in extractive article engine: no model, works on every box, deterministic (the same transcript always
 * gives the same draft). Everything it writes is the programme's own words, chosen and arranged:
 *  - chapters by topic segmentation of the cue text (segment.ts, TextTiling-style lexical cohesion); a chapter's
 *    title is its strongest sentence shortened, its description the next strongest, its paragraphs its transcript;
 *  - the headline is the guide title and the programme's strongest sentence; standfirst and summary its best-ranked
 *    sentences in spoken order (ranking: term weights and centrality, lexical.ts);
 *  - quotes are whole cues of well-ranked sentences, role `report` (it cannot tell speakers apart);
 *  - entities are capitalised names found in the text (none in uncased scripts such as Hebrew), tags its top terms.
 */
import { counts, termWeights, topIndices, unitScores, unitsOf, type Unit } from './lexical';
import { segmentUnits } from './segment';
import { ArticleEngineError, type ArticleBody, type ArticleChapter, type ArticleDraft, type ArticleEngine, type ArticleInput, type ArticleQuote, type DraftOptions } from './types';

/** Shortens text at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

const capital = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);
const join = (us: Unit[]) => us.map((u) => u.text).join(' ');

function entitiesOf(units: Unit[]): string[] {
  const seen = new Map<string, { n: number; first: number }>();
  let pos = 0;
  for (const u of units) {
    for (const m of u.text.matchAll(/(\p{Lu}[\p{Ll}\p{Lu}'’-]+(?:\s+\p{Lu}[\p{Ll}\p{Lu}'’-]+)*)/gu)) {
      const name = m[1]!.replace(/['’]s$/, '');
      // A capital at the start of a sentence is grammar, not a name, unless it is a run of capitalised words.
      const atStart = m.index === 0 || /[.!?…]\s*$/.test(u.text.slice(0, m.index));
      if (atStart && !name.includes(' ')) continue;
      if (name.length < 2 || /^I$/.test(name)) continue;
      const e = seen.get(name) ?? { n: 0, first: pos++ };
      e.n++;
      seen.set(name, e);
    }
  }
  return [...seen].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first).slice(0, 10).map(([k]) => k);
}

function tagsOf(units: Unit[], weights: Map<string, number>): string[] {
  const tf = counts(units.flatMap((u) => u.words));
  return [...weights].filter(([w]) => w.length >= 3 && (tf.get(w) ?? 0) >= (units.length > 6 ? 2 : 1))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 6).map(([w]) => w);
}

/** Drafts an article body from the transcript alone (see the file comment). */
export function extractArticle(input: ArticleInput): ArticleBody {
  const units = unitsOf(input.cues).filter((u) => u.text);
  if (!units.length) throw new ArticleEngineError('the transcript has no text to draft from', true);
  const weights = termWeights(units);
  const scores = unitScores(units, weights);
  const best = topIndices(scores, 1)[0]!;
  const title = input.title.trim();
  const lead = capital(shorten(units[best]!.text, 100));
  const headline = title ? `${title}: ${lead}` : lead;
  const stand = topIndices(scores, 2).map((i) => units[i]!);
  const summaryCount = Math.max(2, Math.min(6, Math.round(units.length * 0.15)));
  const summary = topIndices(scores, summaryCount).map((i) => units[i]!);
  const starts = segmentUnits(units, input.durationMs);
  const chapters: ArticleChapter[] = starts.map((s, k) => {
    const part = units.slice(s, starts[k + 1] ?? units.length);
    const ranked = topIndices(part.map((u) => scores[u.index]!), 2);
    const first = part[ranked[0] ?? 0]!, second = part[ranked[1] ?? ranked[0] ?? 0]!;
    const words = first.text.split(/\s+/);
    const paragraphs: string[] = [];
    for (let i = 0; i < part.length; i += 5) paragraphs.push(capital(join(part.slice(i, i + 5))));
    return {
      title: capital(words.length > 8 ? `${words.slice(0, 8).join(' ').replace(/[,;:.]+$/, '')}…` : first.text),
      description: capital(shorten(second.text, 240)), paragraphs,
      start_ms: part[0]!.startMs, end_ms: part[part.length - 1]!.endMs,
    };
  });
  const quoteIdx = topIndices(scores, 3, (i) => { const n = units[i]!.text.split(/\s+/).length; return n >= 5 && n <= 40; });
  const quotes: ArticleQuote[] = quoteIdx.map((i) => ({ text: units[i]!.text, role: 'report', start_ms: units[i]!.startMs, end_ms: units[i]!.endMs }));
  return {
    headline, standfirst: capital(shorten(join(stand), 320)), summary: capital(join(summary)),
    chapters, quotes, entities: entitiesOf(units), tags: tagsOf(units, weights),
  };
}

/** The extractive engine behind the article boundary. */
export function extractiveEngine(): ArticleEngine {
  return {
    name: 'extractive',
    async draft(input: ArticleInput, o: DraftOptions = {}): Promise<ArticleDraft> {
      if (o.signal?.aborted) throw new ArticleEngineError('cancelled', false);
      o.progress?.(20);
      const body = extractArticle(input);
      o.progress?.(90);
      return { body, warnings: [], engine: 'extractive' };
    },
  };
}
