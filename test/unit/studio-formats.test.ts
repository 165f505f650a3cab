/**
 * Studio formats (issue 42): the chart's time labels are precise to the ticks' step and never repeat; the clip
 * cutter's typed times are one 24-hour form in every language.
 */
import { expect, test } from 'bun:test';
import { timeLabels } from '../../assets-ui/studio/chart';

const at = (iso: string) => Date.parse(iso) / 1000;
const TZ = process.env.TZ;

test('ticks 30 s apart over a day-long axis read to the second, each one different (before: 10:00 10:00 10:01 10:01)', () => {
  process.env.TZ = 'UTC';
  const vals = [0, 30, 60, 90].map((s) => at('2026-11-28T10:00:00Z') + s);
  for (const loc of ['en-GB', 'he-IL']) {
    const l = timeLabels(vals, loc);
    expect(new Set(l).size).toBe(4);
    expect(l.every((x) => x !== '')).toBe(true);
    expect(l[1]).toMatch(/00:30/);
  }
  process.env.TZ = TZ;
});

test('hourly ticks read hours and minutes; the date goes under the first tick of each new day; no label repeats', () => {
  const vals = [20, 22, 24, 26].map((h) => at('2026-11-28T00:00:00Z') + h * 3600);
  const l = timeLabels(vals, 'en-GB');
  for (let i = 1; i < l.length; i++) expect(l[i]).not.toBe(l[i - 1]);
  expect(l.filter((x) => x.includes('\n')).length).toBeGreaterThanOrEqual(1);
  for (const x of l) expect(x).toMatch(/^\d{2}:\d{2}/);
});

test('daily ticks read day and month; the same day twice is not written twice', () => {
  const d = at('2026-11-20T00:00:00Z');
  const l = timeLabels([d, d + 86400, d + 2 * 86400], 'he-IL');
  expect(new Set(l).size).toBe(3);
  const same = timeLabels([d, d + 3600, d + 2 * 3600], 'en-GB');
  expect(new Set(same.filter(Boolean)).size).toBe(same.filter(Boolean).length);
});

test('the cutter types times as YYYY-MM-DD HH:MM:SS in every language (no browser-locale date input), and reads them back', async () => {
  const { localInput, parseLocalInput } = await import('../../assets-ui/studio/pages/clip-time');
  const t = new Date(2026, 10, 28, 23, 20, 5).getTime();
  expect(localInput(t)).toBe('2026-11-28 23:20:05');
  expect(parseLocalInput(localInput(t))).toBe(t);
  expect(parseLocalInput('2026-11-28T23:20')).toBe(new Date(2026, 10, 28, 23, 20, 0).getTime());
  for (const partial of ['2026-11-2', '2026-11-28 23', '11/28/2026 11:20 PM', '2026-02-30 10:00:00']) expect(parseLocalInput(partial)).toBeNaN();
});
