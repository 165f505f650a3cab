import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashRange } from '../../src/features/uploads/md5-pool';

const dir = mkdtempSync(join(tmpdir(), 'vs-md5-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const md5 = (b: Uint8Array) => new Bun.CryptoHasher('md5').update(b).digest('hex');

test('ranges hashed on worker threads match MD5 of the same bytes, with progress in any step size', async () => {
  const data = new Uint8Array(5 * 1024 * 1024 + 123).map((_, i) => (i * 31) & 255);
  const file = join(dir, 'data');
  writeFileSync(file, data);
  const cases = [[0, data.length], [1000, 3 * 1024 * 1024], [data.length - 7, 7]] as const;
  const digests = await Promise.all(cases.map(async ([at, len]) => {
    const h = hashRange(file, at);
    for (let done = 0; done < len; done += 1_000_003) h.progress(Math.min(done, len));
    return h.finish(len);
  }));
  expect(digests).toEqual(cases.map(([at, len]) => md5(data.subarray(at, at + len))));
});

test('a missing file or a short range rejects at finish; abort leaves nothing pending', async () => {
  await expect(hashRange(join(dir, 'missing'), 0).finish(10)).rejects.toThrow();
  writeFileSync(join(dir, 'short'), 'abc');
  await expect(hashRange(join(dir, 'short'), 0).finish(10)).rejects.toThrow('short read');
  const h = hashRange(join(dir, 'short'), 0);
  h.abort();
  await expect(h.finish(3)).rejects.toThrow();
  expect(await hashRange(join(dir, 'short'), 1).finish(2)).toBe(md5(new TextEncoder().encode('bc')));
});
