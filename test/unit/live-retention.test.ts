import { afterEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { openDb, type Db } from '../../src/kernel/db/sqlite';
import { SegmentIndex } from '../../src/live/segment-index';
import { reconcileChannel } from '../../src/live/reconcile';
import { retentionPass } from '../../src/live/retention';
import { initPath, segmentRelPath } from '../../src/live/paths';
import type { ChannelRow } from '../../src/features/channels/store';

let dir = '';
let db: Db | null = null;
afterEach(() => { db?.close(); db = null; rmSync(dir, { recursive: true, force: true }); });

const H = 3_600_000;
const channel = (id: string, retentionHours: number) => ({ id, tenant_id: 'ten', segment_s: 2, recording_enabled: 1, retention_hours: retentionHours, dvr_window_s: 60 }) as ChannelRow;

/** Writes 2 s segment files from `fromMs` to `toMs` (one every `stepMs`) and the run's init segment. */
function record(ch: ChannelRow, fromMs: number, toMs: number, stepMs = 2000): number {
  let n = 0;
  for (let t = fromMs; t < toMs; t += stepMs, n++) {
    const p = join(dir, 'rec', segmentRelPath(ch.tenant_id, ch.id, 'src', t));
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, 'seg');
  }
  const ip = initPath(dir, ch.tenant_id, ch.id, 'src', fromMs);
  mkdirSync(dirname(ip), { recursive: true });
  writeFileSync(ip, 'init');
  return n;
}

function setup(): SegmentIndex {
  dir = mkdtempSync(join(tmpdir(), 'vs-retention-'));
  db = openDb(join(dir, 'db', 'meta.sqlite'));
  return new SegmentIndex(db, dir);
}

test('retention by hours deletes old segment files and whole hour directories; the index follows', () => {
  const index = setup();
  const ch = channel('c1', 2);
  const now = Date.UTC(2025, 5, 1, 12, 30);
  // Two runs: one 5 h ago for an hour, then the last 3 h (one segment every 20 s to keep the tree small).
  record(ch, now - 5 * H, now - 4 * H, 20_000);
  record(ch, now - 3 * H, now, 20_000);
  reconcileChannel(index, dir, ch);
  const before = index.segmentsInRange(ch, 'src', 0, now);
  expect(before.length).toBe(180 + 540);
  const deleted = retentionPass(index, [ch], now);
  const after = index.segmentsInRange(ch, 'src', 0, now);
  expect(deleted).toBe(before.length - after.length);
  // Everything that ended by the cutoff is gone, everything after it is kept.
  const cutoff = now - 2 * H;
  expect(after.every((s) => s.start_ms + s.duration_ms > cutoff)).toBe(true);
  expect(after[0].start_ms).toBeLessThanOrEqual(cutoff);
  expect(after.length).toBe(before.filter((s) => s.start_ms + s.duration_ms > cutoff).length);
  for (const s of before) expect(existsSync(join(dir, 'rec', s.path))).toBe(after.some((a) => a.start_ms === s.start_ms));
  // Sequence numbers of what remains are unchanged; the first run's hour directories and init are gone.
  expect(after[0].seq).toBe(before.find((s) => s.start_ms === after[0].start_ms)!.seq);
  expect(readdirSync(join(dir, 'rec/ten/c1/src/init'))).toEqual([`${now - 3 * H}.mp4`]);
  expect(existsSync(join(dir, 'rec', dirname(before[0].path)))).toBe(false);
  // A restart's reconciliation agrees with what retention left.
  expect(reconcileChannel(index, dir, ch)).toMatchObject({ changed: 0, segments: after.length });
});

test('disk watermark: while the disk is low the oldest hour of any channel goes first, never a live edge', () => {
  const index = setup();
  const a = channel('ca', 24 * 30), b = channel('cb', 24 * 30);
  const now = Date.UTC(2025, 5, 1, 12, 0);
  record(a, now - 6 * H, now - 3 * H, 60_000);
  record(b, now - 4 * H, now, 60_000);
  reconcileChannel(index, dir, a);
  reconcileChannel(index, dir, b);
  const hours = () => [...index.store.hours('ca', 'src'), ...index.store.hours('cb', 'src')].map((h) => `${h.channel_id}:${(now - h.hour_ms) / H}`);
  expect(hours()).toEqual(['ca:6', 'ca:5', 'ca:4', 'cb:4', 'cb:3', 'cb:2', 'cb:1']);
  // Nothing is old enough for retention; the disk is "low" until three hours are freed.
  let checks = 0;
  const deleted = retentionPass(index, [a, b], now, { lowDisk: () => checks++ < 3 });
  expect(deleted).toBe(180);
  expect(hours()).toEqual(['ca:4', 'cb:3', 'cb:2', 'cb:1']); // ca:4 is ca's live edge, so cb:4 went third
  // Still low: the newest hour of each channel (the live edge) is never deleted.
  retentionPass(index, [a, b], now, { lowDisk: () => true });
  expect(hours()).toEqual(['ca:4', 'cb:1']);
  expect(index.segmentsInRange(a, 'src', 0, now).length).toBe(60);
  expect(readdirSync(join(dir, 'rec/ten/ca/src')).sort()).toEqual(['2025', 'init']);
});
