/**
 * An asset's audio waveform for the studio's cue editor (issue 43): peaks computed once by ffmpeg from the source's
 * first audio stream and kept beside the asset (`DATA/media/<tenant>/assets/<id>/waveform.json`); later asks read
 * that file. Asks for the same asset while it is being computed share the one run; at most two runs at a time.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { containedPath } from '../../kernel/fs/contain';
import { slotKey } from '../../kernel/slots';
import { WAVEFORM_RATE, waveformAudioArgs } from '../../media/args/waveform-audio';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { AssetService } from '../assets/service';
import { assetDir } from '../assets/paths';
import { peaksOfRawFile, samplesPerPixel, type Waveform } from './waveform-peaks';

/** Runs under way (by asset) and the queue of runs waiting for one of the two places. */
interface Runs { inflight: Map<string, Promise<string>>; running: number; waiting: (() => void)[] }
const RUNS = slotKey<Runs>('subtitles.waveform-runs');
const MAX_RUNS = 2;

/** File name of the cached peaks in the asset's directory. */
export const WAVEFORM_FILE = 'waveform.json';

/** The asset's waveform JSON text (audiowaveform format): from the cache file, else computed now and cached. */
export async function assetWaveform(ctx: AppContext, tenantId: string, assetId: string): Promise<string> {
  const a = new AssetService(ctx).get(tenantId, assetId);
  const dir = assetDir(ctx.config.dataDir, a.tenant_id, a.id);
  const file = join(dir, WAVEFORM_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const source = a.source_path ? containedPath(ctx.config.dataDir, a.source_path) : null;
  if (!source || !existsSync(source)) throw new AppError('conflict', 'the asset has no uploaded source to draw a waveform from yet');
  const runs = ctx.slots.get(RUNS, () => ({ inflight: new Map(), running: 0, waiting: [] }));
  let p = runs.inflight.get(a.id);
  if (!p) {
    p = queued(runs, () => compute(ctx, source, dir, file, a.duration_s)).finally(() => runs.inflight.delete(a.id));
    runs.inflight.set(a.id, p);
  }
  return p;
}

async function queued<T>(runs: Runs, fn: () => Promise<T>): Promise<T> {
  if (runs.running >= MAX_RUNS) await new Promise<void>((r) => runs.waiting.push(r));
  runs.running++;
  try { return await fn(); } finally { runs.running--; runs.waiting.shift()?.(); }
}

async function compute(ctx: AppContext, source: string, dir: string, file: string, durationS: number | null): Promise<string> {
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) throw new AppError('not_ready', 'ffmpeg not found');
  mkdirSync(dir, { recursive: true });
  const raw = join(dir, `.waveform-${process.pid}-${Date.now()}.raw`);
  try {
    // Niced like encodes: the editor waits a moment, delivery and live ingest never do.
    const x = await runTool(waveformAudioArgs(tools.ffmpeg, source, raw), { stallMs: 60_000, timeoutMs: 600_000, nice: 10 }).done;
    let w: Waveform;
    if (x.code === 0) w = peaksOfRawFile(raw, WAVEFORM_RATE, samplesPerPixel(WAVEFORM_RATE, durationS));
    else if (x.stderrTail.some((l) => /matches no streams|does not contain any stream|Output file .* does not contain/i.test(l))) {
      // No audio stream: an honest empty waveform (the editor shows "no audio"), kept like any other.
      w = { version: 2, channels: 1, sample_rate: WAVEFORM_RATE, samples_per_pixel: samplesPerPixel(WAVEFORM_RATE, durationS), bits: 8, length: 0, data: [] };
    } else throw new AppError('conflict', `the audio could not be read: ${x.stderrTail.slice(-2).join(' ').slice(0, 300) || `ffmpeg exited with ${x.code ?? x.signal}`}`);
    const text = JSON.stringify(w);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
    return text;
  } finally { rmSync(raw, { force: true }); }
}
