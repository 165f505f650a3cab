import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PREVIEW, previewEncodeArgs, previewRemuxArgs } from './args/preview';
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
    { signal: o.signal, stallMs: 0, timeoutMs: 5 * 60_000, stderrLines: 20, mallocTunables: true }).done;
  if (r.code !== 0) {
    rmSync(o.outDir, { recursive: true, force: true });
    throw new MediaError(r.aborted ? 'aborted' : `preview remux failed: ${readable(r.stderrTail)}`, !r.aborted);
  }
}

/** Directory of the quick-play preview inside an asset directory. */
export function previewDirIn(assetDir: string): string { return join(assetDir, 'preview'); }

/**
 * Encodes the quick first rendition of a source that cannot be remuxed into `outDir` (emptied first): one small
 * H.264/AAC variant in short segments, its EVENT playlist growing as it encodes. `onFirstSegment` runs once the
 * master and a first segment are written (the preview is playable); resolves when the whole source is encoded.
 */
export async function encodePreview(o: { ffmpeg: string; source: string; outDir: string; width: number; height: number; fps: number; segmentS: number; signal?: AbortSignal; onFirstSegment(): void }): Promise<void> {
  rmSync(o.outDir, { recursive: true, force: true });
  mkdirSync(o.outDir, { recursive: true });
  let first = false;
  const check = () => {
    if (first || !existsSync(join(o.outDir, PREVIEW.master))) return;
    try { if (!readFileSync(join(o.outDir, PREVIEW.media), 'utf8').includes('#EXTINF')) return; } catch { return; }
    first = true;
    o.onFirstSegment();
  };
  const watch = setInterval(check, 50);
  try {
    const r = await runTool(previewEncodeArgs(o.ffmpeg, o), { signal: o.signal, stallMs: 60_000, stderrLines: 20 }).done;
    if (r.code !== 0) throw new MediaError(r.aborted ? 'aborted' : `preview encode failed: ${readable(r.stderrTail)}`, !r.aborted);
    check();
  } finally { clearInterval(watch); }
}
