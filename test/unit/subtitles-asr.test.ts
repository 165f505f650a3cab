import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAiAsrEngine, parseVerboseJson, transcriptionsUrl } from '../../src/engines/asr/openai';
import { parsePocketsphinxOutput, pocketsphinxEngine } from '../../src/engines/asr/pocketsphinx';
import { asrEngines, asrSettingsFromEnv, engineFor } from '../../src/engines/asr/select';
import { AsrError } from '../../src/engines/asr/types';
import fixture from './subtitles-fixture-he.json';
import { speechAudioArgs } from '../../src/media/args/speech-audio';

// Issue 43, the engine boundary: transcribe(16 kHz mono WAV, language, glossary prompt) -> segments with word timings.
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
const dir = mkdtempSync(join(tmpdir(), 'vs-asr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A tiny 16 kHz mono PCM WAV (a 440 Hz tone) for requests whose answer does not depend on the audio. */
function toneWav(path: string, seconds = 0.5): string {
  const n = Math.round(16000 * seconds), b = Buffer.alloc(44 + n * 2);
  b.write('RIFF', 0); b.writeUInt32LE(36 + n * 2, 4); b.write('WAVEfmt ', 8); b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22); b.writeUInt32LE(16000, 24); b.writeUInt32LE(32000, 28);
  b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34); b.write('data', 36); b.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) b.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), 44 + i * 2);
  writeFileSync(path, b);
  return path;
}

describe('pocketsphinx (built-in, English)', () => {
  test('parses the CLI output: utterances become segments, markers dropped, alternates unsuffixed, times absolute', () => {
    // Recorded from `pocketsphinx_continuous -time yes` on librivox 0880 + 2 s silence + 0930 (Debian 12).
    const out = [
      'he was not an illness closed young man', '<s> 0.140 0.220 0.999700', 'he 0.230 0.330 0.993322',
      'was(2) 0.340 0.560 0.993024', 'not 0.570 0.980 0.998501', '[SPEECH] 0.990 1.120 0.527464',
      'an(2) 1.130 1.300 0.547020', 'illness 1.310 1.670 0.897706', 'closed 1.680 2.120 0.020874',
      'young 2.130 2.340 0.160155', 'man 2.350 2.800 0.753797', '</s> 2.810 3.100 1.000000',
      'he might even have been made the amiable himself', '<s> 4.880 4.970 1.000300', '<sil> 4.980 5.200 0.932853',
      'he 5.210 5.370 0.999400', 'might 5.380 5.620 0.999300', 'even 5.630 5.910 1.000300', 'have 5.920 6.060 0.382238',
      'been 6.070 6.320 0.982159', 'made 6.330 6.640 0.980392', 'the 6.650 6.720 0.253280',
      'amiable 6.730 7.260 0.264754', 'himself 7.270 8.000 0.899054', '</s> 8.010 8.270 1.000000',
    ].join('\n');
    const segs = parsePocketsphinxOutput(out);
    expect(segs.map((s) => s.text)).toEqual(['he was not an illness closed young man', 'he might even have been made the amiable himself']);
    expect(segs[0]!.words[1]).toEqual({ startMs: 340, endMs: 560, text: 'was' });
    expect(segs[1]!.startMs).toBe(5210);
    expect(segs[1]!.endMs).toBe(8000);
  });

  test('recognises real recorded speech with word timings (librivox 0880: "he was not an ill disposed young man")', async () => {
    const engine = pocketsphinxEngine();
    expect(engine.supports('en-US')).toBe(true);
    expect(engine.supports('he')).toBe(false);
    const segs = await engine.transcribe({ wavPath: `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0880.wav`, language: 'en' });
    const words = segs.flatMap((s) => s.words);
    const text = words.map((w) => w.text).join(' ');
    for (const w of ['he', 'was', 'not', 'young', 'man']) expect(text.split(' ')).toContain(w);
    for (const w of words) {
      expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
      expect(w.endMs).toBeLessThanOrEqual(3000); // the recording is 2.99 s
    }
    expect(words.map((w) => w.startMs)).toEqual([...words.map((w) => w.startMs)].sort((a, b) => a - b));
  }, 300_000);

  test('refuses other languages and missing audio with a clear reason', async () => {
    const e = pocketsphinxEngine();
    const err = await e.transcribe({ wavPath: `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0880.wav`, language: 'he' }).catch((x) => x);
    expect(err).toBeInstanceOf(AsrError);
    expect((err as AsrError).code).toBe('no_engine');
    expect((await e.transcribe({ wavPath: join(dir, 'none.wav'), language: 'en' }).catch((x) => x)).code).toBe('bad_audio');
    const gone = pocketsphinxEngine({ bin: null });
    expect(gone.supports('en')).toBe(false);
  });
});

describe('OpenAI-compatible service (engine 1)', () => {
  const seen: { fields: Record<string, string[]>; auth: string | null; path: string; fileType: string; fileSize: number }[] = [];
  let mode: 'ok' | 'fail' | 'html' = 'ok';
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== 'POST' || url.pathname !== '/v1/audio/transcriptions') return new Response('not found', { status: 404 });
      const form = await req.formData();
      const fields: Record<string, string[]> = {};
      let fileType = '', fileSize = 0;
      for (const [k, v] of form.entries()) {
        if (typeof v === 'string') (fields[k] ??= []).push(v);
        else { const f = v as Blob; fileType = f.type; fileSize = f.size; }
      }
      seen.push({ fields, auth: req.headers.get('authorization'), path: url.pathname, fileType, fileSize });
      if (mode === 'fail') return new Response('{"error":{"message":"model not loaded"}}', { status: 503 });
      if (mode === 'html') return new Response('<html>proxy error</html>', { status: 200 });
      // The protocol: without verbose_json there are no timings; answer as a service would (plain text).
      if (fields.response_format?.[0] !== 'verbose_json') return new Response(fixture.text);
      return Response.json(fixture);
    },
  });
  afterAll(() => server.stop(true));
  const base = `http://127.0.0.1:${server.port}`;

  test('the endpoint from a base URL, a /v1 URL or the full path', () => {
    expect(transcriptionsUrl('http://gpu:8080')).toBe('http://gpu:8080/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://gpu:8000/v1/')).toBe('http://gpu:8000/v1/audio/transcriptions');
    expect(transcriptionsUrl('http://gpu:8080/v1/audio/transcriptions')).toBe('http://gpu:8080/v1/audio/transcriptions');
  });

  test('sends multipart with file, model, language=he, the glossary as prompt, verbose_json and word timestamps', async () => {
    seen.length = 0; mode = 'ok';
    const wav = toneWav(join(dir, 'tone.wav'));
    const engine = openAiAsrEngine({ url: base, model: 'ivrit-ai/whisper-large-v3-turbo', apiKey: 'sk-local' });
    const segs = await engine.transcribe({ wavPath: wav, language: 'he-IL', prompt: 'ירושלים, ראש הממשלה' });
    expect(seen).toHaveLength(1);
    const r = seen[0]!;
    expect(r.fields.model).toEqual(['ivrit-ai/whisper-large-v3-turbo']);
    expect(r.fields.language).toEqual(['he']);
    expect(r.fields.prompt).toEqual(['ירושלים, ראש הממשלה']);
    expect(r.fields.response_format).toEqual(['verbose_json']);
    expect(r.fields['timestamp_granularities[]']).toContain('word');
    expect(r.auth).toBe('Bearer sk-local');
    expect(r.fileType).toMatch(/^audio\/(x-)?wav$/);
    expect(r.fileSize).toBe(44 + 16000);
    // Tokens glued into words (ובר + וכים, the full stop onto the word before), times in ms, Hebrew in logical order.
    expect(segs.map((s) => s.words.map((w) => w.text).join(' '))).toEqual([
      'שלום וברוכים הבאים למהדורת החדשות.',
      'ראש הממשלה נפגש היום בירושלים עם שר החוץ.',
    ]);
    expect(segs[0]!.words[1]).toEqual({ startMs: 560, endMs: 1020, text: 'וברוכים' });
    expect(segs[1]!.words.at(-1)).toEqual({ startMs: 5940, endMs: 6280, text: 'החוץ.' });
    expect(segs[1]!.startMs).toBe(3100);
  });

  test('top-level words (OpenAI / speaches shape) are shared out to segments; text-only answers get estimated words', () => {
    const segs = parseVerboseJson({
      text: 'hello there. general kenobi',
      segments: [{ start: 0, end: 1.5, text: 'hello there.' }, { start: 1.6, end: 3, text: 'general kenobi' }],
      words: [{ word: 'hello', start: 0.1, end: 0.5 }, { word: 'there.', start: 0.6, end: 1.2 }, { word: 'general', start: 1.7, end: 2.2 }, { word: 'kenobi', start: 2.3, end: 2.9 }],
    });
    expect(segs.map((s) => s.words.map((w) => w.text))).toEqual([['hello', 'there.'], ['general', 'kenobi']]);
    const est = parseVerboseJson({ text: 'שלום לכם', duration: 2 });
    expect(est[0]!.wordsEstimated).toBe(true);
    expect(est[0]!.words).toEqual([{ startMs: 0, endMs: 1143, text: 'שלום' }, { startMs: 1143, endMs: 2000, text: 'לכם' }]);
    expect(() => parseVerboseJson('nope')).toThrow(AsrError);
  });

  test('a failing, non-JSON or absent service is an AsrError with a reason, not a hang', async () => {
    const wav = toneWav(join(dir, 'tone2.wav'));
    const engine = openAiAsrEngine({ url: base, model: 'm' });
    mode = 'fail';
    const e1 = await engine.transcribe({ wavPath: wav, language: 'he' }).catch((x) => x);
    expect([e1.code, e1.permanent, /503.*model not loaded/.test(e1.message)]).toEqual(['engine_failed', false, true]);
    mode = 'html';
    expect((await engine.transcribe({ wavPath: wav, language: 'he' }).catch((x) => x)).code).toBe('bad_response');
    mode = 'ok';
    const closed = Bun.serve({ port: 0, fetch: () => new Response('') });
    const deadUrl = `http://127.0.0.1:${closed.port}`;
    closed.stop(true);
    const e3 = await openAiAsrEngine({ url: deadUrl, model: 'm' }).transcribe({ wavPath: wav, language: 'he' }).catch((x) => x);
    expect(e3.code).toBe('engine_unreachable');
  });
});

test('speech audio extraction argv (golden): local file only, first audio stream, 16 kHz mono PCM WAV', () => {
  expect(speechAudioArgs('ffmpeg', '/d/src.mp4', '/w/speech.wav').join(' ')).toBe(
    'ffmpeg -nostdin -hide_banner -loglevel error -y -protocol_whitelist file -format_whitelist '
    + 'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mpegts,avi,flv,mxf,wav,mp3,aac,ogg,asf,mpeg,mpegvideo,m4v,h264,hevc,flac,dv,gif'
    + ' -probesize 50000000 -analyzeduration 20000000 -i /d/src.mp4 -map 0:a:0 -vn -sn -dn -ac 1 -ar 16000 -c:a pcm_s16le -f wav /w/speech.wav');
});

describe('engine choice', () => {
  test('Hebrew without a configured service ends with a clear no_engine reason; English falls back to pocketsphinx', () => {
    const local = asrEngines(asrSettingsFromEnv({}));
    expect(engineFor(local, 'en').name).toBe('pocketsphinx');
    let err: unknown;
    try { engineFor(local, 'he'); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(AsrError);
    expect((err as AsrError).code).toBe('no_engine');
    expect((err as AsrError).message).toContain('"he"');
    expect((err as AsrError).message).toContain('VS_ASR_URL');
    const withService = asrEngines(asrSettingsFromEnv({ VS_ASR_URL: 'http://gpu:8080', VS_ASR_MODEL: 'large-v3-turbo', VS_ASR_LANGUAGES: 'he,ar' }));
    expect(engineFor(withService, 'he').name).toBe('openai');
    expect(engineFor(withService, 'en').name).toBe('pocketsphinx');
    expect(() => engineFor(asrEngines({ pocketsphinx: false }), 'en')).toThrow(/configured: none/);
  });
});
