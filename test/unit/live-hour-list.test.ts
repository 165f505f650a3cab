import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDb } from '../../src/kernel/db/sqlite';
import { hourLister } from '../../src/live/hour-list';
import { nameParsers } from '../../src/live/hours';
import { reconcileChannel, reconcileChannelAsync } from '../../src/live/reconcile';
import { SegmentIndex } from '../../src/live/segment-index';
import { initPath, segmentRelPath } from '../../src/live/paths';

const listers = { native: hourLister(nameParsers, true), portable: hourLister(nameParsers, false) };
const list = (native: boolean, path: string, target: number, inits: number[]) => {
  const out = new Float64Array(4);
  listers[native ? 'native' : 'portable'].listHour(path, target, inits, out, 0);
  return [...out];
};

test('the native hour lister (getdents64, names parsed from bytes) summarises as readdir does, odd names included', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-hourlist-'));
  try {
    const h = Date.UTC(2025, 0, 1, 7);
    const odd = ['1.m4s', '123456789012345.m4s', '1234567890123456.m4s', `${h}.m4s.tmp`, `${h}.m4`, `${h}.m4sx`, `x${h}.m4s`, `${h}x.m4s`, '.m4s', 'a'.repeat(250), `${h + 7}.mp4`];
    const small = join(dir, 'small');
    mkdirSync(small);
    for (const n of odd) writeFileSync(join(small, n), '');
    for (let t = h; t < h + 60_000; t += 2000) writeFileSync(join(small, `${t}.m4s`), '');
    writeFileSync(join(small, `${h + 600_000}.m4s`), ''); // a gap: one inner break
    // More records than one 256 KiB read holds (~40 bytes each): several getdents64 calls.
    const big = join(dir, 'big');
    mkdirSync(big);
    for (let i = 0; i < 8000; i++) writeFileSync(join(big, `${h + i * 400}.m4s`), '');
    writeFileSync(join(big, `${h + 9_000_000}.m4s`), '');
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'file'), '');
    if (process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64')) expect(listers.native.native).toBe(true);
    expect(listers.portable.native).toBe(false);
    for (const p of [small, big, join(dir, 'empty'), join(dir, 'file'), join(dir, 'missing')]) {
      for (const inits of [[], [h - 1000], [h - 1000, h + 30_000]]) expect(list(true, p, 2000, inits)).toEqual(list(false, p, 2000, inits));
    }
    expect(list(true, small, 2000, [h - 1000])).toEqual([33, 1, 123456789012345, 3]); // 1.m4s and the 15-digit name count; 16 digits do not
    expect(list(true, big, 2000, [])).toEqual([8001, h, h + 9_000_000, 1]);
    expect(list(true, join(dir, 'empty'), 2000, [])[0]).toBe(0);
    expect(list(true, join(dir, 'file'), 2000, [])[0]).toBe(-1);
    expect(list(true, join(dir, 'missing'), 2000, [])[0]).toBe(-1);
  } finally { rmSync(dir, { recursive: true, force: true }); }
}, 60_000);

test('a rebuild on worker threads leaves the same hour summaries as the one on the calling thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-hourpool-'));
  const ch = { id: 'ch', tenant_id: 'ten', segment_s: 2 };
  const dbs = [openDb(join(dir, 'db1', 'meta.sqlite')), openDb(join(dir, 'db2', 'meta.sqlite'))];
  try {
    const t0 = Date.UTC(2025, 0, 1, 0, 0, 3);
    const inits = [t0, t0 + 30 * 3_600_000 + 1234];
    for (const i of inits) { const p = initPath(dir, 'ten', 'ch', 'src', i); mkdirSync(dirname(p), { recursive: true }); writeFileSync(p, 'i'); }
    // 72 hours of 20 segments each at their start, with a gap inside some hours and whole hours missing.
    for (let hr = 0; hr < 80; hr++) {
      if (hr % 13 === 5) continue;
      for (let k = 0; k < 20; k++) {
        const s = t0 + hr * 3_600_000 + k * 2000 + (hr % 7 === 0 && k >= 10 ? 30_000 : 0);
        const p = join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', s));
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, '');
      }
    }
    const sync = reconcileChannel(new SegmentIndex(dbs[0], dir), dir, ch);
    // The manifests the first rebuild wrote are dropped, so the second lists every hour too (on the workers).
    for (const d of ['01', '02', '03', '04']) rmSync(join(dir, 'rec', 'ten', 'ch', 'src', '2025', '01', d, 'hours.json'), { force: true });
    const pooled = await reconcileChannelAsync(new SegmentIndex(dbs[1], dir), dir, ch);
    expect(pooled).toEqual(sync);
    expect(sync.listed).toBe(74);
    // Both wrote the day manifests: a third rebuild from nothing lists only the newest (open) hour.
    const dbs3 = openDb(join(dir, 'db3', 'meta.sqlite'));
    try {
      expect(reconcileChannel(new SegmentIndex(dbs3, dir), dir, ch)).toMatchObject({ hours: 74, listed: 1 });
      expect(dbs3.query('SELECT * FROM live_hours ORDER BY hour_ms').all()).toEqual(dbs[0].query('SELECT * FROM live_hours ORDER BY hour_ms').all());
    } finally { dbs3.close(); }
    const rows = (db: (typeof dbs)[0]) => db.query('SELECT * FROM live_hours ORDER BY hour_ms').all();
    expect(rows(dbs[1])).toEqual(rows(dbs[0]));
  } finally { for (const db of dbs) db.close(); rmSync(dir, { recursive: true, force: true }); }
});
