import { existsSync } from 'node:fs';

/** Paths of the ffmpeg tools in use. */
export interface FfmpegTools { ffmpeg: string; ffprobe: string }

/** Finds ffmpeg/ffprobe: explicit paths first, then PATH. Returns null when ffmpeg is missing. */
export function locateFfmpeg(explicit: { ffmpeg?: string | null; ffprobe?: string | null } = {}): FfmpegTools | null {
  const ffmpeg = explicit.ffmpeg && existsSync(explicit.ffmpeg) ? explicit.ffmpeg : Bun.which('ffmpeg');
  const ffprobe = explicit.ffprobe && existsSync(explicit.ffprobe) ? explicit.ffprobe : Bun.which('ffprobe');
  if (!ffmpeg || !ffprobe) return null;
  return { ffmpeg, ffprobe };
}

/** Runs a short tool command to completion with a deadline; output is captured, never shown. */
export async function runShort(argv: string[], timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn(argv, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}
