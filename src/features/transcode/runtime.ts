import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { locateFfmpeg, type FfmpegTools } from '../../media/locate';
import { chooseEncoder, type EncoderChoice } from './encoder';

/**
 * Media tools and encoder chosen once at worker start, handed to the media job handlers; `fastProbe` (config
 * `fast_probe`, `VS_FAST_PROBE`): plain H.264/AAC MP4s are probed in process (media/probe-mp4.ts), not by ffprobe.
 */
export interface MediaRuntime { tools: FfmpegTools; choice: EncoderChoice; fastProbe: boolean }

/**
 * Locates ffmpeg/ffprobe (configured paths first, `VS_FFMPEG`/`VS_FFPROBE`) and picks the encoder once; null
 * when ffmpeg is missing (media jobs then fail transiently and retry).
 */
export async function startMediaRuntime(ctx: AppContext): Promise<MediaRuntime | null> {
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) {
    ctx.log.warn('ffmpeg not found: media jobs will wait and retry (apt-get install ffmpeg)');
    return null;
  }
  const choice = await chooseEncoder(tools);
  const fastProbe = ctx.config.fastProbe;
  ctx.log.info('transcode encoder', { encoder: choice.encoder, concurrency: choice.concurrency, detected: choice.detected, nice: choice.nice, fast_probe: fastProbe });
  return { tools, choice, fastProbe };
}

/** The runtime a media job needs; throws a transient error (the job retries) when ffmpeg was not found at start. */
export function requireRuntime(rt: MediaRuntime | null): MediaRuntime {
  if (!rt) throw new Error('media runtime not started: ffmpeg was not found at start');
  return rt;
}

/** Directory of an asset's media, relative to the data dir. */
export function assetRelDir(tenantId: string, assetId: string): string {
  return join('media', tenantId, 'assets', assetId);
}
