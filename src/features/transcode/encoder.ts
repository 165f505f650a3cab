import { availableParallelism } from 'node:os';
import { bestEncoder, detectEncoders, H264_ENCODERS, type H264Encoder } from '../../media/encoders';
import type { FfmpegTools } from '../../media/locate';

/** The encoder the transcode queue uses, how many transcodes run at once with it and at what CPU niceness. */
export interface EncoderChoice { encoder: H264Encoder; concurrency: number; detected: boolean; nice: number }

/** Default niceness of VOD encodes: below the server and live ingest, which stay at 0 (PeerTube runs VOD ffmpeg at 15). */
export const TRANSCODE_NICE = 10;

/** The niceness of VOD encodes: `VS_TRANSCODE_NICE` (0-19; 0 = the server's own priority) or TRANSCODE_NICE. */
export function transcodeNice(env: Record<string, string | undefined> = process.env): number {
  const v = env.VS_TRANSCODE_NICE?.trim();
  return v && /^\d+$/.test(v) ? Math.min(19, Number(v)) : TRANSCODE_NICE;
}

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
  const nice = transcodeNice(env);
  if (pinned && (H264_ENCODERS as readonly string[]).includes(pinned)) return { encoder: pinned, concurrency: transcodeConcurrency(pinned), detected: false, nice };
  const best = bestEncoder(await detectEncoders(tools, 10_000)) ?? 'libx264';
  return { encoder: best, concurrency: transcodeConcurrency(best), detected: true, nice };
}
