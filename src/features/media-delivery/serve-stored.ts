import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { mediaStoreOf, remoteMedia, type MediaStore, type StoredStat } from '../../kernel/media-store';
import { slotKey } from '../../kernel/slots';
import { notModified, parseRange, serveSized } from './serve-file';
import { storeSpool, type StoreSpoolOptions } from './store-spool';

/** A stream that opens its source on the first read (the answer's headers go out before the bucket is asked). */
function lazyStream(open: () => Promise<ReadableStream<Uint8Array> | null>): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      if (!reader) {
        const s = await open();
        if (!s) { c.error(new Error('object vanished')); return; }
        reader = s.getReader();
      }
      const { done, value } = await reader.read();
      if (done) c.close();
      else c.enqueue(value);
    },
    cancel() { void reader?.cancel(); },
  });
}

/** Options of `storedFiles`: the spool (local copies) and the sizes that decide how an object is answered. */
export interface StoredFilesOptions {
  spool: StoreSpoolOptions;
  /** Objects up to this size are answered from a local copy (default 256 MiB); larger ones (downloads) by range reads. */
  spoolMaxObject?: number;
  /** A range of a larger object up to this long is read into memory (exact Content-Length); longer ones stream (default 16 MiB). */
  rangeInMemory?: number;
  /** Stats remembered (versioned keys never change); default 20,000. */
  maxStats?: number;
}

/**
 * Versioned outputs read from a remote media store (a bucket). Each object is stat'ed once (its versioned key never
 * changes). Objects up to `spoolMaxObject` (playlists, segments, images) are streamed by the store's native copy to a
 * local spool and answered from that file (exact length, ranges, `sendfile`; the next request for it does not reach
 * the bucket). Larger ones are read from the bucket by range: a range up to `rangeInMemory` with its exact length,
 * anything longer streamed (chunked: the runtime cannot stream with a Content-Length).
 */
export function storedFiles(store: MediaStore, o: StoredFilesOptions) {
  const max = o.maxStats ?? 20_000, spoolMax = o.spoolMaxObject ?? 256 * 2 ** 20, inMemory = o.rangeInMemory ?? 16 * 2 ** 20;
  const stats = new Map<string, StoredStat>();
  const spool = storeSpool(store, o.spool);
  const statOf = async (key: string): Promise<StoredStat | null> => {
    const hit = stats.get(key);
    if (hit) return hit;
    const s = await store.stat(key);
    if (!s) return null;
    if (stats.size >= max) stats.clear();
    stats.set(key, s);
    return s;
  };
  return {
    spool,
    /** The object's text (a playlist to rewrite), read from its local copy while held; null when it does not exist. */
    async text(key: string): Promise<string | null> {
      const st = await statOf(key);
      if (!st) return null;
      const held = await spool.hold(key, st);
      if (!held) { stats.delete(key); return null; }
      try { return await Bun.file(held.path).text(); } finally { held.release(); }
    },
    /** The answer for `key` (null when the object does not exist). */
    async serve(req: Request, key: string, cacheControl: string, extra: Record<string, string> = {}): Promise<Response | null> {
      const st = await statOf(key);
      if (!st) return null;
      const { size, etag, mtimeMs } = st;
      const streamed = (s: number, e: number) => lazyStream(() => store.read(key, s === 0 && e === size - 1 ? undefined : { start: s, end: e }));
      const answer = (body: (s: number, e: number) => BodyInit) => serveSized(req, key, size, etag, mtimeMs, cacheControl, extra, body);
      // HEAD and a conditional GET answered 304 need no bytes: the stat alone (the body below is never read).
      if (req.method !== 'GET' || notModified(req.headers, etag, mtimeMs)) return answer(streamed);
      if (size <= spoolMax) {
        const path = await spool.file(key, st);
        if (!path) { stats.delete(key); return null; }
        return answer((s, e) => (s === 0 && e === size - 1 ? Bun.file(path) : Bun.file(path).slice(s, e + 1)));
      }
      const r = parseRange(req.headers.get('range'), size);
      if (r && r !== 'unsatisfiable' && r.end - r.start + 1 <= inMemory) {
        const s = await store.read(key, r);
        if (!s) { stats.delete(key); return null; }
        const bytes = new Uint8Array(await new Response(s).arrayBuffer());
        if (bytes.length !== r.end - r.start + 1) { stats.delete(key); return null; }
        return answer((s, e) => (s === r.start && e === r.end ? bytes : streamed(s, e))); // If-Range may turn it whole
      }
      return answer(streamed);
    },
  };
}

const STORED = slotKey<ReturnType<typeof storedFiles>>('media-delivery.stored');

/**
 * The app's reader of delivered media in a bucket media store (`VS_MEDIA_STORE=s3://…`): one spool (DATA/tmp/store-spool)
 * with one byte budget and one stat memory for every delivery route that reads the bucket (asset outputs, final
 * clips); null when media lives on local disk.
 */
export function storedMedia(ctx: AppContext): ReturnType<typeof storedFiles> | null {
  if (!remoteMedia(ctx)) return null;
  return ctx.slots.get(STORED, () => storedFiles(mediaStoreOf(ctx), { spool: { dir: join(ctx.config.dataDir, 'tmp', 'store-spool') } }));
}
