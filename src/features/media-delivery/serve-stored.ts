import type { MediaStore, StoredStat } from '../../kernel/media-store';
import { serveSized } from './serve-file';

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

/**
 * Versioned outputs read from a remote media store (a bucket): each object is stat'ed once (its versioned key never
 * changes; up to `max` remembered); a large object's bytes are read by range request, so a viewer's range reaches
 * the bucket as one.
 */
export function storedFiles(store: MediaStore, max = 20_000, eager = 16 * 2 ** 20) {
  const stats = new Map<string, StoredStat>();
  return {
    /** The answer for `key` (null when the object does not exist). */
    async serve(req: Request, key: string, cacheControl: string, extra: Record<string, string> = {}): Promise<Response | null> {
      let st = stats.get(key);
      if (!st) {
        const s = await store.stat(key);
        if (!s) return null;
        if (stats.size >= max) stats.clear();
        stats.set(key, s);
        st = s;
      }
      const size = st.size;
      // Objects up to `eager` bytes (segments, playlists, images) are read before answering, so the answer carries
      // its exact length on every path (a caching edge serves ranges only from objects of known length); larger
      // ones (downloads) stream.
      const bytes = req.method === 'GET' && size <= eager && !req.headers.has('if-none-match') && !req.headers.has('if-modified-since')
        ? new Uint8Array(await new Response(await store.read(key)).arrayBuffer()) : null;
      if (bytes && bytes.length !== size) { stats.delete(key); return null; }
      return serveSized(req, key, size, st.etag, st.mtimeMs, cacheControl, extra,
        (s, e) => bytes ? bytes.subarray(s, e + 1) : lazyStream(() => store.read(key, s === 0 && e === size - 1 ? undefined : { start: s, end: e })));
    },
  };
}
