import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { SegmentIndex } from '../../src/live/segment-index';
import { reconcileChannel } from '../../src/live/reconcile';
import { recordedSpans, segmentTimes } from '../../src/live/lean-read';
import { decodeHourInto, encodeHour, newTimes, timesOf } from '../../src/live/seg-times';
import { openDb } from '../../src/kernel/db/sqlite';
import { segmentRelPath, initPath } from '../../src/live/paths';
import { trimBefore } from '../../src/live/retention';
import { recordedMs, selectRange, selectTimes, spanTimes } from '../../src/features/catchup/coverage';
import type { ChannelRow } from '../../src/features/channels/store';

const ch = { id: 'ch', tenant_id: 'ten', segment_s: 2 };
const H = 3_600_000;

test('encoded hour round-trips starts, durations, discontinuities and inits', () => {
  const h = Date.UTC(2025, 0, 1, 5);
  const rows = [{ start_ms: h, duration_ms: 2000, discontinuity: 1, init_ms: h - 86_400_000 * 30 }, { start_ms: h + 2000, duration_ms: 1960, discontinuity: 0, init_ms: h - 86_400_000 * 30 },
    { start_ms: h + 9000, duration_ms: 2040, discontinuity: 1, init_ms: h + 9000 }];
  const out = newTimes();
  decodeHourInto(h, encodeHour(h, timesOf(rows)), out);
  expect(Array.from(out.start.subarray(0, out.n))).toEqual(rows.map((r) => r.start_ms));
  expect(Array.from(out.dur.subarray(0, out.n))).toEqual(rows.map((r) => r.duration_ms));
  expect(Array.from(out.disc.subarray(0, out.n))).toEqual([1, 0, 1]);
  expect(Array.from(out.init.subarray(0, out.n))).toEqual(rows.map((r) => r.init_ms));
  const t = timesOf(rows);
  for (const [f, to] of [[h + 900, h + 5100], [h + 1100, h + 2900], [h + 2100, h + 2200], [h + 5000, h + 6000]]) {
    expect(Array.from(selectTimes(t, f, to).start)).toEqual(selectRange(rows, f, to).map((r) => r.start_ms));
  }
});

test('lean reads agree with the rows; closed hours get a list that follows changes; spans give the same coverage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-lean-'));
  const db = openDb(join(dir, 'db', 'meta.sqlite'));
  try {
    const t0 = Date.UTC(2025, 0, 1, 22, 59, 0);
    const starts: number[] = [];
    for (let t = t0; t < t0 + 2 * H; t += 2000) if (t < t0 + 1_800_000 || t > t0 + 1_830_000) starts.push(t); // a gap inside hour 23
    for (const s of starts) { const p = join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', s)); mkdirSync(dirname(p), { recursive: true }); writeFileSync(p, 'x'); }
    const ip = initPath(dir, 'ten', 'ch', 'src', t0); mkdirSync(dirname(ip), { recursive: true }); writeFileSync(ip, 'i');
    const index = new SegmentIndex(db, dir);
    reconcileChannel(index, dir, ch);
    const check = (from: number, to: number) => {
      const t = segmentTimes(index, ch, 'src', from, to);
      const rows = index.segmentsInRange(ch, 'src', from, to);
      expect(Array.from(t.start)).toEqual(rows.map((r) => r.start_ms));
      expect(Array.from(t.dur)).toEqual(rows.map((r) => r.duration_ms));
      expect(Array.from(t.disc)).toEqual(rows.map((r) => r.discontinuity));
      expect(Array.from(t.init)).toEqual(rows.map((r) => r.init_ms));
      const wins = [{ from, to }, { from: from + 600_000, to: from + 2_400_000 }];
      expect(recordedMs(spanTimes(recordedSpans(index, ch, 'src', from, to)), wins)).toEqual(recordedMs(rows, wins));
    };
    const spansBefore = recordedSpans(index, ch, 'src', t0, t0 + 2 * H); // unread hours: summaries, materialized where they have breaks
    expect(spansBefore.length).toBeGreaterThanOrEqual(4);
    check(t0 + 30_000, t0 + 90 * 60_000);
    const lists = () => db.query<{ hour_ms: number; n: number }, []>('SELECT hour_ms, n FROM live_hour_lists ORDER BY hour_ms').all();
    expect(lists().map((l) => l.hour_ms)).toEqual([Date.UTC(2025, 0, 1, 22), Date.UTC(2025, 0, 1, 23)]); // not the open (newest) hour
    check(t0 - H, t0 + 3 * H);
    // A file lands in a closed hour behind the index's back: its list goes with its rows and is rebuilt.
    const extra = t0 + 1_810_000;
    writeFileSync(join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', extra)), 'x');
    reconcileChannel(index, dir, ch);
    expect(lists().length).toBe(1);
    check(t0, t0 + 3 * H);
    expect(segmentTimes(index, ch, 'src', extra, extra + 1).start[0]).toBe(extra);
    // Retention trims the first hour file by file: the stale list is not used.
    trimBefore(index, { ...ch, recording_enabled: 1 } as unknown as ChannelRow, t0 + 20_000);
    check(t0, t0 + 3 * H);
  } finally { db.close(); rmSync(dir, { recursive: true, force: true }); }
});
