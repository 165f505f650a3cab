import type { AppContext } from '../kernel/context';
import { locateFfmpeg } from '../media/locate';
import { chooseEncoder } from '../features/transcode/encoder';
import { setMediaRuntime } from '../features/transcode/runtime';
import { allJobHandlers, onJobFinalFailure } from './handlers';
import { JobQueue } from './queue';

let running: JobQueue | null = null;

/** The running queue of this process (null before start); `wake()` it after enqueueing to skip the poll delay. */
export function jobQueue(): JobQueue | null { return running; }

/** Starts the job queue: picks the encoder once, sets per-type concurrency, stops with the app. */
export async function startJobQueue(ctx: AppContext): Promise<JobQueue> {
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  const concurrency: Record<string, number> = { 'asset.process': 2 };
  if (tools) {
    const choice = await chooseEncoder(tools);
    setMediaRuntime({ tools, choice });
    concurrency['asset.encode'] = choice.concurrency;
    ctx.log.info('transcode encoder', { encoder: choice.encoder, concurrency: choice.concurrency, detected: choice.detected });
  } else {
    ctx.log.warn('ffmpeg not found: media jobs will wait and retry (apt-get install ffmpeg)');
  }
  const q = new JobQueue(ctx, { handlers: allJobHandlers(), concurrency, defaultConcurrency: 4, onFinalFailure: onJobFinalFailure });
  q.start();
  running = q;
  ctx.onStop(async () => { await q.stop(); if (running === q) running = null; });
  return q;
}
