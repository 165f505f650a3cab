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
  /** The asset and output directory a delivery path names, validated (404 otherwise); preview only while encoding. */
  const resolve = (params: Record<string, string>) => {
    const { tenant, asset, ver, file } = params;
    if (!isUuid(tenant) || !isUuid(asset) || !FILE.test(file) || file.includes('..')) throw notFound('file');
    const a = tenantAsset(ctx.db, tenant, asset);
    if (!a || !a.output) throw notFound('file');
    const out = JSON.parse(a.output) as { dir?: string; version?: number; preview?: string };
    let dir: string | undefined;
    if (ver === 'preview') dir = a.status === 'encoding' || a.status === 'packaging' ? out.preview : undefined;
    else if (a.status === 'ready' && ver === `v${out.version}`) dir = out.dir;
    if (!dir) throw notFound('file');
    return { a, dir: join(ctx.config.dataDir, dir), version: out.version ?? 0, preview: ver === 'preview' };
  };
  const handle = ({ params, request }: { params: Record<string, string>; request: Request }) => {
    const { a, dir, preview } = resolve(params);
    const { asset, file } = params;
    const res = serveFile(request, join(dir, file), cacheFor(file, preview),
      file === 'download.mp4' ? { 'content-disposition': `attachment; filename="${a.external_id?.replace(/[^A-Za-z0-9_.-]/g, '_') || asset}.mp4"` } : {});
    if (!res) throw notFound('file');
    return res;
  };
  const secret = new IdentityService(ctx.db, null).secret('hls-aes');
  // The AES-128 view exists only for a ready asset's versioned output (never the growing preview).
  const handleAes = ({ params, request }: { params: Record<string, string>; request: Request }) => {
    const { dir, version, preview } = resolve(params);
    if (preview) throw notFound('file');
    const res = serveEncrypted(dir, params.file, assetKey(secret, params.asset, version), request.method === 'HEAD');
    if (!res) throw notFound('file');
    return res;
  };
  return new Elysia()
    .get('/m/:tenant/assets/:asset/:ver/aes/:file', handleAes, { detail: hidden })
    .head('/m/:tenant/assets/:asset/:ver/aes/:file', handleAes, { detail: hidden })
    .get('/m/:tenant/assets/:asset/:ver/:file', handle, { detail: hidden })
    .head('/m/:tenant/assets/:asset/:ver/:file', handle, { detail: hidden });
}
