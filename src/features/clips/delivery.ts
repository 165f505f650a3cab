import { Elysia } from 'elysia';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { containedAbs, containedPath } from '../../kernel/fs/contain';
import { channelById } from '../channels/service';
import { serveFile, serveText } from '../media-delivery/serve-file';
import { fileResponse, type RangeSource } from '../catchup/source';
import { rangeSubtitles } from '../catchup/range-subs';
import { RANGE_SUBS, RANGE_VTT, rangeMasterWithSubs, rangeSubtitleLanguages, rangeVttSegment } from '../subtitles/hls-range';
import type { Gate, Guarded } from '../playback/gate';
import { ClipService } from './service';
import { clipPrefix } from './final-files';
import { checkKey } from '../../kernel/media-store/types';
import { storedMedia } from '../media-delivery/serve-stored';
import type { ClipRow } from './store';

/**
 * Clip delivery behind the gate, `/m/clips/<id>/...?c=<tenant>`: a final clip from its own files (URIs get `?c=`
 * so relative requests keep the tenant); any other clip over the recording, 410 once retention removed what it
 * plays. Final files are served only from inside the clip's own directory under the media root, or (a bucket media
 * store) from the objects under the clip's own prefix.
 */
export function clipDeliveryRoutes(ctx: AppContext, gate: Gate) {
  const svc = new ClipService(ctx);
  const q = (slug: string) => `?c=${encodeURIComponent(slug)}`;
  const clipOf = (g: Guarded): ClipRow => {
    const clip = svc.store.get(g.tenant.id, g.target.id);
    if (!clip) throw notFound('clip');
    return clip;
  };
  const overRecording = (clip: ClipRow, tenantSlug: string): RangeSource => {
    if (svc.expired(clip)) throw new AppError('gone', 'this clip expired: the recording under it was removed by retention');
    const ch = channelById(ctx, clip.tenant_id, clip.channel_id);
    if (!ch) throw new AppError('gone', 'the channel of this clip was deleted');
    return { ch, tenantSlug, from: clip.start_ms, to: clip.end_ms, renditions: JSON.parse(clip.renditions) as string[] };
  };
  /** A final clip's own file, proven to lie inside its directory (which must lie inside the data dir). */
  const finalFile = (clip: ClipRow, ...rel: string[]): string | null => {
    const dir = clip.final_dir && containedAbs(ctx.config.dataDir, clip.final_dir);
    return dir ? containedPath(dir, ...rel) : null;
  };
  // A bucket media store (VS_MEDIA_STORE=s3://...): final clips are objects under `media/<tenant>/clips/<id>/`, read
  // as asset media is (a local spool copy answered with its exact length and ranges; an edge caches the answers).
  const stored = storedMedia(ctx);
  /** A final clip's object key in the bucket (null for a name with dot segments: a 404, not a bucket read). */
  const finalKey = (clip: ClipRow, ...rel: string[]): string | null => {
    try { return checkKey(clipPrefix(clip.tenant_id, clip.id) + rel.join('/')); } catch { return null; }
  };
  /** A final clip's own text file (a playlist), from its directory or the bucket. */
  const finalText = async (clip: ClipRow, ...rel: string[]): Promise<string> => {
    if (stored) {
      const key = finalKey(clip, ...rel);
      const text = key === null ? null : await stored.text(key);
      if (text === null) throw notFound('playlist');
      return text;
    }
    try { return readFileSync(finalFile(clip, ...rel)!, 'utf8'); } catch { throw notFound('playlist'); }
  };
  /** A final clip's playlist with `?c=` on every URI. */
  const playlistText = async (clip: ClipRow, rel: string[], tenantSlug: string): Promise<string> => {
    const text = await finalText(clip, ...rel);
    return text.replace(/^([^#\n][^\n]*)$/gm, `$1${q(tenantSlug)}`).replace(/URI="([^"]+)"/g, `URI="$1${q(tenantSlug)}"`);
  };
  const playlistFile = async (req: Request, clip: ClipRow, rel: string[], tenantSlug: string) =>
    serveText(req, await playlistText(clip, rel, tenantSlug), 'application/vnd.apple.mpegurl', 'public, max-age=300');
  // A clip over the recording offers the recording tracks' subtitle renditions like catch-up; a final clip too, over
  // its own re-encoded playlists (its media starts at the clip's start, so cues are timed from `start_ms`).
  const subs = rangeSubtitles(ctx);
  const finalLangs = (clip: ClipRow) => rangeSubtitleLanguages(ctx.db, clip.tenant_id, clip.channel_id, clip.start_ms, clip.end_ms);
  const M3U8 = 'application/vnd.apple.mpegurl';
  const finalMaster = async (g: Guarded, clip: ClipRow) => {
    const langs = finalLangs(clip);
    if (!langs.length) return playlistFile(g.request, clip, ['master.m3u8'], g.tenant.slug);
    return serveText(g.request, rangeMasterWithSubs(await playlistText(clip, ['master.m3u8'], g.tenant.slug), langs, clip.start_ms, q(g.tenant.slug)), M3U8, 'public, max-age=300');
  };
  /** A final clip's subtitle rendition playlist: its first variant's segments as WebVTT segments at wall-clock times. */
  const finalSubs = async (g: Guarded, clip: ClipRow, language: string) => {
    if (!finalLangs(clip).some((l) => l.language === language)) throw notFound('subtitles');
    const master = await finalText(clip, 'master.m3u8');
    const first = master.split('\n').find((l) => l && !l.startsWith('#'));
    const rel = first?.split('/') ?? [];
    const variant = await finalText(clip, ...rel);
    const out: string[] = [];
    let at = clip.start_ms, dur = 0;
    for (const l of variant.replace(/\n$/, '').split('\n')) {
      if (l.startsWith('#EXT-X-MAP')) continue;
      if (l.startsWith('#EXTINF:')) { dur = Math.round(parseFloat(l.slice(8)) * 1000); out.push(l); continue; }
      if (l && !l.startsWith('#')) { out.push(`vtt/${at}-${dur}.vtt${q(g.tenant.slug)}`); at += dur; continue; }
      out.push(l);
    }
    return serveText(g.request, out.join('\n') + '\n', M3U8, 'public, max-age=300');
  };
  const app = new Elysia();
  gate.route(app, 'clipMaster', (g) => {
    const clip = clipOf(g);
    return clip.status === 'final' ? finalMaster(g, clip) : subs.master(g, overRecording(clip, g.tenant.slug));
  });
  gate.route(app, 'clipVariant', (g) => {
    const clip = clipOf(g);
    if (clip.status !== 'final') return subs.variant(g, overRecording(clip, g.tenant.slug));
    const sub = RANGE_SUBS.exec(g.params.r);
    return sub ? finalSubs(g, clip, sub[1]!) : playlistFile(g.request, clip, [g.params.r, 'index.m3u8'], g.tenant.slug);
  });
  gate.route(app, 'clipVtt', (g) => {
    const clip = clipOf(g);
    if (clip.status !== 'final') return subs.vtt(g, overRecording(clip, g.tenant.slug));
    const sub = RANGE_SUBS.exec(g.params.r), f = RANGE_VTT.exec(g.params.file);
    if (!sub || !f || !finalLangs(clip).some((l) => l.language === sub[1])) throw notFound('file');
    const start = Number(f[1]), dur = Number(f[2]);
    if (start + dur <= clip.start_ms || start >= clip.end_ms) throw notFound('file');
    return serveText(g.request, rangeVttSegment(ctx.db, clip.tenant_id, clip.channel_id, sub[1]!, clip.start_ms, start, dur), 'text/vtt; charset=utf-8', 'public, max-age=300');
  });
  gate.route(app, 'clipFile', async (g) => {
    const clip = clipOf(g);
    if (stored) {
      const key = clip.status === 'final' ? finalKey(clip, g.params.r, g.params.file) : null;
      const res = key && (await stored.serve(g.request, key, 'public, max-age=31536000, immutable'));
      if (!res) throw notFound('file');
      return res;
    }
    const p = clip.status === 'final' ? finalFile(clip, g.params.r, g.params.file) : null;
    const res = p && serveFile(g.request, p, 'public, max-age=31536000, immutable');
    if (!res) throw notFound('file');
    return res;
  });
  gate.route(app, 'clipInit', (g) => fileResponse(ctx, g.request, overRecording(clipOf(g), g.tenant.slug), g.params.r, 'init', g.params.file));
  gate.route(app, 'clipSeg', (g) => fileResponse(ctx, g.request, overRecording(clipOf(g), g.tenant.slug), g.params.r, 'seg', g.params.file));
  return app;
}
