import type { nameParsers } from './hours';

/** Lists one hour directory and writes its summary as 4 numbers at `out[o..o+4)`: n (0: no segment, -1: unlistable), first, last, inner. */
export type ListHour = (path: string, targetMs: number, inits: number[], out: Float64Array, o: number) => void;

/**
 * An hour lister for one thread. Self-contained like `nameParsers` (no imports, nothing outside it): hour-worker.ts
 * embeds this very code from its source text, so both threads list hours the same way.
 *
 * On Linux (x64, arm64) with glibc it reads the directory with getdents64 through bun:ffi into one reused 256 KiB
 * buffer (an hour of 2 s segments is ~72 KiB: one call, then the end) and parses the names from the bytes
 * (`segmentNameMsAt`), so no string is made per file; what is left is the kernel's own listing cost. Elsewhere,
 * or when `native` is false or the library cannot be loaded, it lists with readdirSync and `summarizeNames`. Both
 * give the same summary: names are matched by the same rule, and the summary comes from `summarizeStarts`.
 */
export function hourLister(parsers: typeof nameParsers, native = true): { listHour: ListHour; native: boolean } {
  const { summarizeNames, summarizeStarts, segmentNameMsAt } = parsers();
  const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
  // O_CLOEXEC (the same value on x64 and arm64 Linux): a child spawned meanwhile by another thread never inherits the fd.
  const O_DIR = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | 0o2000000;

  const load = (): ((fd: number, buf: Uint8Array, len: number) => number) | null => {
    if (!native || process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return null;
    try {
      const ffi = process.getBuiltinModule('bun:ffi') as typeof import('bun:ffi');
      const lib = ffi.dlopen('libc.so.6', { getdents64: { args: ['i32', 'ptr', 'u64'], returns: ffi.FFIType.i64_fast } });
      const fn = lib.symbols.getdents64;
      return (fd, buf, len) => Number(fn(fd, buf, len));
    } catch { return null; }
  };
  const getdents = load();

  const write = (s: { n: number; first: number; last: number; inner: number } | null, out: Float64Array, o: number) => {
    if (!s) { out[o] = 0; return; }
    out[o] = s.n; out[o + 1] = s.first; out[o + 2] = s.last; out[o + 3] = s.inner;
  };

  const viaReaddir: ListHour = (path, targetMs, inits, out, o) => {
    let names: string[];
    try { names = fs.readdirSync(path); } catch { out[o] = -1; return; }
    write(summarizeNames(names, targetMs, inits), out, o);
  };
  if (!getdents) return { listHour: viaReaddir, native: false };

  const buf = new Uint8Array(256 * 1024);
  let starts = new Float64Array(4096);
  /** Appends the segment starts named in `len` bytes of linux_dirent64 records; -1 on a malformed record. */
  const parse = (len: number, n: number): number => {
    // A record is at least 24 bytes (19 of header, a name, its NUL, aligned to 8): room for every record of this read.
    if (starts.length < n + Math.ceil(len / 24)) { const s = new Float64Array(2 * (n + Math.ceil(len / 24))); s.set(starts.subarray(0, n)); starts = s; }
    for (let p = 0; p < len;) {
      const reclen = buf[p + 16] | (buf[p + 17] << 8);
      if (reclen < 20 || p + reclen > len) return -1;
      const ms = segmentNameMsAt(buf, p + 19);
      if (ms >= 0) starts[n++] = ms;
      p += reclen;
    }
    return n;
  };
  const listHour: ListHour = (path, targetMs, inits, out, o) => {
    let fd: number;
    try { fd = fs.openSync(path, O_DIR); } catch { out[o] = -1; return; }
    let n = 0;
    try {
      for (let len = getdents(fd, buf, buf.length); len !== 0 && n >= 0; len = getdents(fd, buf, buf.length)) n = len < 0 ? -1 : parse(len, n);
    } finally { fs.closeSync(fd); }
    // The kernel refused (or answered something unexpected): list it the portable way rather than guess.
    if (n < 0) return viaReaddir(path, targetMs, inits, out, o);
    write(summarizeStarts(starts, n, targetMs, inits), out, o);
  };
  return { listHour, native: true };
}
