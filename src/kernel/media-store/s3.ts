import { S3Client } from 'bun';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { checkKey, checkPrefix, type MediaStore, type StoredEntry, type StoredStat } from './types';

/** Where the S3 store is: bucket, key prefix inside it, endpoint and credentials. */
export interface S3StoreOptions {
  bucket: string;
  /** Prefix of every key in the bucket (`''` or ending in `/`). */
  prefix: string;
  endpoint: string | null;
  region: string | null;
  accessKeyId: string;
  secretAccessKey: string;
}

/** An S3-compatible bucket (MinIO, Ceph RGW, AWS) through Bun's built-in S3 client. */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const;
  readonly where: string;
  private client: S3Client;
  constructor(private o: S3StoreOptions) {
    this.where = `s3://${o.bucket}/${o.prefix}`;
    this.client = new S3Client({
      bucket: o.bucket, accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey,
      ...(o.endpoint ? { endpoint: o.endpoint } : {}), ...(o.region ? { region: o.region } : {}),
    });
  }

  private k(key: string): string { return this.o.prefix + checkKey(key); }

  async put(key: string, data: Uint8Array | string): Promise<void> { await this.client.write(this.k(key), data); }

  async putFile(key: string, path: string): Promise<void> { await this.client.write(this.k(key), Bun.file(path)); }

  async getFile(key: string, path: string): Promise<boolean> {
    if (!(await this.stat(key))) return false;
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.get-${process.pid}`;
    try {
      await Bun.write(tmp, this.client.file(this.k(key)));
      renameSync(tmp, path);
    } catch (e) { rmSync(tmp, { force: true }); throw e; }
    return true;
  }

  async read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null> {
    if (!(await this.stat(key))) return null;
    const f = this.client.file(this.k(key));
    return (range ? f.slice(range.start, range.end + 1) : f).stream();
  }

  async stat(key: string): Promise<StoredStat | null> {
    try {
      const s = await this.client.stat(this.k(key));
      return { size: s.size, mtimeMs: s.lastModified.getTime(), etag: s.etag.startsWith('"') ? s.etag : `"${s.etag}"` };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async list(prefix: string): Promise<StoredEntry[]> {
    checkPrefix(prefix);
    const out: StoredEntry[] = [];
    let token: string | undefined;
    do {
      const r = await this.client.list({ prefix: this.o.prefix + prefix, maxKeys: 1000, ...(token ? { continuationToken: token } : {}) });
      for (const c of r.contents ?? []) out.push({ key: c.key.slice(this.o.prefix.length), size: c.size ?? 0 });
      token = r.isTruncated ? r.nextContinuationToken : undefined;
    } while (token);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    try { await this.client.delete(this.k(key)); } catch (e) { if (!isMissing(e)) throw e; }
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!checkPrefix(prefix)) throw new Error('refusing to delete the whole media store');
    const all = await this.list(prefix);
    for (const e of all) await this.delete(e.key);
    return all.length;
  }
}

/** True for the S3 client's not-found answers (404 / NoSuchKey). */
function isMissing(e: unknown): boolean {
  const x = e as { code?: string; name?: string; message?: string };
  return x?.code === 'NoSuchKey' || x?.code === 'ERR_S3_FILE_NOT_FOUND' || /NoSuchKey|not found|404/i.test(String(x?.message ?? ''));
}
