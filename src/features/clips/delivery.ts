import { Elysia } from 'elysia';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { containedAbs, containedPath } from '../../kernel/fs/contain';
import { channelById } from '../channels/service';
import { serveFile, serveText } from '../media-delivery/serve-file';
import { fileResponse, type RangeSource } from '../catchup/source';
import { rangeSubtitles } from '../catchup/range-subs';
import type { Gate, Guarded } from '../playback/gate';
import { ClipService } from './service';
import type { ClipRow } from './store';

/**
 * Clip delivery behind the gate, `/m/clips/<id>/...?c=<tenant>`: a final clip from its own files (URIs get `?c=`
 * so relative requests keep the tenant); any other clip over the recording, 410 once retention removed what it
 * plays. Final files are served only from inside the clip's own directory under the media root.
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
  const playlistFile = (req: Request, clip: ClipRow, rel: string[], tenantSlug: string) => {
    const p = finalFile(clip, ...rel);
    let text: string;
    try { text = readFileSync(p!, 'utf8'); } catch { throw notFound('playlist'); }
    const body = text.replace(/^([^#\n][^\n]*)$/gm, `$1${q(tenantSlug)}`).replace(/URI="([^"]+)"/g, `URI="$1${q(tenantSlug)}"`);
    return serveText(req, body, 'application/vnd.apple.mpegurl', 'public, max-age=300');
  };
  // A clip over the recording offers the recording tracks' subtitle renditions like catch-up (a final clip: not yet).
  const subs = rangeSubtitles(ctx);
  const app = new Elysia();
  gate.route(app, 'clipMaster', (g) => {
    const clip = clipOf(g);
    return clip.status === 'final' ? playlistFile(g.request, clip, ['master.m3u8'], g.tenant.slug) : subs.master(g, overRecording(clip, g.tenant.slug));
  });
  gate.route(app, 'clipVariant', (g) => {
    const clip = clipOf(g);
    return clip.status === 'final' ? playlistFile(g.request, clip, [g.params.r, 'index.m3u8'], g.tenant.slug) : subs.variant(g, overRecording(clip, g.tenant.slug));
  });
  gate.route(app, 'clipVtt', (g) => {
    const clip = clipOf(g);
    if (clip.status === 'final') throw notFound('file');
    return subs.vtt(g, overRecording(clip, g.tenant.slug));
  });
  gate.route(app, 'clipFile', (g) => {
    const clip = clipOf(g);
    const p = clip.status === 'final' ? finalFile(clip, g.params.r, g.params.file) : null;
    const res = p && serveFile(g.request, p, 'public, max-age=31536000, immutable');
    if (!res) throw notFound('file');
    return res;
  });
  gate.route(app, 'clipInit', (g) => fileResponse(ctx, g.request, overRecording(clipOf(g), g.tenant.slug), g.params.r, 'init', g.params.file));
  gate.route(app, 'clipSeg', (g) => fileResponse(ctx, g.request, overRecording(clipOf(g), g.tenant.slug), g.params.r, 'seg', g.params.file));
  return app;
}
