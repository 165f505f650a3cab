/**
 * The `s3` source kind on a configured S3-compatible bucket (config `s3`, Bun's S3 client). A source key is
 * checked exactly like the data-dir ingest area (`ingest/<prefix>/in/...`, no traversal) and names the object
 * `<tenant_id>/<key>` of the bucket, so a tenant reads only its own prefix. Creation checks that the object
 * exists; the `asset.fetch` job streams it to the asset's directory.
 */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { S3Client } from 'bun';
import type { AppContext } from '../../kernel/context';
import type { S3Config } from '../../kernel/config/schema';
import { AppError, invalid } from '../../kernel/errors';
import { PermanentJobError } from '../../jobs/errors';
import { checkIngestKey, sourceExt } from './paths';

const clients = new WeakMap<S3Config, S3Client>();

/** The client of a bucket configuration (one per configuration object). */
export function bucketClient(cfg: S3Config): S3Client {
  let c = clients.get(cfg);
  if (!c) {
    c = new S3Client({
      bucket: cfg.bucket, accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey,
      ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}), ...(cfg.region ? { region: cfg.region } : {}),
    });
    clients.set(cfg, c);
  }
  return c;
}

/** The bucket object of a tenant's checked ingest key: `<tenant_id>/ingest/<prefix>/in/...` (422 on a bad key). */
export function bucketKey(tenantId: string, key: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) throw new Error('bad tenant id');
  return `${tenantId}/${checkIngestKey(key).join('/')}`;
}

/** S3 error codes that retrying cannot fix. */
const PERMANENT = new Set(['NoSuchKey', 'NoSuchBucket', 'AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidObjectState']);

function s3Code(e: unknown): string {
  return String((e as { code?: unknown })?.code ?? (e as Error)?.name ?? 'error');
}

/** At creation: the object must exist (422 otherwise); an unreachable bucket answers 503. */
export async function assertInBucket(cfg: S3Config, tenantId: string, key: string): Promise<void> {
  const obj = bucketKey(tenantId, key);
  let found: boolean;
  try { found = await bucketClient(cfg).file(obj).exists(); } catch (e) {
    throw new AppError('not_ready', `the ingest bucket could not be read (${s3Code(e)}); try again`);
  }
  if (!found) throw invalid('source.key', 'no such object under the tenant ingest area');
}

/** Streams the object of `key` into `dir/source.<ext>` (through `source.partial`); returns the final path. */
export async function copyFromBucket(cfg: S3Config, tenantId: string, key: string, dir: string,
  job: { signal: AbortSignal; progress(pct: number): void }): Promise<string> {
  const file = bucketClient(cfg).file(bucketKey(tenantId, key));
  const partial = join(dir, 'source.partial');
  const out = createWriteStream(partial);
  let got = 0;
  try {
    const total = await file.stat().then((s) => s.size, () => NaN);
    const reader = file.stream().getReader();
    const stop = () => { reader.cancel().catch(() => {}); };
    job.signal.addEventListener('abort', stop, { once: true });
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        got += r.value.byteLength;
        if (!out.write(r.value)) await once(out, 'drain');
        if (total > 0) job.progress((got / total) * 100);
      }
    } finally {
      job.signal.removeEventListener('abort', stop);
    }
    if (job.signal.aborted) throw new Error('cancelled');
    out.end();
    await once(out, 'finish');
  } catch (e) {
    out.destroy();
    rmSync(partial, { force: true });
    const code = s3Code(e);
    if (PERMANENT.has(code)) throw new PermanentJobError(`s3 source ${key}: ${code}`);
    throw new Error(`s3 source ${key} could not be read: ${code} ${(e as Error)?.message ?? ''}`.trim());
  }
  if (got === 0) { rmSync(partial, { force: true }); throw new PermanentJobError('source is empty'); }
  const dest = join(dir, `source.${sourceExt(key)}`);
  renameSync(partial, dest);
  return dest;
}
