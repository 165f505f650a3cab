/**
 * The `s3` config section: YAML `s3: {endpoint, bucket, region, access_key_id, secret_access_key}` and the
 * VS_S3_* variables (each overrides its YAML field). All fields empty = no bucket (the data dir's ingest area).
 */
import type { S3Config } from './schema';

/** Fields as given, before validation. */
export type S3Draft = { endpoint?: string; bucket?: string; region?: string; access_key_id?: string; secret_access_key?: string };

/** The environment variable of each field. */
export const S3_ENV: Record<keyof S3Draft, string> = {
  endpoint: 'VS_S3_ENDPOINT', bucket: 'VS_S3_BUCKET', region: 'VS_S3_REGION',
  access_key_id: 'VS_S3_ACCESS_KEY_ID', secret_access_key: 'VS_S3_SECRET_ACCESS_KEY',
};

/** Reads the YAML `s3` mapping, refusing unknown fields and non-string values. */
export function s3FromYaml(v: unknown): S3Draft {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('s3 must be a mapping of endpoint, bucket, region, access_key_id, secret_access_key');
  const out: S3Draft = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (!(k in S3_ENV)) throw new Error(`unknown config key "s3.${k}"`);
    if (x === null || x === undefined) continue;
    if (typeof x !== 'string') throw new Error(`s3.${k} must be a string`);
    out[k as keyof S3Draft] = x;
  }
  return out;
}

/** Applies VS_S3_* over the YAML fields. */
export function s3WithEnv(d: S3Draft, env: Record<string, string | undefined>): S3Draft {
  const out = { ...d };
  for (const [k, name] of Object.entries(S3_ENV) as [keyof S3Draft, string][]) {
    const v = env[name];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/** Validates the fields: nothing set = null; else bucket and both keys are required, endpoint must be http(s). */
export function s3Config(d: S3Draft): S3Config | null {
  if (!Object.values(d).some((v) => v)) return null;
  if (!d.bucket) throw new Error('s3.bucket (VS_S3_BUCKET) is required when s3 is configured');
  if (!d.access_key_id || !d.secret_access_key) throw new Error('s3.access_key_id and s3.secret_access_key (VS_S3_ACCESS_KEY_ID, VS_S3_SECRET_ACCESS_KEY) are both required');
  if (d.endpoint && !/^https?:\/\/[^/\s]+/.test(d.endpoint)) throw new Error('s3.endpoint must start with http:// or https://');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(d.bucket)) throw new Error(`s3.bucket is not a valid bucket name: ${d.bucket}`);
  return Object.freeze({
    endpoint: d.endpoint ? d.endpoint.replace(/\/+$/, '') : null, bucket: d.bucket, region: d.region || null,
    accessKeyId: d.access_key_id, secretAccessKey: d.secret_access_key,
  });
}
