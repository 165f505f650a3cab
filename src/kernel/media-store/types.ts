/**
 * The media store: where asset sources, renditions, images, clips and exports live. Keys are paths relative to the
 * data directory (`media/<tenant>/assets/<asset>/v1/720p/seg-1.m4s`), the same on local disk and in a bucket, so a
 * key read from the database names the same object whichever store holds it.
 */

/** What a stored object is: size, modification time and an opaque validator. */
export interface StoredStat { size: number; mtimeMs: number; etag: string }

/** One entry of a listing. */
export interface StoredEntry { key: string; size: number }

/** Put, get (whole, byte range or to a file), stat, list and delete objects by key. */
export interface MediaStore {
  /** `local` (files under the data directory, the single-box default) or `s3` (an S3-compatible bucket). */
  readonly kind: 'local' | 's3';
  /** A human-readable location (a directory or `s3://bucket/prefix`), for logs and the CLI. */
  readonly where: string;
  /** Writes an object from bytes or text (whole object, replacing any previous one). */
  put(key: string, data: Uint8Array | string): Promise<void>;
  /** Writes an object from a local file (streamed; multipart in a bucket). */
  putFile(key: string, path: string): Promise<void>;
  /** Copies an object into a local file (created with its parent directories); false when it does not exist. */
  getFile(key: string, path: string): Promise<boolean>;
  /** The object's bytes, or `[start, end]` inclusive of them; null when it does not exist. */
  read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null>;
  /** The object's size and validators; null when it does not exist. */
  stat(key: string): Promise<StoredStat | null>;
  /** Every object whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<StoredEntry[]>;
  /** Removes one object (missing is fine). */
  delete(key: string): Promise<void>;
  /** Removes every object under `prefix` (a directory-like prefix ending in `/`); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

/** A key is a relative path of plain segments: no empty, `.` or `..` segment, no backslash or NUL. */
export function checkKey(key: string): string {
  if (!key || key.startsWith('/') || /[\\\0]/.test(key) || key.split('/').some((s) => s === '' || s === '.' || s === '..')) {
    throw new Error(`invalid media store key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** A prefix is empty or a key followed by `/`. */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  if (!prefix.endsWith('/')) throw new Error(`media store prefix must end with "/": ${JSON.stringify(prefix)}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}
