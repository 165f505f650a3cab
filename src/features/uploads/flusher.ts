/**
 * Early writeback for an upload's data file: while its parts are being written, one background fdatasync at a
 * time runs on the file every WRITEBACK_EVERY bytes, so the fdatasync that acknowledges each part finds little
 * left to write (without it, 1 GiB of dirty pages was flushed only after the last byte arrived).
 */
import { closeSync, fdatasync, openSync } from 'node:fs';

/** Bytes written to a file (all its parts together) between background flushes. */
export const WRITEBACK_EVERY = 64 << 20;

interface FileFlusher { fd: number; users: number; pending: number; running: Promise<void> | null }
const files = new Map<string, FileFlusher>();

/** A part writer's handle on the file's flusher: report written bytes, release when the part is done. */
export interface FlushHandle { wrote(bytes: number): void; release(): Promise<void> }

/** Joins (or starts) the flusher of `file`; the last release waits for a running flush and closes its fd. */
export function attachFlusher(file: string): FlushHandle {
  let f = files.get(file);
  if (!f) {
    f = { fd: openSync(file, 'r'), users: 0, pending: 0, running: null };
    files.set(file, f);
  }
  const ff = f;
  ff.users++;
  let released = false;
  return {
    wrote(bytes) {
      ff.pending += bytes;
      if (ff.running || ff.pending < WRITEBACK_EVERY) return;
      ff.pending = 0;
      ff.running = new Promise((resolve) => fdatasync(ff.fd, () => { ff.running = null; resolve(); })); // errors: the part's own fdatasync reports them
    },
    async release() {
      if (released) return;
      released = true;
      if (--ff.users > 0) return;
      if (files.get(file) === ff) files.delete(file);
      await ff.running;
      closeSync(ff.fd);
    },
  };
}
