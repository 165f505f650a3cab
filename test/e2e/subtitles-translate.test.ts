import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { newId } from '../../src/kernel/ids';
import { defaultTenant } from './transcode-helpers';
import { identityService } from '../../src/features/identity/service';
import { parseWebVtt } from '../../src/text/webvtt';
import { parseSrt } from '../../src/text/srt';
import { HE_SENTENCES, HE_SRT, TRANSLATIONS } from './subtitles-translate-fixtures';

// Issue 43, translations: a Hebrew track translated into en, ar and ru through the two engine protocols, each spoken by
// a local Bun.serve peer that checks the request shape (OpenAI-compatible chat with json_schema output and the glossary
// in the prompt; LibreTranslate with a q array and api_key); whole sentences merged across cues and split back onto
// the source times within the cue rules; malformed answers retried once, then a clear failure; no engine: a reason.

type Chat = { model: string; temperature: number; messages: { role: string; content: string }[]; response_format: { type: string; json_schema: { name: string; strict: boolean; schema: { properties: { translations: { minItems: number; maxItems: number } } } } } };
const chatSeen: { body: Chat; auth: string | null }[] = [];
const libreSeen: Record<string, unknown>[] = [];
/** What the chat peer does next: answer, answer broken JSON once, or always answer one sentence too few. */
let chatMode: 'ok' | 'broken-once' | 'short' = 'ok';

function translate(sentences: string[], target: string): string[] {
  return sentences.map((s) => {
    const i = HE_SENTENCES.indexOf(s);
    if (i < 0) throw new Error(`unexpected sentence ${JSON.stringify(s)}`);
    return TRANSLATIONS[target]![i]!;
  });
}

const chat = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  async fetch(req) {
    if (new URL(req.url).pathname !== '/v1/chat/completions' || req.method !== 'POST') return new Response('not found', { status: 404 });
    const body = await req.json() as Chat;
    chatSeen.push({ body, auth: req.headers.get('authorization') });
    const target = /\bto [A-Za-z]+ \(([a-z-]+)\)/.exec(body.messages[0]!.content)?.[1] ?? '?';
    const sentences = JSON.parse(body.messages[1]!.content) as string[];
    let out = translate(sentences, target);
    let content = JSON.stringify({ translations: out });
    if (chatMode === 'broken-once') { chatMode = 'ok'; content = '{"translations": ["The prime minister'; }
    if (chatMode === 'short') { out = out.slice(1); content = JSON.stringify({ translations: out }); }
    return Response.json({ id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] });
  },
});

const libre = Bun.serve({
  port: 0, hostname: '127.0.0.1',
  async fetch(req) {
    if (new URL(req.url).pathname !== '/translate' || req.method !== 'POST') return new Response('not found', { status: 404 });
    const body = await req.json() as { q: string[]; source: string; target: string; format: string; api_key?: string };
    libreSeen.push(body);
    if (body.api_key !== 'lt-key') return Response.json({ error: 'Invalid API key' }, { status: 403 });
    return Response.json({ translatedText: translate(body.q, body.target) });
  },
});

let s: TestServer, lt: TestServer, none: TestServer;
beforeAll(async () => {
  [s, lt, none] = await Promise.all([
    startTestServer({ env: { VS_MT_URL: `http://127.0.0.1:${chat.port}`, VS_MT_MODEL: 'dictalm2-test', VS_MT_API_KEY: 'chat-key' } }),
    startTestServer({ env: { VS_MT_KIND: 'libretranslate', VS_MT_URL: `http://127.0.0.1:${libre.port}`, VS_MT_API_KEY: 'lt-key' } }),
    startTestServer(),
  ]);
}, 60_000);
afterAll(async () => { await Promise.all([s?.stop(), lt?.stop(), none?.stop()]); chat.stop(true); libre.stop(true); });

/** A library asset (its source a few bytes that are no video: nothing is encoded) with the Hebrew track uploaded. */
async function hebrewTrack(t: TestServer): Promise<{ asset: string; track: string }> {
  const dir = join(t.dataDir, 'media', defaultTenant(t.ctx), 'ingest', 'news', 'in');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'never.mp4'), 'not a video');
  const a = await t.api('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/news/in/never.mp4' }, title: 'news' });
  expect(a.status).toBe(201);
  const asset = ((await a.json()) as { id: string }).id;
  const r = await t.api('POST', `/v1/assets/${asset}/subtitles`, { language: 'he', content: HE_SRT, format: 'srt' });
  expect(r.status).toBe(201);
  return { asset, track: ((await r.json()) as { id: string }).id };
}

type Track = { id: string; status: string; error: string | null; engine: string | null; source: string; source_track_id: string | null; language: string; job_id: string; cue_count: number };
async function translated(t: TestServer, asset: string, source: string, language: string): Promise<Track> {
  const r = await t.api('POST', `/v1/assets/${asset}/subtitles/${source}/translations`, { language });
  expect(r.status).toBe(202);
  const q = await r.json() as Track;
  expect([q.status, q.source, q.source_track_id, q.language]).toEqual(['queued', 'translation', source, language]);
  return (await waitFor(`translation to ${language}`, async () => {
    const x = await (await t.api('GET', `/v1/assets/${asset}/subtitles/${q.id}`)).json() as Track;
    return x.status === 'ready' || x.status === 'failed' ? x : null;
  }, 60_000, 100))!;
}

const vis = (l: string) => [...l.replace(/[\p{M}\p{Cf}]/gu, '')].length;

test('he -> en, ar, ru through the OpenAI-compatible chat engine: whole sentences, glossary in the prompt, source times, cue rules', async () => {
  const { asset, track } = await hebrewTrack(s);
  // A glossary term of the tenant: it must reach the prompt.
  expect((await s.api('POST', '/v1/glossary', { term: 'משכן הכנסת', language: 'he' })).status).toBe(201);
  const src = parseSrt(HE_SRT);
  for (const lang of ['en', 'ar', 'ru']) {
    chatSeen.length = 0;
    const done = await translated(s, asset, track, lang);
    expect([done.status, done.error, done.engine]).toEqual(['ready', null, 'openai-chat']);
    // One request: the model, the key, JSON-schema output for exactly 3 sentences, the whole sentences, the glossary.
    expect(chatSeen.length).toBe(1);
    const { body, auth } = chatSeen[0]!;
    expect(auth).toBe('Bearer chat-key');
    expect(body.model).toBe('dictalm2-test');
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.properties.translations).toMatchObject({ minItems: 3, maxItems: 3 });
    expect(JSON.parse(body.messages[1]!.content)).toEqual(HE_SENTENCES);
    expect(body.messages[0]!.content).toContain('from Hebrew (he)');
    expect(body.messages[0]!.content).toContain('- משכן הכנסת');
    const vttRes = await s.api('GET', `/v1/assets/${asset}/subtitles/${done.id}.vtt`);
    expect(vttRes.status).toBe(200);
    const vtt = await vttRes.text();
    console.log(`he -> ${lang}:\n${vtt}`);
    const cues = parseWebVtt(vtt);
    // Every word of the translation, in order, nothing else.
    expect(cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ').split(' ')).toEqual(TRANSLATIONS[lang]!.join(' ').split(' '));
    // On the source times: each cue starts at a source cue's start, and ends before the next source cue (2 frames).
    for (const c of cues) {
      const k = src.findIndex((x) => x.startMs === c.startMs);
      expect(k).toBeGreaterThanOrEqual(0);
      if (src[k + 1]) expect(c.endMs).toBeLessThanOrEqual(src[k + 1]!.startMs - 80);
      const lines = c.text.split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const l of lines) expect(vis(l)).toBeLessThanOrEqual(42);
      expect(c.endMs - c.startMs).toBeLessThanOrEqual(7000);
    }
    // Sentence 1 ("... in Jerusalem.") ends in the second cue, as in the source; sentence 3 starts in the third.
    expect(cues.find((c) => c.text.includes(TRANSLATIONS[lang]![0]!.split(' ').pop()!))!.startMs).toBe(3600);
    const job = await (await s.api('GET', `/v1/jobs/${done.job_id}`)).json() as { status: string; result: Record<string, number> };
    expect(job.result).toMatchObject({ sentences: 3, source_cues: 5, retries: 0, glossary_terms: 1 });
    if (lang === 'ar') {
      // Stored in logical order without marks; each exported line opened by U+200F.
      expect(vtt.split('\n').filter((l) => /[\u0600-\u06ff]/.test(l)).every((l) => l.startsWith('\u200f'))).toBe(true);
      const srt = await (await s.api('GET', `/v1/assets/${asset}/subtitles/${done.id}.srt`)).text();
      expect(srt).toContain('\u200fالتقى');
    }
  }
}, 120_000);

test('a malformed answer is asked once more; a wrong count of sentences twice fails the track with the reason', async () => {
  const { asset, track } = await hebrewTrack(s);
  chatSeen.length = 0;
  chatMode = 'broken-once';
  const ok = await translated(s, asset, track, 'en');
  expect(ok.status).toBe('ready');
  expect(chatSeen.length).toBe(2);
  const job = await (await s.api('GET', `/v1/jobs/${ok.job_id}`)).json() as { result: Record<string, number> };
  expect(job.result.retries).toBe(1);
  chatSeen.length = 0;
  chatMode = 'short';
  const bad = await translated(s, asset, track, 'ru');
  chatMode = 'ok';
  expect(bad.status).toBe('failed');
  expect(bad.error).toContain('the chat model returned 2 sentences for 3');
  expect(chatSeen.length).toBe(2);
}, 60_000);

test('LibreTranslate: q is the array of whole sentences, with source, target, format and api_key', async () => {
  const { asset, track } = await hebrewTrack(lt);
  const done = await translated(lt, asset, track, 'ar');
  expect([done.status, done.error, done.engine]).toEqual(['ready', null, 'libretranslate']);
  expect(libreSeen).toEqual([{ q: HE_SENTENCES, source: 'he', target: 'ar', format: 'text', api_key: 'lt-key' }]);
  const cues = parseWebVtt(await (await lt.api('GET', `/v1/assets/${asset}/subtitles/${done.id}.vtt`)).text());
  expect(cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ').replace(/\u200f/g, '')).toBe(TRANSLATIONS.ar!.join(' '));
}, 60_000);

test('no translation engine configured: the track fails with a reason that says how to configure one', async () => {
  const { asset, track } = await hebrewTrack(none);
  const done = await translated(none, asset, track, 'en');
  expect(done.status).toBe('failed');
  expect(done.error).toContain('no translation engine is configured: set VS_MT_URL');
}, 60_000);

test('bad requests: unknown field 400, wrong type 422, same language 422, unknown track 404, read-only key 403', async () => {
  const { asset, track } = await hebrewTrack(s);
  const path = `/v1/assets/${asset}/subtitles/${track}/translations`;
  expect((await s.api('POST', path, { language: 'en', colour: 'red' })).status).toBe(400);
  expect((await s.api('POST', path, { language: 7 })).status).toBe(422);
  const same = await s.api('POST', path, { language: 'he' });
  expect(same.status).toBe(422);
  expect(JSON.stringify(await same.json())).toContain('already in');
  expect((await s.api('POST', `/v1/assets/${asset}/subtitles/${newId()}/translations`, { language: 'en' })).status).toBe(404);
  expect((await s.api('POST', `/v1/assets/${newId()}/subtitles/${track}/translations`, { language: 'en' })).status).toBe(404);
  const key = identityService(s.ctx).createKey(defaultTenant(s.ctx), { scopes: ['assets:read'] }).key;
  expect((await s.api('POST', path, { language: 'en' }, { key })).status).toBe(403);
  expect((await s.api('POST', path, { language: 'en' }, { key: null })).status).toBe(401);
}, 60_000);
