/**
 * What the chat model is asked for: JSON by schema (`response_format: json_schema`, strict), chapters and quotes as
 * cue ranges (`from_cue`..`to_cue`, the numbers of the `[#n m:ss]` lines), a quote's speaker as a role from a closed
 * list. There is no field for a quote's text or a speaker's name: the server rebuilds quotes from the stored cues.
 */
import { QUOTE_ROLES, clockOf, type ArticleCue, type ArticleInput } from './types';

const str = (description: string) => ({ type: 'string', description });
const cue = (description: string) => ({ type: 'integer', minimum: 1, description });

/** The JSON schema of one chunk's answer (the whole programme when it fits one request). */
export const ARTICLE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['headline', 'standfirst', 'summary', 'chapters', 'quotes', 'entities', 'tags'],
  properties: {
    headline: str('news headline, at most 110 characters'),
    standfirst: str('one or two sentences under the headline'),
    summary: str('a short factual summary of the programme'),
    chapters: {
      type: 'array', description: 'topic chapters in programme order; cue ranges must not overlap',
      items: {
        type: 'object', additionalProperties: false, required: ['title', 'description', 'paragraphs', 'from_cue', 'to_cue'],
        properties: { title: str('chapter title'), description: str('one sentence'), paragraphs: { type: 'array', items: { type: 'string' } }, from_cue: cue('first cue number of the chapter'), to_cue: cue('last cue number of the chapter') },
      },
    },
    quotes: {
      type: 'array', description: 'memorable verbatim quotes, given only as cue ranges (the text is taken from the cues)',
      items: {
        type: 'object', additionalProperties: false, required: ['from_cue', 'to_cue', 'role'],
        properties: { from_cue: cue('first cue number of the quote'), to_cue: cue('last cue number of the quote'), role: { type: 'string', enum: [...QUOTE_ROLES], description: 'who speaks: presenter, guest or report; never a name' } },
      },
    },
    entities: { type: 'array', items: { type: 'string' }, description: 'people, places and organisations named in the transcript, spelled as in it' },
    tags: { type: 'array', items: { type: 'string' }, description: 'up to 8 topic tags' },
  },
} as const;

/** The schema of the merge step: the article's lead written from the chunks' summaries. */
export const MERGE_SCHEMA = {
  type: 'object', additionalProperties: false, required: ['headline', 'standfirst', 'summary'],
  properties: { headline: str('news headline, at most 110 characters'), standfirst: str('one or two sentences'), summary: str('a short factual summary of the whole programme') },
} as const;

/** The transcript as numbered cues, one per line: `[#123 12:03] text`. */
export function numberedCues(cues: ArticleCue[]): string {
  return cues.map((c) => `[#${c.id} ${clockOf(c.startMs)}] ${c.text.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

/** The system instruction (the output language is the transcript's). */
export function systemPrompt(language: string): string {
  return [
    'You are a news editor. You write an article draft from a broadcast programme transcript.',
    `Write in the language of the transcript (${language}).`,
    'The transcript is given as numbered cues: [#number minutes:seconds] text.',
    'Answer with JSON matching the schema. Chapters and quotes are cue ranges (from_cue, to_cue) of numbers that appear in the transcript;',
    'chapters are in order and do not overlap. A quote is given only by its cue range and the role of its speaker',
    '(presenter, guest or report); never write a person\'s name as a role. Entities must be spelled as in the transcript.',
  ].join(' ');
}

/** The user message of one chunk. */
export function chunkPrompt(input: ArticleInput, cues: ArticleCue[], part: { index: number; of: number }): string {
  const head = [`Programme: ${input.title}`];
  if (input.description) head.push(`Guide description: ${input.description}`);
  if (part.of > 1) head.push(`This is part ${part.index + 1} of ${part.of} of the transcript (cues #${cues[0]!.id}-#${cues[cues.length - 1]!.id}).`);
  return `${head.join('\n')}\n\nTranscript:\n${numberedCues(cues)}`;
}
