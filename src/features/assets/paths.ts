/**
 * Filesystem layout of the assets and uploads features, and the one place customer-influenced path pieces
 * are checked. Every path returned here is inside the data dir; anything that could escape it is refused.
 */
import { join, resolve, sep } from 'node:path';
import { realpathSync } from 'node:fs';
import { invalid } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';

/** DATA/media/<tenant>/assets/<asset_id> (ids are server-made UUIDs, checked again here). */
export function assetDir(dataDir: string, tenantId: string, assetId: string): string {
  if (!isUuid(tenantId) && !/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) throw new Error('bad tenant id');
  if (!isUuid(assetId)) throw new Error('bad asset id');
  return join(dataDir, 'media', tenantId, 'assets', assetId);
}

/** DATA/media/<tenant>/uploads/<upload_id> (where an upload's bytes are assembled). */
export function uploadDir(dataDir: string, tenantId: string, uploadId: string): string {
  if (!isUuid(uploadId)) throw new Error('bad upload id');
  return join(dataDir, 'media', tenantId, 'uploads', uploadId);
}

/** Path of a file relative to the data dir (what `assets.source_path` stores). */
export function relToData(dataDir: string, abs: string): string {
  const root = resolve(dataDir) + sep;
  const p = resolve(abs);
  if (!p.startsWith(root)) throw new Error('path outside data dir');
  return p.slice(root.length);
}

/** Absolute path of a data-dir-relative path, refusing anything that escapes the data dir. */
export function fromData(dataDir: string, rel: string): string {
  const root = resolve(dataDir) + sep;
  const p = resolve(root, rel);
  if (!p.startsWith(root)) throw new Error('path outside data dir');
  return p;
}

/** A safe file extension for a stored source: from the file name, else the content type, else `bin`. */
export function sourceExt(filename: string | null | undefined, contentType?: string | null): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(filename ?? '');
  if (m) return m[1].toLowerCase();
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const map: Record<string, string> = {
    'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/x-matroska': 'mkv', 'video/webm': 'webm', 'video/mp2t': 'ts',
    'video/x-msvideo': 'avi', 'audio/mpeg': 'mp3', 'audio/mp4': 'm4a', 'application/mxf': 'mxf',
  };
  return map[ct] ?? 'bin';
}

const SEGMENT_BAD = /[\0\\]|[\u0000-\u001f\u007f]/;

/**
 * Checks an `s3` source key: relative, `ingest/<prefix>/in/<path>`, no empty, `.` or `..` segments (also
 * percent-encoded), no NUL, backslash or control characters. Returns the segments. 422 on any violation.
 */
export function checkIngestKey(key: string): string[] {
  const field = 'source.key';
  if (typeof key !== 'string' || key.length < 1 || key.length > 1024) throw invalid(field, 'must be 1-1024 characters');
  if (key.startsWith('/')) throw invalid(field, 'must be relative (ingest/<prefix>/in/...)');
  const segs = key.split('/');
  for (const s of segs) {
    let decoded = s;
    try { decoded = decodeURIComponent(s); } catch { throw invalid(field, 'contains malformed percent-encoding'); }
    for (const x of [s, decoded]) {
      if (x === '' || x === '.' || x === '..' || SEGMENT_BAD.test(x) || x.includes('/') || /^\.\.?$/.test(x.trim())) {
        throw invalid(field, 'contains an empty, ".", ".." or control-character segment');
      }
    }
  }
  if (segs.length < 4 || segs[0] !== 'ingest' || segs[2] !== 'in') throw invalid(field, 'must be under ingest/<prefix>/in/');
  return segs;
}

/** Resolves a checked ingest key to DATA/media/<tenant>/<key>, following symlinks and refusing escapes. */
export function ingestPath(dataDir: string, tenantId: string, key: string): string {
  const segs = checkIngestKey(key);
  const root = join(dataDir, 'media', tenantId, 'ingest');
  const p = join(dataDir, 'media', tenantId, ...segs);
  let real: string, realRoot: string;
  try { real = realpathSync(p); realRoot = realpathSync(root); } catch { throw invalid('source.key', 'no such object under the tenant ingest area'); }
  if (!real.startsWith(realRoot + sep)) throw invalid('source.key', 'resolves outside the tenant ingest area');
  return real;
}
