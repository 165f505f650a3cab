import { availableParallelism } from 'node:os';
import { bestEncoder, detectEncoders, H264_ENCODERS, type H264Encoder } from '../../media/encoders';
import type { FfmpegTools } from '../../media/locate';

/** The encoder the transcode queue uses and how many transcodes run at once with it. */
export interface EncoderChoice { encoder: H264Encoder; concurrency: number; detected: boolean }

/** Parallel transcodes per encoder: NVENC sessions are cheap, VAAPI/QSV share one engine, x264 wants ~4 cores each. */
export function transcodeConcurrency(e: H264Encoder, cores = availableParallelism()): number {
  if (e === 'h264_nvenc') return 3;
  if (e === 'h264_vaapi' || e === 'h264_qsv') return 2;
  return Math.max(1, Math.floor(cores / 4));
}

/**
 * Chooses the encoder once at start: `VS_TRANSCODE_ENCODER` (tests, benchmarks, operators pinning one) when it
 * names a known encoder, else the best one a trial encode proves usable (as `doctor` does), else libx264.
 */
export async function chooseEncoder(tools: FfmpegTools, env: Record<string, string | undefined> = process.env): Promise<EncoderChoice> {
  const pinned = env.VS_TRANSCODE_ENCODER as H264Encoder | undefined;
  if (pinned && (H264_ENCODERS as readonly string[]).includes(pinned)) return { encoder: pinned, concurrency: transcodeConcurrency(pinned), detected: false };
  const best = bestEncoder(await detectEncoders(tools, 10_000)) ?? 'libx264';
  return { encoder: best, concurrency: transcodeConcurrency(best), detected: true };
}
