import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PREVIEW, previewRemuxArgs, remuxBlocker } from './args/preview';
import { MediaError } from './errors';
import type { MediaInfo } from './probe-parse';
import { readable } from './probe';
import { runTool } from './process';

export { PREVIEW, remuxBlocker } from './args/preview';

/**
 * Remuxes a browser-ready H.264/AAC source into a playable CMAF preview in `outDir` (emptied first): a master
 * playlist with one variant, the source's own streams, no re-encode. Resolves the preview's file names; throws a
 * MediaError when the source cannot be remuxed (the caller then waits for the ladder) or ffmpeg fails.
 */
export async function remuxPreview(o: { ffmpeg: string; source: string; outDir: string; info: MediaInfo; segmentS: number; signal?: AbortSignal }): Promise<string[]> {
  const why = remuxBlocker(o.info);
  if (why) throw new MediaError(`not remuxable for quick play: ${why}`, true);
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  // Stream copy reads and writes once; a minute of 1080p takes well under a second, so a short deadline suffices.
  const r = await runTool(previewRemuxArgs(o.ffmpeg, { source: o.source, outDir: o.outDir, audio: !!o.info.audio, segmentS: o.segmentS }),
    { signal: o.signal, stallMs: 0, timeoutMs: 5 * 60_000, stderrLines: 20 }).done;
  if (r.code !== 0) {
    rmSync(o.outDir, { recursive: true, force: true });
    throw new MediaError(r.aborted ? 'aborted' : `preview remux failed: ${readable(r.stderrTail)}`, !r.aborted);
  }
  return readdirSync(o.outDir).filter((f) => f === PREVIEW.master || f === PREVIEW.media || f === PREVIEW.init || /^preview_\d+\.m4s$/.test(f));
}

/** Directory of the quick-play preview inside an asset directory. */
export function previewDirIn(assetDir: string): string { return join(assetDir, 'preview'); }
