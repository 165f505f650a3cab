/**
 * The `output` column of an asset, defined once: while encoding it holds `{preview}` (the growing work dir), once
 * ready the finished, versioned output below. Written by the encode job (through the lifecycle store, with
 * serializeOutput), read by playback URLs (lifecycle.ts) and delivery (media-delivery) through the parsers here.
 */

/** One encoded rendition of a ready asset. */
export interface AssetRendition { name: string; width: number; height: number; video_k: number }

/** The `output` JSON of a ready asset: its versioned directory (data-dir relative), ladder, renditions and files. */
export interface AssetOutput {
  dir: string; version: number; encoder: string; fallback_from: string | null; ladder: string; audio: boolean;
  renditions: AssetRendition[];
  /** Delivery file names by role: hls, dash, poster, sprite, thumbs_vtt, download. */
  files: Record<string, string>;
  thumb: { w: number; h: number; interval_s: number };
  /** `aes-128`: packaged with AES-128 by default: delivered only as AES-128 HLS (`.../aes/master.m3u8`); absent: clear. */
  encryption?: 'aes-128';
}

/** True when a ready output is delivered only as AES-128 HLS (its clear playlists, segments, MPD and MP4 refused). */
export const encryptedOnly = (o: AssetOutput | null): boolean => o?.encryption === 'aes-128';

/** The `output` JSON while encoding: the work directory served as the preview. */
export interface AssetPreview { preview: string }

function parse(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : null;
  } catch { return null; }
}

/** The finished output of an `output` column, or null when absent, unreadable or only a preview. */
export function parseAssetOutput(json: string | null): AssetOutput | null {
  const o = parse(json);
  if (!o || typeof o.dir !== 'string' || typeof o.version !== 'number' || !o.version) return null;
  if (!o.files || typeof o.files !== 'object') return null;
  return o as unknown as AssetOutput;
}

/** The preview directory (data-dir relative) of an `output` column while encoding, or null. */
export function previewDirOf(json: string | null): string | null {
  const o = parse(json);
  return o && typeof o.preview === 'string' ? o.preview : null;
}

/** The `output` value to store while encoding: the preview directory (data-dir relative). */
export function previewOutput(dir: string): AssetPreview { return { preview: dir }; }

/** The `output` column text of a ready output or a preview (the only writer's format; parsed back by the functions above). */
export function serializeOutput(o: AssetOutput | AssetPreview): string { return JSON.stringify(o); }
