import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CacheIndex, type FillLine } from '../../src/delivery-front/cache-index';
import { cacheFileOf } from '../../src/delivery-front/edge-conf';

// The edge purge's removal (issue 46): the selected keys' cache files go in one pass (slices of synchronous unlinks),
// counted; a key whose file is already gone is selected but not counted; other keys' files stay.
const dir = mkdtempSync(join(tmpdir(), 'vs-edge-purge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('purge by asset removes exactly that asset\'s cache files across many slices and counts them', async () => {
  const tenant = crypto.randomUUID(), asset = crypto.randomUUID(), other = crypto.randomUUID();
  const line = (a: string, i: number): FillLine => ({ k: `f|media/${tenant}/assets/${a}/v1/seg_0_${i}.m4s`, u: `/m/${a}/seg_0_${i}.m4s`, h: 'h', tag: '', ten: tenant, st: 'MISS', s: 200 });
  const mine = Array.from({ length: 700 }, (_, i) => line(asset, i)), theirs = Array.from({ length: 5 }, (_, i) => line(other, i));
  const idx = new CacheIndex(dir);
  idx.add([...mine, ...theirs]);
  const write = (l: FillLine) => { const f = cacheFileOf(dir, l.k); mkdirSync(join(f, '..'), { recursive: true }); writeFileSync(f, 'x'); return f; };
  mine.slice(1).forEach(write); // the first one was evicted by nginx already
  const kept = theirs.map(write);
  const keys = idx.select(tenant, { asset_id: asset });
  expect(keys.length).toBe(700);
  expect(await idx.purge(keys)).toEqual({ keys: 700, removed: 699 });
  expect(mine.some((l) => existsSync(cacheFileOf(dir, l.k)))).toBe(false);
  expect(kept.every((f) => existsSync(f))).toBe(true);
  expect(idx.select(tenant, { asset_id: asset })).toEqual([]);
  expect(idx.size()).toBe(5);
});
