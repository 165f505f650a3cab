import { createHash, randomInt } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MediaStore, StoredStat } from '../../kernel/media-store';

/** Options of `storeSpool`. */
export interface StoreSpoolOptions {
  /** Parent directory of the spools: each spool keeps its copies in `<dir>/<pid>-<random>` (several delivery processes
   * share a data directory); those of processes that are gone are removed when a spool is made. */
  dir: string;
  /** Most bytes kept (least recently used copies go first); default 1 GiB. */
  maxBytes?: number;
  /** A copy used within this long is not removed (an answer may be about to open it); default 10 s. */
  graceMs?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

/** True while a process with this id runs. */
function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as { code?: string }).code === 'EPERM'; }
}

/** Removes the spools of processes that are gone (a killed process leaves its copies behind). */
function removeOrphans(parent: string): void {
  let names: string[];
  try { names = readdirSync(parent); } catch { return; }
  for (const n of names) {
    const pid = Number(/^(\d+)-\d+$/.exec(n)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(parent, n), { recursive: true, force: true });
  }
}

/** A local copy of a bucket object: the file and the identity it was fetched for. */
interface Copy { path: string; size: number; etag: string; used: number }

/** Local copies of bucket objects, fetched whole and kept least-recently-used within a byte budget. */
export interface StoreSpool {
  /** The path of a complete local copy of `key` as `st` describes it (fetched now if needed); null when the object is gone or changed. */
  file(key: string, st: StoredStat): Promise<string | null>;
  /** Copies kept and their bytes (tests, diagnostics). */
  counts(): { files: number; bytes: number };
}

/**
 * Bucket objects streamed to local disk by the store's native copy (`getFile`: the bytes never pass through
 * JavaScript) and answered from there with `sendfile`, so an answer has its exact length without holding the object
 * in memory (Bun sends a ReadableStream body chunked, whatever Content-Length says; a caching edge then can neither
 * learn the length nor answer ranges). Concurrent requests for one object share one fetch; repeats read the disk.
 */
export function storeSpool(store: MediaStore, o: StoreSpoolOptions): StoreSpool {
  const maxBytes = o.maxBytes ?? 2 ** 30, grace = o.graceMs ?? 10_000, now = o.now ?? Date.now;
  // A random suffix, not a module counter (features keep no module-level state): spools of one process never share a folder.
  const dir = join(o.dir, `${process.pid}-${randomInt(1e12)}`);
  removeOrphans(o.dir);
  mkdirSync(dir, { recursive: true });
  const copies = new Map<string, Copy>(); // insertion order = least recently used first (re-inserted on use)
  const fetching = new Map<string, Promise<string | null>>();
  let bytes = 0;
  const drop = (key: string, c: Copy) => { copies.delete(key); bytes -= c.size; rmSync(c.path, { force: true }); };
  const evict = () => {
    const t = now();
    for (const [key, c] of copies) {
      if (bytes <= maxBytes) break;
      if (t - c.used < grace) break; // the rest were used even more recently
      drop(key, c);
    }
  };
  const fetchCopy = async (key: string, st: StoredStat): Promise<string | null> => {
    const path = join(dir, createHash('sha1').update(`${key}\n${st.etag}`).digest('hex'));
    if (!(await store.getFile(key, path))) return null;
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size !== st.size) { rmSync(path, { force: true }); return null; } // replaced since it was stat'ed
    copies.set(key, { path, size, etag: st.etag, used: now() });
    bytes += size;
    evict();
    return path;
  };
  return {
    async file(key, st) {
      const c = copies.get(key);
      if (c && c.etag === st.etag) {
        copies.delete(key);
        c.used = now();
        copies.set(key, c);
        return c.path;
      }
      if (c) drop(key, c);
      const id = `${key}\n${st.etag}`;
      let p = fetching.get(id);
      if (!p) {
        p = fetchCopy(key, st).finally(() => fetching.delete(id));
        fetching.set(id, p);
      }
      return p;
    },
    counts: () => ({ files: copies.size, bytes }),
  };
}
