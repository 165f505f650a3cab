import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chatArticleEngine } from '../../src/engines/article/openai-chat';
import { ArticleEngineError, type ArticleCue, type ArticleInput } from '../../src/engines/article/types';

// The LLM article engine against a local server speaking the OpenAI chat protocol: what the request carries, and
// what happens to invented quote ranges, names in `role`, overlapping chapters and broken JSON.

interface Req { model: string; temperature: number; messages: { role: string; content: string }[]; response_format: { type: string; json_schema: { name: string; strict: boolean; schema: Record<string, any> } } }
let requests: Req[] = [];
let answers: (string | ((r: Req) => string))[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      if (new URL(req.url).pathname !== '/v1/chat/completions') return new Response('no', { status: 404 });
      const r = await req.json() as Req;
      requests.push(r);
      const a = answers.shift() ?? '{}';
      const content = typeof a === 'function' ? a(r) : a;
      return Response.json({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
    },
  });
});
afterAll(() => server.stop(true));

const cues: ArticleCue[] = [
  'Good evening, this is the news.', 'The minister Dana Levi opened the new bridge in Haifa today.', 'It took four years to build.',
  'I am proud of every worker who built it, she said.', 'Now the weather.', 'Rain is expected across the north tomorrow.',
].map((text, i) => ({ id: i + 1, startMs: i * 3000 + (i >= 4 ? 720_000 : 0), endMs: i * 3000 + 2500 + (i >= 4 ? 720_000 : 0), text }));
const input: ArticleInput = { title: 'Evening News', description: 'The day\'s news', language: 'en', durationMs: 900_000, cues };
const engine = () => chatArticleEngine({ url: `http://127.0.0.1:${server.port}`, model: 'test-model' });
const good = {
  headline: 'New bridge opens in Haifa', standfirst: 'The minister opened it today.', summary: 'A bridge opened; rain is coming.',
  chapters: [{ title: 'Bridge', description: 'The bridge opens.', paragraphs: ['The bridge opened.'], from_cue: 1, to_cue: 4 },
    { title: 'Weather', description: 'Rain.', paragraphs: ['Rain tomorrow.'], from_cue: 5, to_cue: 6 }],
  quotes: [{ from_cue: 4, to_cue: 4, role: 'guest' }], entities: ['Dana Levi', 'Haifa'], tags: ['bridge', 'weather'],
};

describe('LLM article engine (OpenAI chat protocol)', () => {
  test('the request carries the model, the json_schema (cue ranges, closed role list, no name or quote text field) and numbered cues', async () => {
    requests = []; answers = [JSON.stringify(good)];
    const d = await engine().draft(input);
    expect(requests).toHaveLength(1);
    const r = requests[0]!;
    expect(r.model).toBe('test-model');
    expect(r.response_format.type).toBe('json_schema');
    expect(r.response_format.json_schema.strict).toBe(true);
    const schema = r.response_format.json_schema.schema;
    const quote = schema.properties.quotes.items;
    expect(Object.keys(quote.properties).sort()).toEqual(['from_cue', 'role', 'to_cue']);
    expect(quote.properties.role.enum).toEqual(['presenter', 'guest', 'report']);
    expect(Object.keys(schema.properties.chapters.items.properties)).toContain('from_cue');
    const user = r.messages.find((m) => m.role === 'user')!.content;
    expect(user).toContain('[#1 0:00] Good evening, this is the news.');
    expect(user).toContain('[#5 12:12] Now the weather.'); // 732 s from the playback start
    expect(d.body.quotes).toEqual([{ text: 'I am proud of every worker who built it, she said.', role: 'guest', start_ms: 9000, end_ms: 11500 }]);
    expect(d.body.chapters.map((c) => [c.start_ms, c.end_ms])).toEqual([[0, 11500], [732_000, 737_500]]);
    expect(d.warnings).toEqual([]);
    expect([d.engine, d.model, d.calls]).toEqual(['llm', 'test-model', 1]);
  });

  test('an invented quote range, a name in role, overlapping chapters and an unknown entity are repaired and reported', async () => {
    requests = []; answers = [JSON.stringify({
      ...good,
      chapters: [{ title: 'Weather', description: '', paragraphs: [], from_cue: 4, to_cue: 6 }, { title: 'Bridge', description: '', paragraphs: [], from_cue: 1, to_cue: 5 }],
      quotes: [{ from_cue: 40, to_cue: 42, role: 'guest' }, { from_cue: 2, to_cue: 2, role: 'Dana Levi' }, { from_cue: 6, to_cue: 6, role: 'report' }],
      entities: ['Haifa', 'Tel Aviv'],
    })];
    const d = await engine().draft(input);
    expect(d.body.quotes).toEqual([{ text: 'Rain is expected across the north tomorrow.', role: 'report', start_ms: 735_000, end_ms: 737_500 }]);
    expect(d.body.chapters.map((c) => [c.title, c.start_ms, c.end_ms])).toEqual([['Bridge', 0, 734_500], ['Weather', 735_000, 737_500]]);
    expect(d.body.entities).toEqual(['Haifa']);
    expect(d.warnings).toEqual([
      'quote 1 dropped: cue range #40-#42 is not in the transcript (#1-#6)',
      'quote 2 dropped: role "Dana Levi" is not one of presenter, guest, report',
      'chapters reordered by their first cue',
      'chapter "Weather" overlapped the chapter before: now starts at cue #6 instead of #4',
      'entity "Tel Aviv" dropped: not found in the transcript',
    ]);
  });

  test('broken JSON is asked again once with the reason; a good second answer is used', async () => {
    requests = []; answers = ['{"headline": "Bridge", "chapters": [', JSON.stringify(good)];
    const d = await engine().draft(input);
    expect(d.calls).toBe(2);
    expect(d.body.headline).toBe(good.headline);
    expect(requests[1]!.messages.at(-1)!.content).toContain('not valid JSON');
  });

  test('broken JSON twice fails the draft for good with the reason', async () => {
    requests = []; answers = ['not json at all', '```json\n{"headline": \n```'];
    const e = await engine().draft(input).catch((x) => x);
    expect(e).toBeInstanceOf(ArticleEngineError);
    expect((e as ArticleEngineError).permanent).toBe(true);
    expect((e as Error).message).toContain('unusable twice');
    expect((e as Error).message).toContain('not valid JSON');
  });

  test('no usable chapter (every range invented) twice: fails, never a draft without chapters', async () => {
    requests = []; const bad = JSON.stringify({ ...good, chapters: [{ title: 'X', description: '', paragraphs: [], from_cue: 100, to_cue: 120 }] });
    answers = [bad, bad];
    const e = await engine().draft(input).catch((x) => x);
    expect((e as Error).message).toContain('no usable chapter');
    expect((e as ArticleEngineError).permanent).toBe(true);
  });

  test('a long transcript is drafted in chunks of whole cues, then the lead is merged in one more request', async () => {
    requests = [];
    answers = [
      (r) => { const u = r.messages[1]!.content; expect(u).toContain('part 1 of 2'); return JSON.stringify({ ...good, headline: 'Bridge', chapters: [{ title: 'Bridge', description: '', paragraphs: [], from_cue: 1, to_cue: 4 }], quotes: [{ from_cue: 2, to_cue: 3, role: 'report' }], entities: ['Haifa'], tags: ['bridge'] }); },
      (r) => { const u = r.messages[1]!.content; expect(u).toContain('[#5 12:12]'); expect(u).not.toContain('[#1 '); return JSON.stringify({ ...good, headline: 'Rain', chapters: [{ title: 'Weather', description: '', paragraphs: [], from_cue: 5, to_cue: 6 }], quotes: [{ from_cue: 1, to_cue: 1, role: 'presenter' }], entities: ['north'], tags: ['weather', 'Bridge'] }); },
      (r) => { expect(r.response_format.json_schema.name).toBe('article_lead'); expect(r.messages[1]!.content).toContain('Headline: Rain'); return JSON.stringify({ headline: 'Bridge opens, rain comes', standfirst: 'Two stories.', summary: 'Both.' }); },
    ];
    const d = await chatArticleEngine({ url: `http://127.0.0.1:${server.port}/v1`, model: 'm', chunkChars: 230 }).draft(input);
    expect(requests).toHaveLength(3);
    expect(d.body.headline).toBe('Bridge opens, rain comes');
    expect(d.body.chapters.map((c) => c.title)).toEqual(['Bridge', 'Weather']);
    // Part 2 may only quote its own cues: #1 is not in it.
    expect(d.body.quotes.map((q) => q.text)).toEqual(['The minister Dana Levi opened the new bridge in Haifa today. It took four years to build.']);
    expect(d.warnings).toEqual(['part 2: quote 1 dropped: cue range #1-#1 is not in the transcript (#5-#6)']);
    expect(d.body.tags).toEqual(['bridge', 'weather']);
  });

  test('an endpoint that refuses (400) fails for good; one that cannot be reached is retried by the job', async () => {
    const refuse = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('{"error":"response_format not supported"}', { status: 400 }) });
    try {
      const e = await chatArticleEngine({ url: `http://127.0.0.1:${refuse.port}`, model: 'm' }).draft(input).catch((x) => x) as ArticleEngineError;
      expect([e.permanent, e.message.includes('answered 400')]).toEqual([true, true]);
    } finally { refuse.stop(true); }
    const e = await chatArticleEngine({ url: 'http://127.0.0.1:1', model: 'm' }).draft(input).catch((x) => x) as ArticleEngineError;
    expect([e.permanent, e.message.includes('could not be reached')]).toEqual([false, true]);
  });
});

// Opt-in: a real OpenAI-compatible endpoint (llama.cpp server, Ollama, vLLM) when VS_LLM_URL is set.
test.skipIf(!process.env.VS_LLM_URL)('a real chat endpoint drafts a checked article (VS_LLM_URL)', async () => {
  const d = await chatArticleEngine({ url: process.env.VS_LLM_URL!, model: process.env.VS_LLM_MODEL ?? 'default', apiKey: process.env.VS_LLM_API_KEY }).draft(input);
  console.log(JSON.stringify(d, null, 2));
  expect(d.body.headline.length).toBeGreaterThan(0);
  expect(d.body.chapters.length).toBeGreaterThan(0);
  for (const q of d.body.quotes) expect(cues.map((c) => c.text).join(' ')).toContain(q.text);
}, 600_000);
