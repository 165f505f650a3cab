import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { previewRemuxArgs } from './args/preview';
import { MediaError } from './errors';
import { readable } from './probe';
import { runTool } from './process';

export { PREVIEW, remuxBlocker } from './args/preview';

/**
 * Remuxes a source into a playable CMAF preview in `outDir` (emptied first): a master playlist with one variant,
 * the source's own streams, no re-encode. It needs no probe (run it beside the probe and keep the output only when
 * `remuxBlocker` finds nothing against the source). Resolves when written; throws a MediaError when ffmpeg fails.
 */
export async function remuxPreview(o: { ffmpeg: string; source: string; outDir: string; segmentS: number; signal?: AbortSignal }): Promise<void> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  // Stream copy reads and writes once; a minute of 1080p takes well under a second, so a short deadline suffices.
  const r = await runTool(previewRemuxArgs(o.ffmpeg, { source: o.source, outDir: o.outDir, segmentS: o.segmentS }),
    { signal: o.signal, stallMs: 0, timeoutMs: 5 * 60_000, stderrLines: 20 }).done;
  if (r.code !== 0) {
    rmSync(o.outDir, { recursive: true, force: true });
    throw new MediaError(r.aborted ? 'aborted' : `preview remux failed: ${readable(r.stderrTail)}`, !r.aborted);
  }
}

/** Directory of the quick-play preview inside an asset directory. */
export function previewDirIn(assetDir: string): string { return join(assetDir, 'preview'); }
