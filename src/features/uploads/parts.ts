/**
 * Streams one part's body into the upload's data file at the part's offset: MD5 computed on the way, writes
 * batched through one 1 MiB buffer (a part is never held in memory), fsync before the part is acknowledged.
 */
import { open } from 'node:fs/promises';
import { AppError } from '../../kernel/errors';

const BATCH = 1 << 20;

/** Result of a stored part. */
export interface StoredPart { size: number; etag: string }

/** Writes exactly `expected` bytes from `body` at `offset` of `file`; a short or long body answers 409. */
export async function writePartAt(file: string, offset: number, expected: number, body: ReadableStream<Uint8Array>): Promise<StoredPart> {
  const fh = await open(file, 'r+');
  const md5 = new Bun.CryptoHasher('md5');
  const buf = Buffer.allocUnsafe(Math.min(BATCH, Math.max(expected, 1)));
  let fill = 0;
  let pos = offset;
  let got = 0;
  const flush = async () => {
    let done = 0;
    while (done < fill) {
      const { bytesWritten } = await fh.write(buf, done, fill - done, pos + done);
      done += bytesWritten;
    }
    pos += fill;
    fill = 0;
  };
  try {
    const reader = body.getReader();
    for (;;) {
      let r: Awaited<ReturnType<typeof reader.read>>;
      try { r = await reader.read(); } catch (e) {
        throw new AppError('conflict', `part body was interrupted after ${got} of ${expected} bytes; send the part again`);
      }
      if (r.done) break;
      let chunk = r.value;
      got += chunk.byteLength;
      if (got > expected) {
        await reader.cancel().catch(() => {});
        throw new AppError('conflict', `part body is longer than Content-Length (${expected}); send the part again`);
      }
      md5.update(chunk);
      while (chunk.byteLength) {
        const n = Math.min(chunk.byteLength, buf.byteLength - fill);
        buf.set(chunk.subarray(0, n), fill);
        fill += n;
        chunk = chunk.subarray(n);
        if (fill === buf.byteLength) await flush();
      }
    }
    if (fill) await flush();
    if (got !== expected) throw new AppError('conflict', `part body ended after ${got} of ${expected} bytes; send the part again`);
    await fh.sync();
    return { size: got, etag: md5.digest('hex') };
  } finally {
    await fh.close();
  }
}
