import { Elysia } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { containedPath } from '../../kernel/fs/contain';
import { tenantAsset } from '../assets/lifecycle';
import { encryptedOnly, parseAssetOutput, previewDirOf } from '../assets/output';
import { IdentityService } from '../identity/service';
import type { Gate, Guarded } from '../playback/gate';
import { serveFile } from './serve-file';
import { assetKey, serveEncrypted } from './aes';
import { containedFiles } from './contained';
import { fdCache } from '../../kernel/fs/fd-cache';
import { IDLE_TIMEOUT_S } from '../../kernel/http/server';
import { dbMemo } from './db-memo';
import { mayCarrySubs, subtitleDelivery } from '../subtitles/delivery';
import { checkKey } from '../../kernel/media-store/types';
import { storedMedia } from './serve-stored';
import { watermarkChooser } from '../watermark/choice';

/** True when a requested file name is a plain relative key (no dot segments): anything else is a 404, not a bucket read. */
function isKey(name: string): boolean {
  try { checkKey(name); return true; } catch { return false; }
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Clear media of an output (playlists, segments, MPD, MP4): refused for an AES-128-only output; images and WebVTT stay. */
const CLEAR_MEDIA = /\.(m3u8|m4s|mpd|mp4)$/;

/** Cache policy: versioned segments, images and downloads never change; manifests may be re-written on re-encode. */
function cacheFor(name: string, preview: boolean): string {
  if (preview) return 'no-cache';
  return /\.(m3u8|mpd|vtt)$/.test(name) ? 'public, max-age=300' : IMMUTABLE;
}

/**
 * Unprotected VOD delivery behind the gate: `/m/<tenant_id>/assets/<asset_id>/v<version>/<file>` (a ready asset's
 * output), `/m/<tenant_id>/assets/<asset_id>/preview/<file>` (the growing EVENT playlist while encoding) and the
 * AES-128 view `.../v<version>/aes/<file>`. Playlists use relative URLs, so a token layer can serve the same tree
 * under `/t/<token>/m/...`. Files are served only from inside the asset's own output directory.
 */
export function mediaDeliveryRoutes(ctx: AppContext, gate: Gate) {
  const files = containedFiles(ctx.config.dataDir);
  const fds = fdCache({ idleTimeoutS: IDLE_TIMEOUT_S });
  const assets = dbMemo<ReturnType<typeof lookup>>();
  // Media in a bucket (VS_MEDIA_STORE=s3://...): versioned outputs are copied from it to a local spool (DATA/tmp/store-spool)
  // and answered from there (large downloads by range reads); previews stay local.
  const stored = storedMedia(ctx);
  /** The asset and output directory a checked request names (404 otherwise); preview only while encoding. */
  const resolve = ({ params, tenant, dbGeneration }: Guarded) => {
    const hit = assets.get(dbGeneration, `${tenant.id}/${params.asset}/${params.ver}`, () => lookup(tenant.id, params.asset, params.ver));
    if (!hit) throw notFound('file');
    return hit;
  };
  /** What `resolve` answers, read from the database (null: 404). */
  const lookup = (tenantId: string, asset: string, ver: string) => {
    const a = tenantAsset(ctx.db, tenantId, asset);
    if (!a || !a.output) return null;
    let rel: string | null = null, version = 0;
    const preview = ver === 'preview';
    const out = a.status === 'ready' ? parseAssetOutput(a.output) : null;
    // Packaged with AES-128 by default: its clear media files are refused, through the preview alias too.
    const encrypted = a.status === 'ready' && encryptedOnly(out);
    // The preview URL plays the quick-play remux or the growing ladder while working, then the ready output (same master URL).
    if (preview) rel = a.status === 'ready' ? out?.dir ?? null : ['queued', 'encoding', 'packaging'].includes(a.status) ? previewDirOf(a.output) : null;
    else if (out && ver === `v${out.version}`) { rel = out.dir; version = out.version; }
    return rel ? { a, rel, version, preview, encrypted } : null;
  };
  const secret = new IdentityService(ctx.db, null).secret('hls-aes');
  // A/B forensic watermark: the variant folder of each video segment for the request's session (features/watermark).
  const marks = watermarkChooser(ctx);
  // Published subtitle tracks: added to a ready version's master playlist and MPD, their files made from the cues.
  const subs = subtitleDelivery(ctx.db);
  const subsAnswer = (g: Guarded, rel: string) => {
    if (!mayCarrySubs(g.params.file)) return null;
    const dir = containedPath(ctx.config.dataDir, rel);
    const res = dir && subs.answer({ request: g.request, tenantId: g.tenant.id, assetId: g.params.asset, dbGeneration: g.dbGeneration, dir, file: g.params.file });
    if (res === 'missing') throw notFound('file');
    return res;
  };
  const app = new Elysia();
  gate.route(app, 'vodAesFile', (g) => {
    // The AES-128 view exists only for a ready asset's versioned output (never the growing preview).
    const { a, rel, version, preview } = resolve(g);
    if (preview) throw notFound('file');
    const sub = subsAnswer(g, rel);
    if (sub) return sub;
    const dir = containedPath(ctx.config.dataDir, marks.dirFor(g, rel, a.output));
    if (!dir) throw notFound('file');
    const res = serveEncrypted(dir, g.params.file, assetKey(secret, g.params.asset, version), g.request);
    if (!res) throw notFound('file');
    return res;
  });
  gate.route(app, 'vodFile', (g) => {
    const { a, rel, preview, encrypted } = resolve(g);
    if (encrypted && CLEAR_MEDIA.test(g.params.file)) throw new AppError('forbidden', 'this video is delivered only as AES-128 HLS (.../aes/master.m3u8)');
    const sub = preview ? null : subsAnswer(g, rel);
    if (sub) return sub;
    const extra: Record<string, string> = g.params.file === 'download.mp4' ? { 'content-disposition': `attachment; filename="${a.external_id?.replace(/[^A-Za-z0-9_.-]/g, '_') || a.id}.mp4"` } : {};
    if (stored && !preview) {
      // From the bucket; no grant (the front has no local file to send on its own).
      if (!isKey(g.params.file)) throw notFound('file');
      return stored.serve(g.request, `${rel}/${g.params.file}`, cacheFor(g.params.file, false), extra).then((res) => { if (!res) throw notFound('file'); return res; });
    }
    const file = files.file(marks.dirFor(g, rel, a.output), g.params.file);
    const res = file && serveFile(g.request, file.path, cacheFor(g.params.file, preview), extra, { st: file.st, fds });
    if (!res) throw notFound('file');
    // A versioned output answered to a token: the front may serve this token's other files of it on its own.
    // (Never for an AES-128-only output: the front would then send its clear segments on its own.)
    if (!preview && !encrypted && (res.status < 300 || res.status === 304)) gate.grant(g, { asset: g.params.asset, ver: g.params.ver, rel });
    return res;
  });
  return app;
}
