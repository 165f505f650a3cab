/**
 * The article engine boundary (issue 45): a programme's transcript (its subtitle cues, numbered, times from the
 * programme's playback start) in, an article body out. Two engines implement it: the built-in extractive engine
 * (extractive.ts, no model) and an OpenAI-compatible chat endpoint asked for JSON by schema (openai-chat.ts).
 * Quotes are always text of the stored cues; chapters are cue ranges; a role is never a name.
 */

/** One transcript cue: `id` is its 1-based number in the programme, times are ms from the playback start. */
export interface ArticleCue { id: number; startMs: number; endMs: number; text: string }

/** What an engine drafts from. */
export interface ArticleInput {
  /** The guide title of the programme (headline material). */
  title: string;
  description: string | null;
  /** BCP 47 language of the transcript. */
  language: string;
  /** Length of the programme (playback start to end), ms. */
  durationMs: number;
  /** The transcript in time order (non-empty). */
  cues: ArticleCue[];
}

/** Who speaks a quote: never a person's name. */
export const QUOTE_ROLES = ['presenter', 'guest', 'report'] as const;
/** One of QUOTE_ROLES. */
export type QuoteRole = (typeof QUOTE_ROLES)[number];

/** A chapter of the article; times in ms from the playback start. */
export interface ArticleChapter { title: string; description: string; paragraphs: string[]; start_ms: number; end_ms: number }
/** A verbatim quote: `text` is the text of the cues in [start_ms, end_ms]. */
export interface ArticleQuote { text: string; role: QuoteRole; start_ms: number; end_ms: number }

/** The article body as stored and answered (the seed's "AI artifact (article)" `body`). */
export interface ArticleBody {
  headline: string; standfirst: string; summary: string;
  chapters: ArticleChapter[]; quotes: ArticleQuote[]; entities: string[]; tags: string[];
}

/** What a draft run reports besides the body: repairs made to a model's answer, calls made. */
export interface ArticleDraft { body: ArticleBody; warnings: string[]; engine: string; model?: string; calls?: number }

/** Per-run hooks: cancellation and progress (0-100). */
export interface DraftOptions { signal?: AbortSignal; progress?(pct: number): void }

/** An article engine. */
export interface ArticleEngine {
  /** Stable name recorded with the artifact (`extractive`, `llm`). */
  readonly name: string;
  /** Drafts an article; throws ArticleEngineError. */
  draft(input: ArticleInput, o?: DraftOptions): Promise<ArticleDraft>;
}

/** Why a draft failed: `permanent` when retrying cannot help (the model keeps answering nonsense, no transcript). */
export class ArticleEngineError extends Error {
  constructor(message: string, readonly permanent: boolean) {
    super(message);
    this.name = 'ArticleEngineError';
  }
}

/** `m:ss` (or `h:mm:ss`) of a time in ms, as numbered cues show it. */
export function clockOf(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The text of cues `from`..`to` (ids, inclusive) as one line: lines and cues joined by spaces. */
export function cueRangeText(cues: ArticleCue[], from: number, to: number): string {
  return cues.filter((c) => c.id >= from && c.id <= to).map((c) => c.text.replace(/\s*\n\s*/g, ' ').trim()).join(' ').trim();
}
