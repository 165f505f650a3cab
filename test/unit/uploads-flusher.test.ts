import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachFlusher, WRITEBACK_EVERY } from '../../src/features/uploads/flusher';

const dir = mkdtempSync(join(tmpdir(), 'vs-flush-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const openFds = () => readdirSync('/proc/self/fd').length;

test('parts of one file share one flusher fd; the last release waits for a running flush and closes it', async () => {
  const file = join(dir, 'data');
  writeFileSync(file, new Uint8Array(1024));
  const before = openFds();
  const a = attachFlusher(file);
  const b = attachFlusher(file);
  expect(openFds()).toBe(before + 1);
  a.wrote(WRITEBACK_EVERY / 2);
  b.wrote(WRITEBACK_EVERY / 2); // crosses the threshold: a background fdatasync starts
  await a.release();
  await a.release(); // twice is harmless
  expect(openFds()).toBe(before + 1); // b still holds it
  await b.release();
  expect(openFds()).toBe(before);
});
