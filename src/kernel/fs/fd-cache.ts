import { closeSync, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

/** What a file is: the identity a cached descriptor must still match (a replaced or rewritten file does not). */
type Identity = Pick<Stats, 'dev' | 'ino' | 'size' | 'mtimeMs'>;
type Entry = Identity & { fd: number; used: number };

/** Options of `fdCache`. */
export interface FdCacheOptions {
  /** The HTTP server's idle timeout (seconds): a stalled answer is cut by then, which bounds the grace below. */
  idleTimeoutS: number;
  /** Most descriptors kept open for answers (least recently used go first); default 1/16 of the open-file limit, at most 512. */
  max?: number;
  /** Most retired descriptors waiting out their grace (default 1/8 of the limit, at most 4,096); past it new files are
   * answered by path (no new descriptor). */
  maxCooling?: number;
  /** A descriptor not used for this long is retired, so a deleted file's space is not held (default 60 s). */
  idleMs?: number;
  /** Milliseconds clock (tests). */
  now?: () => number;
}

/** Open descriptors for whole-file answers (`Bun.file(fd)`), retired safely. */
export interface FdCache {
  /** The body of a whole-file answer for `path` whose stat is `st`: a kept descriptor when it still matches. */
  body(path: string, st: Identity): Blob;
  /** Retires descriptors idle too long and closes retired ones whose grace has passed (also done on every `body`). */
  sweep(): void;
  /** Descriptors open for answers and retired ones still waiting (for tests and diagnostics). */
  counts(): { open: number; cooling: number };
}

const O_CLOEXEC = 0o2000000;
/**
 * Smallest file the runtime sends from a descriptor with `sendfile` at an offset of its own (Bun 1.3.14 and 1.4.5). Below it
 * the runtime read()s the descriptor from its current position, so a second answer from the same descriptor would
 * be empty: those files are answered by path. `test/unit/fd-cache.test.ts` checks this bound against the runtime.
 */
export const SENDFILE_MIN_BYTES = 1024 * 1024;

/** A function that atomically turns a descriptor into /dev/null (dup3 onto it), or null where libc is not loadable. */
function nullifier(): ((fd: number) => boolean) | null {
  if (process.platform !== 'linux') return null;
  try {
    // bun:ffi is part of the runtime; dup3 is the only call made through it (node:fs has no dup2/dup3).
    const { dlopen, FFIType } = require('bun:ffi') as typeof import('bun:ffi');
    const libc = dlopen('libc.so.6', { dup3: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
    const devnull = openSync('/dev/null', 'r');
    return (fd) => libc.symbols.dup3(devnull, fd, O_CLOEXEC) === fd;
  } catch {
    return null;
  }
}

/** This process's open-file limit (Bun raises the soft limit to the hard one at start), or null when unknown. */
function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const n = Number(line?.split(/\s+/)[3]);
    return Number.isFinite(n) && n > 0 ? n : null; // "unlimited" is not a number
  } catch {
    return null;
  }
}

const same = (a: Identity, b: Identity) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;

/**
 * Keeps files of at least `SENDFILE_MIN_BYTES` that are answered whole open between answers: `Bun.file(fd)` sends
 * with one `sendfile` and no open, fstat and close on the runtime's thread pool per answer (2 MB segment, 64
 * connections, bare Bun.serve: 1,380 vs 1,100 req/s).
 *
 * The runtime keeps no reference of its own to the descriptor and says nothing when an answer has been sent, so a
 * descriptor is never simply closed: closing it while an answer is still being sent and opening another file (which
 * gets the same number) sends the rest of the answer from the other file. A descriptor that is evicted or no longer
 * matches its file is first turned into /dev/null in place (`dup3`, atomic): an answer still reading from it fails
 * at its next read and the client sees a cut answer, never other bytes. Its number is closed, and so made reusable,
 * only after a grace longer than twice the server's idle timeout (plus its 4 s timer granularity): by then every
 * answer that had it either read again (and failed) or sent nothing for an idle timeout and was closed.
 * Null where the runtime cannot call `dup3` (then answers use the path, as before).
 */
export function fdCache(o: FdCacheOptions): FdCache | null {
  const nullify = nullifier();
  if (!nullify) return null;
  // A share of the descriptor limit, so kept and retired descriptors never starve the rest of the process (a cache
  // per delivery feature: VOD and live), e.g. 1,024 -> 64 kept and 128 retired per cache.
  const limit = openFileLimit() ?? 1024;
  const max = o.max ?? Math.min(512, Math.floor(limit / 16)), maxCooling = o.maxCooling ?? Math.min(4096, Math.floor(limit / 8));
  const graceMs = (2 * o.idleTimeoutS + 8) * 1000;
  const now = o.now ?? (() => performance.now());
  const open = new Map<string, Entry>();
  const cooling: { fd: number; at: number }[] = [];
  /** Unused descriptors that could not be turned into /dev/null stay open for good (never reused while live). */
  const pinned: number[] = [];
  const retire = (path: string, e: Entry) => {
    open.delete(path);
    if (nullify(e.fd)) cooling.push({ fd: e.fd, at: now() });
    else pinned.push(e.fd);
  };
  const idleMs = o.idleMs ?? 60_000;
  let idleCheck = 0;
  const sweep = () => {
    let n = 0;
    const t = now();
    // Least recently used first (Map order): retire the ones idle too long (a deleted segment is never asked for again).
    if (t - idleCheck >= 1000) {
      idleCheck = t;
      for (const [p, e] of open) { if (t - e.used < idleMs) break; retire(p, e); }
    }
    while (n < cooling.length && t - cooling[n].at >= graceMs) { try { closeSync(cooling[n].fd); } catch { /* gone */ } n++; }
    if (n) cooling.splice(0, n);
  };
  return {
    body(path, st) {
      sweep();
      const e = open.get(path);
      if (e) {
        if (same(e, st)) { e.used = now(); open.delete(path); open.set(path, e); return Bun.file(e.fd); } // most recently used last
        retire(path, e);
      }
      if (st.size < SENDFILE_MIN_BYTES || cooling.length >= maxCooling) return Bun.file(path);
      let fd: number;
      try { fd = openSync(path, 'r'); } catch { return Bun.file(path); }
      // Opened after the caller's stat: it must be the same file (never handed out, so closing it now is safe).
      let now2: Stats;
      try { now2 = fstatSync(fd); } catch { closeSync(fd); return Bun.file(path); }
      if (!same(now2, st)) { closeSync(fd); return Bun.file(path); }
      open.set(path, { fd, dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, used: now() });
      if (open.size > max) { const [p, old] = open.entries().next().value as [string, Entry]; retire(p, old); }
      return Bun.file(fd);
    },
    sweep,
    counts: () => ({ open: open.size, cooling: cooling.length + pinned.length }),
  };
}
