/** The studio guide's client-side arithmetic: zoned days and minutes (DST), drafts applied like the server, the review diff. */
import { describe, expect, test } from 'bun:test';
import { applyDrafts, diff, draftRange, type Draft, type Prog } from '../../assets-ui/studio/pages/guide-model';
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
