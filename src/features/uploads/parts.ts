/**
 * Streams one part's body into the upload's data file at the part's offset.
 *
 * Bun 1.3's server applies no TCP backpressure to request bodies: bytes that arrive while the handler awaits
 * anything but `read()` pile up in the process (measured: a part writer awaiting async 1 MiB writes reached
 * 650 MB RSS for 16 x 64 MiB parts). So each chunk is written synchronously (`pwrite` into the page cache)
 * straight after it is read; while the thread is busy the socket is not drained and the kernel throttles the
 * sender. MD5 runs on a worker thread that reads the written range back, beside the receiving thread. The part
 * is fdatasync'd before it is acknowledged; background flushes during the upload (flusher.ts) keep that short.
 */
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { AppError } from '../../kernel/errors';
import { hashRange } from './md5-pool';
import { attachFlusher, type FlushHandle } from './flusher';

/** Bytes written between progress reports to the hashing worker. */
const REPORT_EVERY = 4 << 20;

/** Result of a stored part. */
export interface StoredPart { size: number; etag: string }

function writeAllSync(fd: number, chunk: Uint8Array, at: number): void {
  let done = 0;
  while (done < chunk.byteLength) done += writeSync(fd, chunk, done, chunk.byteLength - done, at + done);
}

function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));
}

function interrupted(got: number, expected: number): AppError {
  return new AppError('conflict', `part body was interrupted after ${got} of ${expected} bytes; send the part again`);
}

/** Writes exactly `expected` bytes from `body` at `offset` of `file`; a short or long body answers 409. */
export async function writePartAt(file: string, offset: number, expected: number, body: ReadableStream<Uint8Array>): Promise<StoredPart> {
  const hash = hashRange(file, offset);
  let fd = -1;
  let flusher: FlushHandle | null = null;
  let got = 0;
  try {
    fd = openSync(file, 'r+');
    flusher = attachFlusher(file);
    const reader = body.getReader();
    let reported = 0;
    for (;;) {
      let r: Awaited<ReturnType<typeof reader.read>>;
      try { r = await reader.read(); } catch { throw interrupted(got, expected); }
      if (r.done) break;
      const chunk = r.value;
      if (got + chunk.byteLength > expected) {
        await reader.cancel().catch(() => {});
        throw new AppError('conflict', `part body is longer than Content-Length (${expected}); send the part again`);
      }
      writeAllSync(fd, chunk, offset + got);
      flusher.wrote(chunk.byteLength);
      got += chunk.byteLength;
      if (got - reported >= REPORT_EVERY) { hash.progress(got); reported = got; }
    }
    if (got !== expected) throw new AppError('conflict', `part body ended after ${got} of ${expected} bytes; send the part again`);
    const [etag, synced] = await Promise.allSettled([hash.finish(got), datasync(fd)]); // both settle before close
    if (synced.status === 'rejected') throw synced.reason;
    if (etag.status === 'rejected') throw etag.reason;
    return { size: got, etag: etag.value };
  } catch (e) {
    hash.abort();
    throw e;
  } finally {
    if (fd >= 0) closeSync(fd);
    await flusher?.release();
  }
}
