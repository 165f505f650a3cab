import { describe, expect, test } from 'bun:test';
import { extractArticle, extractiveEngine } from '../../src/engines/article/extractive';
import { unitsOf } from '../../src/engines/article/lexical';
import { segmentUnits } from '../../src/engines/article/segment';
import { cueRangeText, type ArticleCue } from '../../src/engines/article/types';

// The built-in extractive engine: topic chapters by lexical cohesion, headline from the guide title and the
// strongest sentence, quotes that are whole cues, the same answer every time.

const FOOTBALL = [
  'The football match in the capital ended with a late goal.', 'The home team scored the goal in the final minute of the match.',
  'Their captain said the team played the best football of the season.', 'The goal came from a corner kick taken by the young player.',
  'Fans of the team celebrated the goal in the stadium until midnight.', 'The coach praised every player in the team after the match.',
  'Next week the team plays the football champions away from home.', 'The player who scored the goal was named man of the match.',
];
const WEATHER = [
  'A storm is expected to reach the coast tomorrow with heavy rain.', 'Forecasters warn that the rain and wind will last until the weekend.',
  'The storm brings strong wind gusts and flooding along the coast.', 'Schools near the coast will close because of the storm and the rain.',
  'The weather service says the wind will weaken by Sunday evening.', 'Drivers should expect flooding on coastal roads during the storm.',
  'After the storm the forecast promises dry and sunny weather.', 'Farmers welcomed the rain after a long dry summer season.',
];

/** Cues 4 s apart with 1.5 s pauses between (so every cue is a sentence unit). */
function cuesOf(lines: string[]): ArticleCue[] {
  return lines.map((text, i) => ({ id: i + 1, startMs: i * 5500, endMs: i * 5500 + 4000, text }));
}

describe('extractive engine', () => {
  const cues = cuesOf([...FOOTBALL, ...WEATHER]);
  const input = { title: 'Evening News', description: null, language: 'en', durationMs: 16 * 5500, cues };

  test('two topics become two chapters split where the topic changes, in order and not overlapping', () => {
    const body = extractArticle(input);
    expect(body.chapters.length).toBe(2);
    expect(body.chapters[0]!.start_ms).toBe(0);
    expect(body.chapters[1]!.start_ms).toBe(cues[8]!.startMs); // the first weather cue
    expect(body.chapters[0]!.end_ms).toBeLessThanOrEqual(body.chapters[1]!.start_ms);
    expect(body.chapters[0]!.paragraphs.join(' ')).toContain('late goal');
    expect(body.chapters[1]!.paragraphs.join(' ')).toContain('storm');
    for (const c of body.chapters) expect(c.title.length).toBeGreaterThan(0);
  });

  test('headline starts with the guide title; standfirst and summary are the programme\'s own sentences', () => {
    const body = extractArticle(input);
    expect(body.headline.startsWith('Evening News: ')).toBe(true);
    const all = cues.map((c) => c.text).join(' ');
    for (const s of body.summary.split(/(?<=\.) /)) expect(all).toContain(s);
    expect(body.standfirst.length).toBeGreaterThan(20);
    expect(body.tags.length).toBeGreaterThan(0);
  });

  test('every quote is the verbatim text of whole cues at their times, role report', () => {
    const body = extractArticle(input);
    expect(body.quotes.length).toBeGreaterThan(0);
    for (const q of body.quotes) {
      const inside = cues.filter((c) => c.startMs >= q.start_ms && c.endMs <= q.end_ms);
      expect(inside.length).toBeGreaterThan(0);
      expect(q.text).toBe(cueRangeText(cues, inside[0]!.id, inside[inside.length - 1]!.id));
      expect(q.role).toBe('report');
    }
  });

  test('deterministic: the same transcript gives the same draft', async () => {
    const a = await extractiveEngine().draft(input), b = await extractiveEngine().draft(input);
    expect(JSON.stringify(a.body)).toBe(JSON.stringify(b.body));
    expect(a.engine).toBe('extractive');
  });

  test('Hebrew: content words with prefixes count as the word; two topics still split', () => {
    const he = cuesOf([
      'הממשלה אישרה הלילה את תקציב המדינה לשנה הבאה.', 'שר האוצר אמר שהתקציב מגדיל את ההשקעה בחינוך.', 'בתקציב החדש יש תוספת לבריאות ולחינוך.',
      'האופוזיציה תקפה את התקציב ואמרה שהוא פוגע במעמד הביניים.', 'ההצבעה על התקציב בכנסת תתקיים בשבוע הבא.', 'ראש הממשלה הודה לשר האוצר על התקציב.',
      'סערה חזקה תגיע מחר לחופי הארץ עם גשם כבד.', 'החזאים מזהירים מרוחות חזקות ומהצפות בחוף.', 'הגשם והרוחות יימשכו עד סוף השבוע.',
      'בתי הספר בחוף ייסגרו בגלל הסערה.', 'אחרי הסערה צפוי מזג אוויר נאה ושמשי.', 'החקלאים שמחו על הגשם אחרי קיץ יבש.',
    ]);
    const body = extractArticle({ title: 'מבט', description: null, language: 'he', durationMs: 12 * 5500, cues: he });
    expect(body.headline.startsWith('מבט: ')).toBe(true);
    expect(body.chapters.length).toBe(2);
    expect(body.chapters[1]!.start_ms).toBe(he[6]!.startMs);
    expect(body.entities).toEqual([]); // no capital letters in Hebrew: nothing is guessed
  });

  test('transcripts without punctuation are split into units by pauses; short transcripts make one chapter', () => {
    const flat: ArticleCue[] = [
      { id: 1, startMs: 0, endMs: 1500, text: 'he was not an ill disposed' }, { id: 2, startMs: 1600, endMs: 2900, text: 'young man' },
      { id: 3, startMs: 4000, endMs: 6000, text: 'he might even have been made amiable himself' },
    ];
    const units = unitsOf(flat);
    expect(units.map((u) => [u.from, u.to])).toEqual([[1, 2], [3, 3]]);
    expect(segmentUnits(units, 7000)).toEqual([0]);
    const body = extractArticle({ title: 'Readings', description: null, language: 'en', durationMs: 7000, cues: flat });
    expect(body.chapters).toHaveLength(1);
    expect([body.chapters[0]!.start_ms, body.chapters[0]!.end_ms]).toEqual([0, 6000]);
  });

  test('an empty transcript fails clearly', () => {
    expect(() => extractArticle({ ...input, cues: [{ id: 1, startMs: 0, endMs: 10, text: '   ' }] })).toThrow('no text');
  });
});
