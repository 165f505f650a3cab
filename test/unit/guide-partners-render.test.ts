/** Pure parts of the guide to partners (issue 48): XMLTV and JSON times in a zone, the window, template expansion across a DST change. */
import { expect, test } from 'bun:test';
import { localIso, renderJson, renderXmltv, windowOf, xmltvTime } from '../../src/features/guide/destinations-render';
import { expand, isoWeekday, wallTime } from '../../src/features/guide/templates';
import { parseXmltv } from '../../src/features/guide/xmltv';
import type { ChannelRow } from '../../src/features/channels/store';
import type { ProgrammeRow } from '../../src/features/guide/store';

test('times carry the zone offset of their instant (winter +0200, summer +0300) and read back to the same instant', () => {
  const winter = Date.UTC(2026, 0, 15, 18, 0), summer = Date.UTC(2026, 6, 15, 18, 0);
  expect(xmltvTime(winter, 'Asia/Jerusalem')).toBe('20260115200000 +0200');
  expect(xmltvTime(summer, 'Asia/Jerusalem')).toBe('20260715210000 +0300');
  expect(xmltvTime(winter, 'America/New_York')).toBe('20260115130000 -0500');
  expect(localIso(summer, 'Asia/Jerusalem')).toBe('2026-07-15T21:00:00+03:00');
  expect(Date.parse(localIso(summer, 'Asia/Jerusalem'))).toBe(summer);
});

test('the window runs from the start of today minus behind to the end of today plus ahead, in the zone', () => {
  const now = Date.UTC(2026, 0, 15, 23, 30); // 01:30 on the 16th in Jerusalem
  const [from, to] = windowOf(now, 'Asia/Jerusalem', 1, 2);
  expect(localIso(from, 'Asia/Jerusalem')).toBe('2026-01-15T00:00:00+02:00');
  expect(localIso(to, 'Asia/Jerusalem')).toBe('2026-01-19T00:00:00+02:00');
});

test('XMLTV escapes text and reads back with the importer; JSON lists channels with their programmes', () => {
  const ch = { id: 'c1', slug: 'news', name: 'News & <More>' } as ChannelRow;
  const p = { id: 'p1', title: 'A "quoted" & <tagged> title', description: 'line\u0001', series: null, episode: 'S01E02', images: '{"tile_16x9":"https://x/y.jpg?a=1&b=2"}', start_ms: Date.UTC(2026, 0, 1, 10), end_ms: Date.UTC(2026, 0, 1, 11) } as ProgrammeRow;
  const xml = renderXmltv([{ channel: ch, programmes: [p] }], 'Asia/Jerusalem');
  const doc = parseXmltv(xml);
  expect(doc.channels).toEqual(['news']);
  expect(doc.programmes[0]).toMatchObject({ title: p.title, start_ms: p.start_ms, end_ms: p.end_ms, episode: 'S01E02', icon: 'https://x/y.jpg?a=1&b=2', description: 'line' });
  const json = JSON.parse(renderJson([{ channel: ch, programmes: [p] }], 'UTC', p.start_ms, p.end_ms));
  expect(json.channels[0]).toMatchObject({ slug: 'news', programmes: [{ id: 'p1', start: '2026-01-01T10:00:00+00:00', images: { tile_16x9: 'https://x/y.jpg?a=1&b=2' } }] });
});

test('template slots are wall-clock times: 06:00 stays 06:00 across the spring change; weekdays are ISO', () => {
  expect(isoWeekday('2026-03-23')).toBe(1); // a Monday
  expect(isoWeekday('2026-03-29')).toBe(7);
  // Israel moves to summer time on Friday 2026-03-27.
  expect(localIso(wallTime('2026-03-26', '06:00', 'Asia/Jerusalem'), 'Asia/Jerusalem')).toBe('2026-03-26T06:00:00+02:00');
  expect(localIso(wallTime('2026-03-28', '06:00', 'Asia/Jerusalem'), 'Asia/Jerusalem')).toBe('2026-03-28T06:00:00+03:00');
  const made = expand([1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '06:00', duration_minutes: 60, title: 'Morning' })), '2026-03-23', '2026-03-29', 'Asia/Jerusalem');
  expect(made.length).toBe(7);
  expect(made.every((p) => localIso(p.start_ms, 'Asia/Jerusalem').slice(11, 16) === '06:00')).toBe(true);
  // Overlapping slots resolve like an import: the later start wins, the earlier is cut.
  const o = expand([{ weekday: 1, start: '06:00', duration_minutes: 120, title: 'A' }, { weekday: 1, start: '07:00', duration_minutes: 60, title: 'B' }], '2026-03-23', '2026-03-23', 'UTC');
  expect(o.map((p) => [p.title, (p.end_ms - p.start_ms) / 60_000])).toEqual([['A', 60], ['B', 60]]);
});
