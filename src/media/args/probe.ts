import { sourceInput } from './input';

/** Pure: ffprobe argv that prints format and streams of a customer file as JSON. */
export function probeArgs(ffprobe: string, path: string): string[] {
  // -v error: errors only (they become the asset's `error`); JSON so parsing is exact.
  return [ffprobe, '-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams', ...sourceInput(path, { probesize: 20_000_000, analyzeS: 10 })];
}
