import { describe, expect, test } from 'bun:test';
import { parseXmltv, parseXmltvTime, xmltvToFields, XmltvError } from '../../src/features/guide/xmltv';
import { resolveOverlaps } from '../../src/features/guide/ops';
import { dayRange } from '../../src/features/guide/days';
import { exclusionMatcher } from '../../src/features/guide/exclusions';

const doc = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<tv generator-info-name="x">\n<channel id="ch1"><display-name>One</display-name></channel>\n${body}\n</tv>\n`;

describe('XMLTV', () => {
  test('times with and without offsets', () => {
    expect(parseXmltvTime('20310310120000 +0200')).toBe(Date.parse('2031-03-10T10:00:00Z'));
    expect(parseXmltvTime('203103101200')).toBe(Date.parse('2031-03-10T12:00:00Z'));
    expect(parseXmltvTime('20310310120000 -0130')).toBe(Date.parse('2031-03-10T13:30:00Z'));
    expect(Number.isNaN(parseXmltvTime('2031-03-10'))).toBe(true);
  });

  test('programmes with entities, CDATA, episodes and icons; missing stop takes the next start', () => {
    const x = parseXmltv(doc(`
<programme start="20310310060000 +0000" stop="20310310070000 +0000" channel="ch1"><title lang="he">חדשות &amp; מבזקים</title><desc><![CDATA[A <b>bold</b> day]]></desc><episode-num system="xmltv_ns">1.4.</episode-num><icon src="https://img.example/1.webp"/></programme>
<programme start="20310310070000 +0000" channel="ch1"><title>Open end</title></programme>
<programme start="20310310080000 +0000" stop="20310310090000 +0000" channel="ch1"><title>Last</title><episode-num system="onscreen">S02E03</episode-num></programme>`));
    expect(x.channels).toEqual(['ch1']);
    const f = xmltvToFields(x.programmes, 'ch1');
    expect(f.map((p) => p.title)).toEqual(['חדשות & מבזקים', 'Open end', 'Last']);
    expect(f[0]).toMatchObject({ description: 'A <b>bold</b> day', episode: 'S02E05', series: 'חדשות & מבזקים', images: JSON.stringify({ tile_16x9: 'https://img.example/1.webp' }) });
    expect(f[1].end_ms).toBe(Date.parse('2031-03-10T08:00:00Z'));
    expect(f[2].episode).toBe('S02E03');
  });

  test('malformed documents throw with a reason', () => {
    expect(() => parseXmltv('<html></html>')).toThrow(XmltvError);
    expect(() => parseXmltv(doc('<programme start="20310310060000" channel="ch1"><title>x</title>'))).toThrow(/not closed/);
    expect(() => parseXmltv(doc('<programme start="yesterday" channel="ch1"><title>x</title></programme>'))).toThrow(/unreadable start/);
    expect(() => parseXmltv(doc('<programme start="20310310060000" channel="ch1"></programme>'))).toThrow(/no title/);
    expect(() => parseXmltv(doc('<programme channel="ch1"><title>x</title></programme>'))).toThrow(/no start/);
  });
});

describe('overlaps, days, exclusions', () => {
  test('a later start wins; the earlier programme is cut, or dropped when nothing is left', () => {
    const r = resolveOverlaps([
      { t: 'b', start_ms: 50, end_ms: 150 }, { t: 'a', start_ms: 0, end_ms: 100 }, { t: 'c', start_ms: 150, end_ms: 200 }, { t: 'c2', start_ms: 150, end_ms: 220 },
    ]);
    expect(r.items.map((p) => [p.t, p.start_ms, p.end_ms])).toEqual([['a', 0, 50], ['b', 50, 150], ['c2', 150, 220]]);
    expect(r.resolved).toBe(2);
  });

  test('days in a time zone, DST included', () => {
    expect(dayRange('2031-03-10', 'UTC')).toEqual([Date.parse('2031-03-10T00:00:00Z'), Date.parse('2031-03-11T00:00:00Z')]);
    expect(dayRange('2031-01-10', 'Asia/Jerusalem')[0]).toBe(Date.parse('2031-01-09T22:00:00Z'));
    const [s, e] = dayRange('2031-03-30', 'Europe/London');
    expect(e - s).toBe(23 * 3_600_000);
  });

  test('exclusion patterns: case-insensitive, * wildcard, whole-field otherwise', () => {
    const m = exclusionMatcher([{ field: 'title', pattern: 'Rerun*' }, { field: 'series', pattern: 'Adult' }]);
    expect(m({ title: 'rerun: film', series: null })).toBe(true);
    expect(m({ title: 'The rerun', series: null })).toBe(false);
    expect(m({ title: 'x', series: 'adult' })).toBe(true);
    expect(m({ title: 'x', series: 'Adults only' })).toBe(false);
  });
});
