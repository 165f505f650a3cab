import { Elysia, t } from 'elysia';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { IdentityService } from '../identity/service';
import { channelById } from '../channels/service';
import { serveFile } from '../media-delivery/serve-file';
import { fileResponse, masterResponse, mediaResponse, type RangeSource } from '../catchup/source';
import { ClipService } from './service';
import type { ClipRow } from './store';

const FINAL_FILE = /^(init-e?\d+\.mp4|\d+\.m4s)$/;
const RENDITION = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Clip delivery `/m/clips/<id>/...?c=<tenant>`: a final clip from its own files (URIs get `?c=` so relative
 * requests keep the tenant); any other clip over the recording, 410 once retention removed what it plays.
 */
export function clipDeliveryRoutes(ctx: AppContext) {
  const svc = new ClipService(ctx);
  const identity = new IdentityService(ctx.db, null);
  const q = (slug: string) => `?c=${encodeURIComponent(slug)}`;
  const clipOf = (id: string, c: string | undefined): { clip: ClipRow; tenantSlug: string } => {
    if (!isUuid(id) || !c) throw notFound('clip');
    let tn;
    try { tn = identity.tenant(c); } catch { throw notFound('clip'); }
    const clip = svc.store.get(tn.id, id);
    if (!clip) throw notFound('clip');
    return { clip, tenantSlug: tn.slug };
  };
  const overRecording = (clip: ClipRow, tenantSlug: string): RangeSource => {
    if (svc.expired(clip)) throw new AppError('gone', 'this clip expired: the recording under it was removed by retention');
    const ch = channelById(ctx, clip.tenant_id, clip.channel_id);
    if (!ch) throw new AppError('gone', 'the channel of this clip was deleted');
    return { ch, tenantSlug, from: clip.start_ms, to: clip.end_ms, renditions: JSON.parse(clip.renditions) as string[] };
  };
  const playlistFile = (clip: ClipRow, rel: string, tenantSlug: string) => {
    let text: string;
    try { text = readFileSync(join(clip.final_dir!, rel), 'utf8'); } catch { throw notFound('playlist'); }
    const body = text.replace(/^([^#\n][^\n]*)$/gm, `$1${q(tenantSlug)}`).replace(/URI="([^"]+)"/g, `URI="$1${q(tenantSlug)}"`);
    return new Response(body, { headers: { 'content-type': 'application/vnd.apple.mpegurl', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' } });
  };
  const C = t.Object({ c: t.Optional(t.String()) });
  const PR = t.Object({ id: t.String(), r: t.String() });
  const PRF = t.Object({ id: t.String(), r: t.String(), file: t.String() });
  return new Elysia()
    .get('/m/clips/:id/master.m3u8', ({ params, query }) => {
      const { clip, tenantSlug } = clipOf(params.id, query.c);
      return clip.status === 'final' ? playlistFile(clip, 'master.m3u8', tenantSlug) : masterResponse(ctx, overRecording(clip, tenantSlug), q(tenantSlug));
    }, { params: t.Object({ id: t.String() }), query: C, detail: hidden })
    .get('/m/clips/:id/:r/index.m3u8', ({ params, query }) => {
      const { clip, tenantSlug } = clipOf(params.id, query.c);
      if (!RENDITION.test(params.r)) throw notFound('rendition');
      return clip.status === 'final' ? playlistFile(clip, `${params.r}/index.m3u8`, tenantSlug) : mediaResponse(ctx, overRecording(clip, tenantSlug), params.r, q(tenantSlug));
    }, { params: PR, query: C, detail: hidden })
    .get('/m/clips/:id/:r/:file', ({ params, query, request }) => {
      const { clip } = clipOf(params.id, query.c);
      if (clip.status !== 'final' || !RENDITION.test(params.r) || !FINAL_FILE.test(params.file)) throw notFound('file');
      const res = serveFile(request, join(clip.final_dir!, params.r, params.file), 'public, max-age=31536000, immutable');
      if (!res) throw notFound('file');
      return res;
    }, { params: PRF, query: C, detail: hidden })
    .get('/m/clips/:id/:r/init/:file', ({ params, query, request }) => {
      const { clip, tenantSlug } = clipOf(params.id, query.c);
      return fileResponse(ctx, request, overRecording(clip, tenantSlug), params.r, 'init', params.file);
    }, { params: PRF, query: C, detail: hidden })
    .get('/m/clips/:id/:r/seg/:file', ({ params, query, request }) => {
      const { clip, tenantSlug } = clipOf(params.id, query.c);
      return fileResponse(ctx, request, overRecording(clip, tenantSlug), params.r, 'seg', params.file);
    }, { params: PRF, query: C, detail: hidden });
}
