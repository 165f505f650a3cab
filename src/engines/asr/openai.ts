import { existsSync } from 'node:fs';
import { AsrError, baseLanguage, type AsrEngine, type AsrSegment, type AsrWord, type TranscribeRequest } from './types';
import { tidySegments } from './words';

/** Settings of an OpenAI-compatible transcription service (whisper.cpp's whisper-server, speaches, faster-whisper). */
export interface OpenAiAsrOptions {
  /** Base URL (`http://gpu-box:8080`, `.../v1`) or the full `.../v1/audio/transcriptions` address. */
  url: string;
  /** Model name sent as `model` (whisper-server ignores it; speaches selects by it). */
  model: string;
  /** Bearer key, when the service wants one. */
  apiKey?: string | null;
  /** Languages it is used for (BCP 47 primary subtags); empty or absent: every language. */
  languages?: string[];
  /** Deadline of one request (ms; default 30 min: a long programme on a slow box). */
  timeoutMs?: number;
  /** Largest answer read (bytes; default 64 MiB). */
  maxResponseBytes?: number;
}

/** The transcription endpoint for a configured URL. */
export function transcriptionsUrl(url: string): string {
  const u = url.replace(/\/+$/, '');
  if (/\/audio\/transcriptions$/.test(u)) return u;
  return /\/v1$/.test(u) ? `${u}/audio/transcriptions` : `${u}/v1/audio/transcriptions`;
}

/**
 * The multipart form of one request: the audio as `file`, `model`, `language` (always sent: Whisper's language
 * detection is weak for Hebrew), the glossary as `prompt`, `verbose_json` with word timestamps.
 */
export function transcriptionForm(audio: Blob, fileName: string, model: string, language: string, prompt?: string): FormData {
  const f = new FormData();
  f.append('file', audio, fileName);
  f.append('model', model);
  f.append('language', baseLanguage(language));
  if (prompt?.trim()) f.append('prompt', prompt.trim());
  f.append('response_format', 'verbose_json');
  f.append('timestamp_granularities[]', 'word');
  f.append('timestamp_granularities[]', 'segment');
  return f;
}

type Json = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

function wordsOf(list: unknown): { start: number; end: number; word: string }[] {
  if (!Array.isArray(list)) return [];
  const out: { start: number; end: number; word: string }[] = [];
  for (const w of list as Json[]) {
    const start = num(w?.start), end = num(w?.end);
    const word = typeof w?.word === 'string' ? w.word : typeof w?.text === 'string' ? w.text : null;
    if (start === null || end === null || word === null) continue;
    out.push({ start, end, word });
  }
  return out;
}

/**
 * Whole words from engine tokens. whisper.cpp marks a word's first token with a leading space and glues the rest
 * (sub-word pieces, punctuation) on; OpenAI and faster-whisper send whole words without one. When any token carries
 * a leading space, tokens without one join the word before.
 */
export function joinTokens(tokens: { start: number; end: number; word: string }[]): AsrWord[] {
  const spaced = tokens.some((t, i) => i > 0 && /^\s/.test(t.word));
  const out: AsrWord[] = [];
  for (const t of tokens) {
    const prev = out[out.length - 1];
    if (spaced && prev && !/^\s/.test(t.word)) {
      prev.text += t.word;
      prev.endMs = Math.max(prev.endMs, Math.round(t.end * 1000));
      continue;
    }
    out.push({ startMs: Math.round(t.start * 1000), endMs: Math.round(t.end * 1000), text: t.word });
  }
  return out.map((w) => ({ ...w, text: w.text.trim() })).filter((w) => w.text && !/^\[.*\]$/.test(w.text));
}

/**
 * Segments from a `verbose_json` answer: each segment's own `words` (whisper.cpp), else the top-level `words`
 * (OpenAI, speaches) given to the segment holding their midpoint; no segments: one from the words or the text.
 */
export function parseVerboseJson(body: unknown): AsrSegment[] {
  if (!body || typeof body !== 'object') throw new AsrError('bad_response', 'the engine answered no JSON object', false);
  const b = body as Json;
  const segs = Array.isArray(b.segments) ? (b.segments as Json[]) : [];
  const top = joinTokens(wordsOf(b.words));
  const out: AsrSegment[] = [];
  for (const s of segs) {
    const start = num(s?.start), end = num(s?.end);
    if (start === null || end === null) continue;
    out.push({ startMs: Math.round(start * 1000), endMs: Math.round(end * 1000), text: typeof s.text === 'string' ? s.text : '', words: joinTokens(wordsOf(s.words)) });
  }
  // Segment-level words win (whisper.cpp); otherwise the top-level list is shared out by midpoint.
  if (top.length && !out.some((s) => s.words.length)) {
    if (!out.length) out.push({ startMs: top[0]!.startMs, endMs: top[top.length - 1]!.endMs, text: '', words: [] });
    for (const w of top) (out.find((s) => (w.startMs + w.endMs) / 2 < s.endMs) ?? out[out.length - 1]!).words.push(w);
  }
  if (!out.length && typeof b.text === 'string' && b.text.trim()) {
    const d = num(b.duration) ?? 0;
    out.push({ startMs: 0, endMs: Math.round(d * 1000), text: b.text, words: [] });
  }
  for (const s of out) s.words.sort((x, y) => x.startMs - y.startMs);
  return tidySegments(out);
}

/** Engine 1: any OpenAI-compatible `POST /v1/audio/transcriptions` service, run as its own process elsewhere. */
export function openAiAsrEngine(o: OpenAiAsrOptions): AsrEngine {
  const endpoint = transcriptionsUrl(o.url);
  const langs = (o.languages ?? []).map(baseLanguage).filter(Boolean);
  return {
    name: 'openai',
    compute: 'remote',
    supports: (language) => !langs.length || langs.includes(baseLanguage(language)),
    async transcribe(req: TranscribeRequest): Promise<AsrSegment[]> {
      if (!existsSync(req.wavPath)) throw new AsrError('bad_audio', `no audio file at ${req.wavPath}`, true);
      const form = transcriptionForm(Bun.file(req.wavPath, { type: 'audio/wav' }), 'audio.wav', o.model, req.language, req.prompt);
      const deadline = AbortSignal.timeout(o.timeoutMs ?? 30 * 60_000);
      const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
      let res: Response;
      try {
        res = await fetch(endpoint, { method: 'POST', body: form, signal, headers: o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {} });
      } catch (e) {
        if (req.signal?.aborted) throw new AsrError('aborted', 'recognition was cancelled', false);
        throw new AsrError('engine_unreachable', `speech service at ${endpoint} did not answer: ${(e as Error).message}`, false);
      }
      const max = o.maxResponseBytes ?? 64 * 1024 * 1024;
      if (Number(res.headers.get('content-length') ?? 0) > max) throw new AsrError('bad_response', `speech service answer is larger than ${max} bytes`, false);
      const text = await res.text();
      if (text.length > max) throw new AsrError('bad_response', `speech service answer is larger than ${max} bytes`, false);
      if (!res.ok) throw new AsrError('engine_failed', `speech service answered ${res.status}: ${text.slice(0, 300)}`, res.status >= 400 && res.status < 500 && res.status !== 429);
      let body: unknown;
      try { body = JSON.parse(text); } catch { throw new AsrError('bad_response', 'speech service answered something other than JSON (is response_format=verbose_json supported?)', false); }
      return parseVerboseJson(body);
    },
  };
}
