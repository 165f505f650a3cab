import { runShort, type FfmpegTools } from './locate';

/** H.264 encoders in order of preference. */
export const H264_ENCODERS = ['h264_nvenc', 'h264_vaapi', 'h264_qsv', 'libx264'] as const;
/** An H.264 encoder name. */
export type H264Encoder = (typeof H264_ENCODERS)[number];

/** Pure: ffmpeg argv that encodes one black frame with `enc` to the null muxer (the usability trial). */
export function trialArgs(enc: H264Encoder, vaapiDevice = '/dev/dri/renderD128'): string[] {
  // -nostdin: never read the terminal; lavfi color source: no input file needed; -frames:v 1: one frame is enough
  // to prove the encoder opens a session on this machine (a name in `-encoders` proves nothing).
  const head = ['-nostdin', '-hide_banner', '-loglevel', 'error'];
  const src = ['-f', 'lavfi', '-i', 'color=c=black:s=256x144:r=25:d=1'];
  const tail = ['-frames:v', '1', '-f', 'null', '-'];
  switch (enc) {
    case 'h264_vaapi':
      // VAAPI takes frames in GPU memory: upload them as nv12 to the render node.
      return [...head, '-vaapi_device', vaapiDevice, ...src, '-vf', 'format=nv12,hwupload', '-c:v', enc, ...tail];
    case 'h264_qsv':
      // QSV needs an initialised device and frames uploaded to it.
      return [...head, '-init_hw_device', 'qsv=hw', '-filter_hw_device', 'hw', ...src, '-vf', 'hwupload=extra_hw_frames=16,format=qsv', '-c:v', enc, ...tail];
    default:
      return [...head, ...src, '-c:v', enc, ...tail];
  }
}

/** Result of probing one encoder. */
export interface EncoderCheck { encoder: H264Encoder; usable: boolean; detail: string }

/** Tries every H.264 encoder with a one-frame encode; the first usable one in preference order is the choice. */
export async function detectEncoders(tools: FfmpegTools, timeoutMs = 15_000): Promise<EncoderCheck[]> {
  const out: EncoderCheck[] = [];
  for (const enc of H264_ENCODERS) {
    const r = await runShort([tools.ffmpeg, ...trialArgs(enc)], timeoutMs).catch((e) => ({ code: -1, stdout: '', stderr: String(e) }));
    out.push({ encoder: enc, usable: r.code === 0, detail: r.code === 0 ? 'ok' : (r.stderr.trim().split('\n').pop() ?? `exit ${r.code}`).slice(0, 200) });
  }
  return out;
}

/** The preferred usable encoder, or null. */
export function bestEncoder(checks: EncoderCheck[]): H264Encoder | null {
  return checks.find((c) => c.usable)?.encoder ?? null;
}

/** ffmpeg version line and whether its build has the SRT protocol. */
export async function ffmpegFacts(tools: FfmpegTools): Promise<{ version: string; srt: boolean }> {
  const v = await runShort([tools.ffmpeg, '-hide_banner', '-version'], 10_000);
  const p = await runShort([tools.ffmpeg, '-hide_banner', '-protocols'], 10_000);
  return { version: v.stdout.split('\n')[0] ?? 'unknown', srt: /^\s*srt\s*$/m.test(p.stdout) };
}
