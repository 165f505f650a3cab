import { Elysia } from 'elysia';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { hidden } from '../../kernel/http/plugin';
import { notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { tenantAsset } from '../assets/lifecycle-store';
import { serveFile } from './serve-file';
import { assetKey, serveEncrypted } from './aes';
import { IdentityService } from '../identity/service';

const FILE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Cache policy: versioned segments, images and downloads never change; manifests may be re-written on re-encode. */
function cacheFor(name: string, preview: boolean): string {
  if (preview) return 'no-cache';
  return /\.(m3u8|mpd|vtt)$/.test(name) ? 'public, max-age=300' : IMMUTABLE;
}

/**
 * Unprotected VOD delivery: `/m/<tenant_id>/assets/<asset_id>/v<version>/<file>` (a ready asset's output) and
 * `/m/<tenant_id>/assets/<asset_id>/preview/<file>` (the growing EVENT playlist while encoding, quick first play).
 * Playlists use relative URLs, so a token layer can serve the same tree under `/t/<token>/m/...`.
 */
export function mediaDeliveryRoutes(ctx: AppContext) {
  const handle = ({ params, request }: { params: Record<string, string>; request: Request }) => {
    const { tenant, asset, ver, file } = params;
    if (!isUuid(tenant) || !isUuid(asset) || !FILE.test(file) || file.includes('..')) throw notFound('file');
    const a = tenantAsset(ctx.db, tenant, asset);
    if (!a || !a.output) throw notFound('file');
    const out = JSON.parse(a.output) as { dir?: string; version?: number; preview?: string };
    let dir: string | undefined;
    if (ver === 'preview') dir = a.status === 'encoding' || a.status === 'packaging' ? out.preview : undefined;
    else if (a.status === 'ready' && ver === `v${out.version}`) dir = out.dir;
    if (!dir) throw notFound('file');
    const res = serveFile(request, join(ctx.config.dataDir, dir, file), cacheFor(file, ver === 'preview'),
      file === 'download.mp4' ? { 'content-disposition': `attachment; filename="${a.external_id?.replace(/[^A-Za-z0-9_.-]/g, '_') || asset}.mp4"` } : {});
    if (!res) throw notFound('file');
    return res;
  };
  const secret = new IdentityService(ctx.db, null).secret('hls-aes');
  const handleAes = ({ params, request }: { params: Record<string, string>; request: Request }) => {
    const { tenant, asset, ver, file } = params;
    if (!isUuid(tenant) || !isUuid(asset) || !FILE.test(file) || file.includes('..')) throw notFound('file');
    const a = tenantAsset(ctx.db, tenant, asset);
    if (!a || !a.output || a.status !== 'ready') throw notFound('file');
    const out = JSON.parse(a.output) as { dir?: string; version?: number };
    if (!out.dir || ver !== `v${out.version}`) throw notFound('file');
    const res = serveEncrypted(join(ctx.config.dataDir, out.dir), file, assetKey(secret, asset, out.version!), request.method === 'HEAD');
    if (!res) throw notFound('file');
    return res;
  };
  return new Elysia()
    .get('/m/:tenant/assets/:asset/:ver/aes/:file', handleAes, { detail: hidden })
    .head('/m/:tenant/assets/:asset/:ver/aes/:file', handleAes, { detail: hidden })
    .get('/m/:tenant/assets/:asset/:ver/:file', handle, { detail: hidden })
    .head('/m/:tenant/assets/:asset/:ver/:file', handle, { detail: hidden });
}
