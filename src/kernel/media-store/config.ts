/**
 * The media store's configuration: `VS_MEDIA_STORE` = `local` (default: files under the data directory) or
 * `s3://bucket/prefix`, with `VS_MEDIA_STORE_ENDPOINT`, `VS_MEDIA_STORE_REGION`, `VS_MEDIA_STORE_ACCESS_KEY_ID` and
 * `VS_MEDIA_STORE_SECRET_ACCESS_KEY` (each falls back to the `s3` source bucket's VS_S3_* value).
 */
import type { S3StoreOptions } from './s3';

/** Local disk (the default) or an S3-compatible bucket. */
export type MediaStoreConfig = { kind: 'local' } | ({ kind: 's3' } & S3StoreOptions);

/** The S3 settings to fall back on (the `s3` source bucket's endpoint, region and keys). */
export interface S3Fallback { endpoint: string | null; region: string | null; accessKeyId: string; secretAccessKey: string }

/** Reads and validates the media store settings from the environment (throws with the variable's name). */
export function mediaStoreConfig(env: Record<string, string | undefined>, fallback: S3Fallback | null): MediaStoreConfig {
  const v = env.VS_MEDIA_STORE?.trim();
  if (!v || v === 'local') return { kind: 'local' };
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(v);
  if (!m) throw new Error(`VS_MEDIA_STORE must be "local" or s3://bucket/prefix, got "${v}"`);
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((s) => s === '.' || s === '..')) throw new Error('VS_MEDIA_STORE: the prefix may not contain . or .. segments');
  const pick = (name: string, fb: string | null | undefined) => env[name]?.trim() || fb || null;
  const endpoint = pick('VS_MEDIA_STORE_ENDPOINT', fallback?.endpoint);
  const accessKeyId = pick('VS_MEDIA_STORE_ACCESS_KEY_ID', fallback?.accessKeyId);
  const secretAccessKey = pick('VS_MEDIA_STORE_SECRET_ACCESS_KEY', fallback?.secretAccessKey);
  if (!accessKeyId || !secretAccessKey) throw new Error('VS_MEDIA_STORE=s3://... needs VS_MEDIA_STORE_ACCESS_KEY_ID and VS_MEDIA_STORE_SECRET_ACCESS_KEY (or VS_S3_*)');
  if (endpoint && !/^https?:\/\/[^/\s]+/.test(endpoint)) throw new Error('VS_MEDIA_STORE_ENDPOINT must start with http:// or https://');
  return {
    kind: 's3', bucket: m[1]!, prefix: prefix ? `${prefix}/` : '', endpoint: endpoint ? endpoint.replace(/\/+$/, '') : null,
    region: pick('VS_MEDIA_STORE_REGION', fallback?.region), accessKeyId, secretAccessKey,
  };
}
