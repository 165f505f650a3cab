import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { ff, registerAsset } from './transcode-helpers';
import { parseWebVtt } from '../../src/text/webvtt';
import { searchTokens } from '../../src/text/hebrew-search';

// Issue 43, opt-in: the word error rate of a Hebrew clip recognised by a real speech service through the whole
// pipeline (asset, recognition job, cues, WebVTT). Runs when VS_ASR_URL points at an OpenAI-compatible
// transcription server (whisper.cpp `whisper-server --inference-path /v1/audio/transcriptions` with ivrit-ai's
// Hebrew large-v3-turbo, or speaches); then VS_WER_AUDIO (a Hebrew recording ffmpeg reads) and VS_WER_REFERENCE
// (its transcript, a UTF-8 text file) are required, VS_WER_MAX (default 0.25) is the highest WER that passes.
// Words are compared in the search form (niqqud, punctuation and final-letter differences do not count).

/** Word error rate: (substitutions + deletions + insertions) / reference words, by word-level edit distance. */
function wer(reference: string[], hypothesis: string[]): number {
  if (!reference.length) return hypothesis.length ? 1 : 0;
  let prev = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[hypothesis.length]! / reference.length;
}

test('wer: edit distance over reference words, Hebrew compared in search form', () => {
  expect(wer(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(0);
  expect(wer(['a', 'b', 'c', 'd'], ['a', 'x', 'c'])).toBe(0.5); // one substitution, one deletion
  expect(wer(['a'], ['a', 'b', 'c'])).toBe(2);
  expect(wer(searchTokens('שָׁלוֹם, עוֹלָם!'), searchTokens('שלום עולם'))).toBe(0);
});

const url = process.env.VS_ASR_URL;
let s: TestServer;

beforeAll(async () => { if (url) s = await startTestServer({ env: { VS_ASR_URL: url } }); });
afterAll(async () => { await s?.stop(); });

test.skipIf(!url)('Hebrew word error rate of a clip through a real speech service (VS_ASR_URL)', async () => {
  const audio = process.env.VS_WER_AUDIO, refFile = process.env.VS_WER_REFERENCE;
  if (!audio || !refFile) throw new Error('VS_ASR_URL is set: also set VS_WER_AUDIO (a Hebrew recording) and VS_WER_REFERENCE (its transcript file)');
  const src = join(s.dataDir, 'clip.mp4');
  await ff(['-f', 'lavfi', '-i', 'color=c=black:size=320x240:rate=10', '-i', audio, '-map', '0:v', '-map', '1:a', '-shortest',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', src]);
  const asset = registerAsset(s.ctx, src);
  const t0 = performance.now();
  const created = await (await s.api('POST', `/v1/assets/${asset}/subtitles`, { language: 'he' })).json() as { id: string; job_id: string };
  const track = (await waitFor('recognised', async () => {
    const t = await (await s.api('GET', `/v1/assets/${asset}/subtitles/${created.id}`)).json() as { status: string; error: string | null; engine: string };
    return t.status === 'ready' || t.status === 'failed' ? t : null;
  }, 30 * 60_000, 500))!;
  expect([track.status, track.error, track.engine]).toEqual(['ready', null, 'openai']);
  const wallS = (performance.now() - t0) / 1000;
  const cues = parseWebVtt(await (await s.api('GET', `/v1/assets/${asset}/subtitles/${created.id}.vtt`)).text());
  const hyp = searchTokens(cues.map((c) => c.text).join(' '));
  const ref = searchTokens(readFileSync(refFile, 'utf8'));
  const rate = wer(ref, hyp);
  const job = await (await s.api('GET', `/v1/jobs/${created.job_id}`)).json() as { result: { audio_s?: number; recognition_s?: number; compute?: string } };
  console.log(`Hebrew WER ${rate.toFixed(3)} (${ref.length} reference words, ${hyp.length} recognised, ${cues.length} cues); recognition ${job.result.recognition_s} s for ${job.result.audio_s} s of audio (${job.result.compute}); ${wallS.toFixed(1)} s end to end`);
  expect(rate).toBeLessThanOrEqual(Number(process.env.VS_WER_MAX ?? '0.25'));
}, 31 * 60_000);
