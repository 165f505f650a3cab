/**
 * What a worker machine does for each job kind (issue 49): inputs from the media store into its scratch directory,
 * the same media code the single box runs, outputs back into the store; the result (metadata) goes back to the
 * control node, which alone writes it. Every task stops on `signal` (its ffmpeg is killed).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { MediaStore } from '../../kernel/media-store';
import { PermanentJobError } from '../../jobs/errors';
import type { FfmpegTools } from '../../media/locate';
import { posterArgs } from '../../media/args/images';
import { speechAudioArgs } from '../../media/args/speech-audio';
import { runTool } from '../../media/process';
import { transcode } from '../../media/transcode';
import { AsrError, type AsrEngine } from '../../engines/asr/types';
import { engineFor } from '../../engines/asr/select';
import type { EncoderChoice } from '../transcode/encoder';
import { posterTries } from '../assets/poster';
import { cutPieces } from '../clips/cut-rendition';
import { draftWithEngine } from '../articles/engines';
import type { Config } from '../../kernel/config/schema';
import type { ArticleJobMsg, ArticleOutput, ClipJobMsg, ClipOutput, ImageJobMsg, ImageOutput, SubtitleJobMsg, SubtitleOutput, TranscodeJobMsg, TranscodeOutput } from './protocol';

/** What a task runs with: tools, the store, its own scratch directory, the stop signal and a progress reporter. */
export interface TaskEnv {
  tools: FfmpegTools; choice: EncoderChoice; asr: AsrEngine[]; store: MediaStore; dir: string; signal: AbortSignal;
  progress(pct: number, eta: number | null): void;
  /** This machine's article settings (its own chat endpoint, if any); absent: the extractive engine only. */
  articles?: Config['articles'];
}

/** A source object copied into scratch; a missing one is a permanent failure (nothing to retry). */
async function fetchInput(env: TaskEnv, key: string, name: string): Promise<string> {
  const p = join(env.dir, name);
  if (!(await env.store.getFile(key, p))) throw new PermanentJobError(`${key} missing from the media store`);
  return p;
}

/** Every file under a directory (recursively). */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

/** Uploads a directory's files under `prefix`; answers their relative names. */
async function putAll(env: TaskEnv, dir: string, prefix: string): Promise<string[]> {
  const names: string[] = [];
  for (const f of filesUnder(dir)) {
    const rel = relative(dir, f).split('\\').join('/');
    await env.store.putFile(`${prefix}${rel}`, f);
    names.push(rel);
  }
  return names;
}

/** Ladder transcode and packaging (the single box's `media/transcode`). */
export async function runTranscode(env: TaskEnv, job: TranscodeJobMsg): Promise<TranscodeOutput> {
  const work = join(env.dir, 'out');
  mkdirSync(work, { recursive: true });
  const src = await fetchInput(env, job.sourceKey, 'source');
  const res = await transcode({
    tools: env.tools, source: src, workDir: work, info: job.info, plan: job.plan, encoder: env.choice.encoder, signal: env.signal, nice: env.choice.nice,
    onProgress: (pct, eta) => env.progress(2 + pct * 0.9, eta),
  });
  await putAll(env, work, job.outPrefix);
  return {
    encoder: res.encoder, fallbackFrom: res.fallbackFrom, audio: res.audio, files: res.files, thumb: res.thumb,
    renditions: res.renditions.map((r) => ({ name: r.name, width: r.width, height: r.height, video_k: r.video_k })),
  };
}

/** A poster frame (JPEG + WebP) drawn from the asset's progressive rendition. */
export async function runImage(env: TaskEnv, job: ImageJobMsg): Promise<ImageOutput> {
  const src = await fetchInput(env, job.sourceKey, 'source.mp4');
  const out = join(env.dir, 'poster');
  for (const at of posterTries(job.atS)) {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const r = await runTool(posterArgs(env.tools.ffmpeg, src, at, out, job.width, job.upscale ?? undefined), { stallMs: 0, timeoutMs: 60_000, stderrLines: 10, signal: env.signal }).done;
    if (env.signal.aborted) throw env.signal.reason;
    if (r.code !== 0) throw new PermanentJobError(`the frame could not be drawn: ${r.stderrTail.join(' ').slice(0, 300)}`);
    if (existsSync(join(out, 'poster.jpg')) && existsSync(join(out, 'poster.webp'))) {
      await env.store.putFile(`${job.outKey}.jpg`, join(out, 'poster.jpg'));
      await env.store.putFile(`${job.outKey}.webp`, join(out, 'poster.webp'));
      return { jpg: `${job.outKey}.jpg`, webp: `${job.outKey}.webp` };
    }
  }
  throw new PermanentJobError('no frame at this time');
}

/** Speech recognition of the source's first audio stream with this machine's engine for the language. */
export async function runSubtitle(env: TaskEnv, job: SubtitleJobMsg): Promise<SubtitleOutput> {
  let engine: AsrEngine;
  try { engine = engineFor(env.asr, job.language, job.prefer); } catch (e) { throw e instanceof AsrError ? new PermanentJobError(e.message) : e; }
  const src = await fetchInput(env, job.sourceKey, 'source');
  const wav = join(env.dir, 'speech.wav');
  const x = await runTool(speechAudioArgs(env.tools.ffmpeg, src, wav), { stallMs: 60_000, stderrIsProgress: true, nice: 10, batch: true, ioNice: 7, signal: env.signal }).done;
  if (env.signal.aborted) throw env.signal.reason;
  if (x.code !== 0) throw new PermanentJobError(`no audio could be extracted: ${x.stderrTail.slice(-2).join(' ').slice(0, 300) || `ffmpeg exited with ${x.code ?? x.signal}`}`);
  env.progress(10, null);
  try {
    const segments = await engine.transcribe({ wavPath: wav, language: job.language, prompt: job.prompt ?? undefined, signal: env.signal });
    return { engine: engine.name, compute: engine.compute, segments };
  } catch (e) {
    if (e instanceof AsrError && e.permanent) throw new PermanentJobError(e.message);
    throw e;
  }
}

/** A frame-exact clip cut over the pieces' init and media segments; the clip's files go under the job's prefix. */
export async function runClip(env: TaskEnv, job: ClipJobMsg): Promise<ClipOutput> {
  const inputs = join(env.dir, 'in');
  const clip = join(env.dir, 'clip');
  const work = join(env.dir, 'work');
  const got = new Map<string, string>();
  const local = async (key: string) => {
    let p = got.get(key);
    if (!p) { p = await fetchInput(env, key, join('in', String(got.size))); got.set(key, p); }
    return p;
  };
  mkdirSync(inputs, { recursive: true });
  const variants: ClipOutput['variants'] = [];
  let done = 0;
  for (const r of job.renditions) {
    const paths = new Map<number, { init: string; seg: string }>();
    for (let i = 0; i < r.pieces.length; i++) paths.set(i, { init: await local(r.pieces[i]!.initKey), seg: await local(r.pieces[i]!.segKey) });
    const index = new Map(r.pieces.map((p, i) => [p, i]));
    const at = (p: object) => paths.get(index.get(p as ClipJobMsg['renditions'][number]['pieces'][number])!)!;
    const v = await cutPieces(env.tools, r.name, r.pieces, { init: (p) => readFileSync(at(p).init), seg: (p) => readFileSync(at(p).seg) }, join(clip, r.name), work, env.signal);
    variants.push({ name: r.name, bandwidth: v.bandwidth, codecs: v.codecs });
    env.progress((++done / job.renditions.length) * 90, null);
  }
  rmSync(work, { recursive: true, force: true });
  return { files: await putAll(env, clip, job.outPrefix), variants };
}

/** No chat endpoint: what a worker without article settings drafts with (the extractive engine needs none). */
const NO_CHAT: Config['articles'] = { engine: 'extractive', llmUrl: null, llmModel: 'default', llmApiKey: null };

/** An article draft with the engine the job names, this machine's settings (the single box's engine code). */
export async function runArticle(env: TaskEnv, job: ArticleJobMsg): Promise<ArticleOutput> {
  env.progress(5, null);
  const out = await draftWithEngine(env.articles ?? NO_CHAT, job.engine, job.input, { signal: env.signal, progress: (pct) => env.progress(5 + Math.round(pct * 0.9), null) });
  if (env.signal.aborted) throw env.signal.reason;
  return out;
}
