import { statSync } from 'node:fs';
import { probeArgs } from './args/probe';
import { probeMp4 } from './probe-mp4';
import { parseProbe, type MediaInfo } from './probe-parse';
import { runTool } from './process';

/**
 * Probes a local file under a deadline; resolves MediaInfo or `{error}` (bad media, not retryable). A plain H.264/AAC
 * MP4 is read in process (probe-mp4.ts, milliseconds); anything else, or with `fast: false`, runs ffprobe.
 */
export async function probeFile(ffprobe: string, path: string, o: { timeoutMs?: number; signal?: AbortSignal; maxBytes?: number; fast?: boolean; via?: (how: 'in-process' | 'ffprobe') => void } = {}): Promise<MediaInfo | { error: string }> {
  let size: number;
  try { size = statSync(path).size; } catch { return { error: 'source file is missing' }; }
  if (size === 0) return { error: 'source file is empty (0 bytes)' };
  if (o.maxBytes && size > o.maxBytes) return { error: `source file is larger than ${o.maxBytes} bytes` };
  if (o.fast !== false) {
    const fast = await probeMp4(path, size);
    if (fast) { o.via?.('in-process'); return fast; }
  }
  o.via?.('ffprobe');
  let out = '';
  const r = await runTool(probeArgs(ffprobe, path), { timeoutMs: o.timeoutMs ?? 30_000, signal: o.signal, onStdoutLine: (l) => { if (out.length < 4_000_000) out += l + '\n'; } }).done;
  if (r.aborted) throw new Error('aborted');
  if (r.timedOut) return { error: 'probe timed out' };
  if (r.code !== 0) return { error: `not a playable media file: ${readable(r.stderrTail)}` };
  return parseProbe(out);
}

/** Last meaningful stderr line, trimmed of ffmpeg's `[demuxer @ 0x...]` prefixes and paths. */
export function readable(lines: string[]): string {
  const l = [...lines].reverse().find((x) => x.trim()) ?? 'unknown error';
  return l.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/, '').replace(/\/[^\s:'"]+\//g, '').slice(0, 300);
}
