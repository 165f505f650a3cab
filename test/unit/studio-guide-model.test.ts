/** The studio guide's client-side arithmetic: zoned days and minutes (DST), drafts applied like the server, the review diff, block lanes. */
import { describe, expect, test } from 'bun:test';
import { applyDrafts, changedFields, diff, draftRange, type Draft, type Prog } from '../../assets-ui/studio/pages/guide-model';
import { lanes, place } from '../../assets-ui/studio/pages/guide-lanes';
import { addDays, at, dayKey, fromLocalInput, localInput, minuteOfDay, snap } from '../../assets-ui/studio/pages/guide-time';

const H = 3_600_000;
const p = (id: string, s: number, e: number, title = id): Prog => ({ id, title, start_ms: s, end_ms: e, description: null, series: null, episode: null, source: 'api' });
const d = (change: Draft['change']): Draft => ({ id: `d-${Math.random()}`, change, created_at: '2031-01-01T00:00:00Z' });

describe('guide time', () => {
  test('wall-clock minutes in a zone, across a DST change', () => {
    expect(at('2031-03-10', 20 * 60, 'UTC')).toBe(Date.parse('2031-03-10T20:00:00Z'));
    expect(at('2031-01-10', 0, 'Asia/Jerusalem')).toBe(Date.parse('2031-01-09T22:00:00Z'));
    expect(at('2031-07-10', 0, 'Asia/Jerusalem')).toBe(Date.parse('2031-07-09T21:00:00Z'));
    // Europe/London springs forward on 2031-03-30 at 01:00 UTC: 09:00 that day is 08:00 UTC.
    expect(at('2031-03-30', 9 * 60, 'Europe/London')).toBe(Date.parse('2031-03-30T08:00:00Z'));
    expect(minuteOfDay(Date.parse('2031-03-30T08:05:00Z'), 'Europe/London')).toBe(9 * 60 + 5);
    expect(dayKey(Date.parse('2031-01-09T22:30:00Z'), 'Asia/Jerusalem')).toBe('2031-01-10');
    expect(addDays('2031-12-31', 1)).toBe('2032-01-01');
    expect(fromLocalInput(localInput(Date.parse('2031-05-01T17:35:00Z'), 'Asia/Jerusalem'), 'Asia/Jerusalem')).toBe(Date.parse('2031-05-01T17:35:00Z'));
    expect([snap(62), snap(57), snap(-3)]).toEqual([60, 55, -5]);
  });
});

describe('drafts and the review diff', () => {
  const pub = [p('a', 0, 2 * H), p('b', 2 * H, 3 * H), p('c', 5 * H, 6 * H)];
  test('create trims what it overlaps; patch moves; delete removes; replace swaps a range', () => {
    const out = applyDrafts(pub, [
      d({ op: 'create', programme: p('n', H, 2.5 * H) }),
      d({ op: 'patch', id: 'c', fields: { start_ms: 7 * H, end_ms: 8 * H } }),
      d({ op: 'delete', id: 'b' }),
    ]);
    expect(out.map((x) => [x.id, x.start_ms / H, x.end_ms / H])).toEqual([['a', 0, 1], ['n', 1, 2.5], ['c', 7, 8]]);
    const marks = diff(pub, out).map((c) => [c.mark, (c.after ?? c.before)!.id]);
    expect(marks).toEqual([['changed', 'a'], ['added', 'n'], ['removed', 'b'], ['changed', 'c']]);
    const rep = applyDrafts(pub, [d({ op: 'replace', kind: 'import', from: 2 * H, to: 6 * H, programmes: [p('x', 2 * H, 4 * H)] })]);
    expect(rep.map((x) => x.id)).toEqual(['a', 'x']);
    expect(draftRange([d({ op: 'create', programme: p('n', H, 2.5 * H) }), d({ op: 'delete', id: 'b' })])).toEqual([H, 2.5 * H]);
  });
});

describe('what a change changed', () => {
  test('a description-only change is a description change, not a time change; each field is named', () => {
    const before = { ...p('a', 23 * H, 23.5 * H, 'Late news'), description: 'old' };
    expect(changedFields(before, { ...before, description: 'new' })).toEqual(['description']);
    expect(changedFields(before, { ...before, title: 'Night news', series: 'Nights' })).toEqual(['title', 'series']);
    expect(changedFields(before, { ...before, end_ms: 24 * H, episode: '7' })).toEqual(['time', 'episode']);
    expect(changedFields(before, { ...before })).toEqual([]);
    const c = diff([before], [{ ...before, description: null }]);
    expect(c.map((x) => [x.mark, x.fields])).toEqual([['changed', ['description']]]);
  });
});

describe('blocks of a day column', () => {
  test('lanes: overlapping extents share the width, apart each has all of it, a freed lane is reused', () => {
    const l = lanes([{ key: 'film', top: 1200, bottom: 1260 }, { key: 'a', top: 1400, bottom: 1422 }, { key: 'b', top: 1405, bottom: 1435 }]);
    expect([l.get('film'), l.get('a'), l.get('b')]).toEqual([{ lane: 0, of: 1 }, { lane: 0, of: 2 }, { lane: 1, of: 2 }]);
    expect([...lanes([{ key: 'a', top: 0, bottom: 60 }, { key: 'b', top: 60, bottom: 120 }]).values()]).toEqual([{ lane: 0, of: 1 }, { lane: 0, of: 1 }]);
    const m = lanes([{ key: 'a', top: 0, bottom: 22 }, { key: 'b', top: 5, bottom: 27 }, { key: 'c', top: 22, bottom: 44 }]);
    expect([m.get('a'), m.get('b'), m.get('c')]).toEqual([{ lane: 0, of: 2 }, { lane: 1, of: 2 }, { lane: 0, of: 2 }]);
  });

  test('a 5-minute programme is one line tall; the programme after it starts below it, both full width; the shift stays under a line', () => {
    // 23:20-23:25 then 23:25-23:55 then 23:55-00:30 (1 px a minute, a line is 22 px).
    const p = place([{ key: 'short', top: 1400, bottom: 1405 }, { key: 'news', top: 1405, bottom: 1435 }, { key: 'late', top: 1435, bottom: 1470 }], 22);
    expect([p.get('short'), p.get('news'), p.get('late')]).toEqual([
      { top: 1400, bottom: 1422, lane: 0, of: 1 }, { top: 1422, bottom: 1444, lane: 0, of: 1 }, { top: 1444, bottom: 1470, lane: 0, of: 1 }]);
    // Back-to-back 5-minute bulletins cannot all be pushed (they would drift down the day): they go side by side.
    const b = place([{ key: 'b1', top: 600, bottom: 605 }, { key: 'b2', top: 605, bottom: 610 }, { key: 'b3', top: 610, bottom: 615 }], 22);
    expect([...b.values()].every((x) => x.bottom - x.top >= 22 && x.top <= 610)).toBe(true);
    expect(new Set([...b.values()].map((x) => x.lane)).size).toBeGreaterThan(1);
    // A true overlap (a draft) is never pushed: side by side.
    const o = place([{ key: 'x', top: 0, bottom: 60 }, { key: 'y', top: 30, bottom: 90 }], 22);
    expect([o.get('x'), o.get('y')]).toEqual([{ top: 0, bottom: 60, lane: 0, of: 2 }, { top: 30, bottom: 90, lane: 1, of: 2 }]);
  });
});
