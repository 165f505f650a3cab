import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { slotKey } from '../../kernel/slots';
import { locateFfmpeg } from '../../media/locate';
import { runTool } from '../../media/process';
import { siteImageArgs } from '../../media/args/site-image';
import { parseAssetOutput } from '../assets/output';
import { IMAGE_SIZES, type Scope } from './items';
import { parse } from './service';

/** Podcast artwork: square JPEG inside Apple's 1400-3000 px. */
export const PODCAST_ART = 1400;
const RUNNING = slotKey<Map<string, Promise<string>>>('sites.images');

/** True when the asset's poster may be shown by this site: a public video, or the image of a published show or person. */
function allowed(s: Scope, assetId: string): boolean {
  if (s.cat.videoById.has(assetId)) return true;
  return [...s.store.items(s.site.id, 'show'), ...s.store.items(s.site.id, 'person')].some((r) => {
    const d = parse<{ published?: boolean; image_asset_id?: string }>(r.data);
    return d.published && d.image_asset_id === assetId;
  });
}

/**
 * The file of one image of an asset's poster: `<size>.webp` (the seed's sizes) or `podcast.jpg` (1400 px square).
 * Made once by ffmpeg per source version and kept under DATA/cache/sites-images; concurrent asks share one run.
 */
export async function imageFile(s: Scope, assetId: string, file: string): Promise<{ path: string; type: string }> {
  const m = /^([a-z0-9_]+)\.(webp|jpg)$/.exec(file);
  const size = m && (m[2] === 'webp' ? IMAGE_SIZES[m[1]!] : m[1] === 'podcast' ? [PODCAST_ART, PODCAST_ART] as [number, number] : undefined);
  if (!m || !size || !/^[0-9a-f-]{36}$/.test(assetId) || !allowed(s, assetId)) throw notFound('image');
  const row = s.ctx.db.query<{ output: string | null }, [string, string]>("SELECT output FROM assets WHERE id = ? AND tenant_id = ? AND status = 'ready'").get(assetId, s.site.tenant_id);
  const out = parseAssetOutput(row?.output ?? null);
  const poster = out?.files.poster ? join(s.ctx.config.dataDir, out.dir, out.files.poster) : null;
  if (!out || !poster || !existsSync(poster)) throw notFound('image');
  const dir = join(s.ctx.config.dataDir, 'cache', 'sites-images', `${assetId}-v${out.version}`);
  const path = join(dir, file);
  const type = m[2] === 'webp' ? 'image/webp' : 'image/jpeg';
  if (existsSync(path)) return { path, type };
  const running = s.ctx.slots.get(RUNNING, () => new Map<string, Promise<string>>());
  let job = running.get(path);
  if (!job) {
    job = (async () => {
      const tools = locateFfmpeg({ ffmpeg: s.ctx.config.ffmpegPath, ffprobe: s.ctx.config.ffprobePath });
      if (!tools) throw new AppError('not_ready', 'ffmpeg is not available');
      mkdirSync(dir, { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      const r = await runTool(siteImageArgs(tools.ffmpeg, poster, tmp, size[0], size[1], m[2] === 'webp' ? 'webp' : 'jpeg'), { timeoutMs: 30_000 }).done;
      if (r.code !== 0) throw new AppError('internal_error', `image could not be made: ${r.stderrTail.join(' ').slice(0, 200)}`);
      renameSync(tmp, path);
      return path;
    })().finally(() => running.delete(path));
    running.set(path, job);
  }
  await job;
  return { path, type };
}
