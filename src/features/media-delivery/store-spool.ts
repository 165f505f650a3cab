import { createHash, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
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

/** A local copy of a bucket object: the file, the identity it was fetched for, and how many readers hold it. */
interface Copy { path: string; size: number; etag: string; used: number; refs: number }

/** A local copy held for a reader: never removed until `release` (called once; later calls do nothing). */
export interface HeldCopy { path: string; release(): void }

/** Local copies of bucket objects, fetched whole and kept least-recently-used within a byte budget. */
export interface StoreSpool {
  /**
   * The path of a complete local copy of `key` as `st` describes it (fetched now if needed); null when the object is
   * gone or changed. Not held: the copy stays at least `graceMs` after this answer (long enough to open it at once).
   */
  file(key: string, st: StoredStat): Promise<string | null>;
  /**
   * Like `file`, but the copy is held until `release()`: eviction passes over it (the budget may be exceeded while
   * copies are held), so a reader that opens it later (a cut, a job) never finds it gone. Release it once read.
   */
  hold(key: string, st: StoredStat): Promise<HeldCopy | null>;
  /** Copies kept and their bytes, and how many are held (tests, diagnostics). */
  counts(): { files: number; bytes: number; held: number };
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
      if (c.refs > 0) continue; // held by a reader: never removed under it
      if (t - c.used < grace) break; // the rest were used even more recently
      drop(key, c);
    }
  };
  const touch = (key: string, c: Copy) => { copies.delete(key); c.used = now(); copies.set(key, c); };
  const fetchCopy = async (key: string, st: StoredStat): Promise<string | null> => {
    const path = join(dir, createHash('sha1').update(`${key}\n${st.etag}`).digest('hex'));
    if (!(await store.getFile(key, path))) return null;
    const size = statSync(path, { throwIfNoEntry: false })?.size;
    if (size !== st.size) { rmSync(path, { force: true }); return null; } // replaced since it was stat'ed
    const had = copies.get(key); // another identity's copy, fetched meanwhile: its file goes now, or with its last reader
    if (had) { copies.delete(key); bytes -= had.size; if (had.refs === 0 && had.path !== path) rmSync(had.path, { force: true }); }
    copies.set(key, { path, size, etag: st.etag, used: now(), refs: 0 });
    bytes += size;
    evict();
    return path;
  };
  /** The kept copy of `key` for `st` when it is still on disk (one removed behind the spool's back is forgotten). */
  const kept = (key: string, st: StoredStat): Copy | null => {
    const c = copies.get(key);
    if (!c) return null;
    if (c.etag === st.etag && existsSync(c.path)) return c;
    // Changed in the store, or removed from disk behind the spool's back: forgotten (a held copy's file goes with its last reader).
    copies.delete(key);
    bytes -= c.size;
    if (c.refs === 0 && c.etag !== st.etag) rmSync(c.path, { force: true });
    return null;
  };
  /** A copy of `key` in `copies` (fetched once for concurrent callers), marked used; null when the object is gone or changed. */
  const obtain = async (key: string, st: StoredStat): Promise<Copy | null> => {
    // Two tries: a copy fetched for another caller may be evicted before this one resumes (only past the grace).
    for (let i = 0; i < 2; i++) {
      const c = kept(key, st);
      if (c) { touch(key, c); return c; }
      const id = `${key}\n${st.etag}`;
      let p = fetching.get(id);
      if (!p) {
        p = fetchCopy(key, st).finally(() => fetching.delete(id));
        fetching.set(id, p);
      }
      if (!(await p)) return null;
    }
    const c = kept(key, st);
    if (c) touch(key, c);
    return c;
  };
  return {
    async file(key, st) { return (await obtain(key, st))?.path ?? null; },
    async hold(key, st) {
      const c = await obtain(key, st);
      if (!c) return null;
      c.refs++;
      let held = true;
      return {
        path: c.path,
        release: () => {
          if (!held) return;
          held = false;
          c.refs--;
          if (copies.get(key) === c) { touch(key, c); evict(); } // kept for the grace from now, then evictable
          else if (c.refs === 0 && copies.get(key)?.path !== c.path) rmSync(c.path, { force: true }); // replaced while held: its file goes with the last reader
        },
      };
    },
    counts: () => ({ files: copies.size, bytes, held: [...copies.values()].filter((c) => c.refs > 0).length }),
  };
}
