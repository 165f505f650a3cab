/**
 * The poster of a ready asset, picked by time: one frame of the asset's own progressive rendition (`download.mp4`,
 * remuxed from the top rung) is drawn by ffmpeg into a temporary folder, then moved into the versioned output under
 * a new name (`poster-<id>.jpg` / `.webp`), so delivery keeps serving images as immutable and caches see a new URL.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { containedPath } from '../../kernel/fs/contain';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { posterArgs } from '../../media/args/images';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { tenantAsset } from './lifecycle';
import { parseAssetOutput, type AssetOutput } from './output';
import { savePosterOutput } from './poster-store';
import { AssetService, type AssetRow } from './service';
import { upscaleTarget, type PosterInfo } from './poster-upscale';
import { posterDrawerOf, setPosterRemote } from './poster-remote';

const CUSTOM = /^poster-[a-z0-9]{1,40}\.(jpg|webp)$/;

/** Seek times to try: the asked one, then a second earlier, then the start (a seek into the last frame's span can yield nothing). */
export function posterTries(timeS: number): number[] {
  return [...new Set([timeS, Math.max(0, timeS - 1), 0].map((s) => Math.round(s * 1000) / 1000))];
}

/** Draws the frame at `timeS` of `input` into `dir` (poster.jpg + poster.webp); false when no frame came out. */
async function draw(ffmpeg: string, input: string, timeS: number, dir: string, width: number, upscale: { w: number; h: number } | null): Promise<boolean> {
  for (const at of posterTries(timeS)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    // posterArgs: fast input seek to `at` on our own MP4 (file protocol and mp4 demuxers only), one decoded frame
    // scaled to `width`, written once as JPEG (-q:v 3) and once as WebP (libwebp quality 80).
    const r = await runTool(posterArgs(ffmpeg, input, at, dir, width, upscale ?? undefined), { stallMs: 0, timeoutMs: 60_000, stderrLines: 10 }).done;
    if (r.code !== 0) throw new AppError('internal_error', `the frame could not be drawn: ${r.stderrTail.join(' ').slice(0, 300)}`);
    if (existsSync(join(dir, 'poster.jpg')) && existsSync(join(dir, 'poster.webp'))) return true;
  }
  return false;
}

/** PUT /v1/assets/{id}/poster: the frame at `timeS` becomes the asset's poster; answers the asset row. */
export async function setPosterAt(ctx: AppContext, tenantId: string, id: string, timeS: number): Promise<AssetRow> {
  const a = isUuid(id) ? tenantAsset(ctx.db, tenantId, id) : null;
  if (!a) throw notFound('asset');
  if (a.status !== 'ready') throw new AppError('conflict', `asset is ${a.status}, not ready; its poster can be chosen once it is ready`);
  const out = parseAssetOutput(a.output);
  if (!out) throw new AppError('conflict', 'the asset has no finished output');
  const dur = a.duration_s ?? 0;
  if (timeS > dur) throw invalid('time_s', `must be within the asset's duration (0-${dur.toFixed(3)} s)`);
  const width = Math.min(out.renditions[0]?.width ?? 1280, 1280) & ~1;
  // The frame comes from the top rendition: smaller than the largest site image, it is upscaled (and flagged).
  const top = out.renditions[0];
  const upscale = top ? upscaleTarget(top.width, top.height) : null;
  const info: PosterInfo | null = top ? {
    width: upscale?.w ?? width, height: upscale?.h ?? Math.round((width * top.height) / top.width / 2) * 2, upscaled: !!upscale,
    source_width: top.width, source_height: top.height,
  } : null;
  // With a job cluster the frame is drawn on a worker machine, from and into the media store.
  const remote = posterDrawerOf(ctx).draw;
  if (remote) {
    await setPosterRemote(ctx, a, out, { atS: timeS, width, upscale, info }, remote, CUSTOM);
    return new AssetService(ctx).get(tenantId, id);
  }
  const dir = containedPath(ctx.config.dataDir, out.dir);
  const source = dir && out.files.download ? containedPath(dir, out.files.download) : null;
  if (!dir || !source || !existsSync(source)) throw new AppError('conflict', 'the asset has no rendition to draw a frame from; re-encode it');
  const tools = locateFfmpeg({ ffmpeg: ctx.config.ffmpegPath, ffprobe: ctx.config.ffprobePath });
  if (!tools) throw new AppError('feature_disabled', 'ffmpeg is not available on this server');
  const tmp = join(dir, `.poster-${newId()}`);
  try {
    if (!(await draw(tools.ffmpeg, source, timeS, tmp, width, upscale))) throw invalid('time_s', 'no frame at this time');
    // From here on everything is synchronous: the files move and the row changes with no other request in between.
    const name = `poster-${newId().replace(/-/g, '').slice(-16)}`;
    renameSync(join(tmp, 'poster.jpg'), join(dir, `${name}.jpg`));
    renameSync(join(tmp, 'poster.webp'), join(dir, `${name}.webp`));
    const next: AssetOutput & { poster_info?: PosterInfo } = { ...out, files: { ...out.files, poster: `${name}.jpg`, poster_webp: `${name}.webp` }, ...(info ? { poster_info: info } : {}) };
    if (!savePosterOutput(ctx.db, a.id, next, ctx.clock.now())) {
      rmSync(join(dir, `${name}.jpg`), { force: true }); rmSync(join(dir, `${name}.webp`), { force: true });
      throw new AppError('conflict', 'the asset changed while its poster was drawn (re-encode or trash); try again');
    }
    // Earlier chosen posters go; the encode's own poster.jpg stays (a re-encode starts from it again).
    for (const f of readdirSync(dir)) if (CUSTOM.test(f) && !f.startsWith(`${name}.`)) rmSync(join(dir, f), { force: true });
  } finally { rmSync(tmp, { recursive: true, force: true }); }
  return new AssetService(ctx).get(tenantId, id);
}
