import { describe, expect, test } from 'bun:test';
import { parseXmltv, readXmltv, XmltvError } from '../../src/features/guide/xmltv';

const doc = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tv SYSTEM "xmltv.dtd">
<tv generator-info-name="x">
<channel id="a.il"><display-name>A</display-name></channel>
<channel id="b.il"/>
<programme start="20310310060000 +0200" stop="20310310070000 +0200" channel="a.il"><title lang="he">מַהֲדוּרַת הַבֹּקֶר &amp; עוד</title><sub-title>פרק</sub-title><desc><![CDATA[<b>bold</b> & raw]]></desc><episode-num system="xmltv_ns">0.2.</episode-num><icon src="https://img.example/a.webp"/></programme>
<!-- a comment <programme> that is not one -->
<programme start="20310310070000 +0200" channel="b.il"><title>Tom &nbsp; Jerry</title></programme>
<programme start="20310310080000 +0200" stop="20310310090000 +0200" channel="a.il"><title>  Last  </title><episode-num system="onscreen">S9E9</episode-num></programme>
</tv>
`;

/** Feeds bytes in pieces of `size` (multi-byte Hebrew characters get split across pieces). */
async function* pieces(bytes: Uint8Array, size: number) { for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size); }

describe('XMLTV streaming reader', () => {
  const whole = parseXmltv(doc);

  test('reads channels, fields, entities, CDATA, episodes and icons', () => {
    expect(whole.channels).toEqual(['a.il', 'b.il']);
    expect(whole.programmes.map((p) => p.title)).toEqual(['מַהֲדוּרַת הַבֹּקֶר & עוד', 'Tom &nbsp; Jerry', 'Last']);
    expect(whole.programmes[0]).toMatchObject({ subtitle: 'פרק', description: '<b>bold</b> & raw', episode: 'S01E03', icon: 'https://img.example/a.webp', start_ms: Date.parse('2031-03-10T04:00:00Z') });
    expect(whole.programmes[1].end_ms).toBeNull();
    expect(whole.programmes[2].episode).toBe('S9E9');
  });

  test('the same result for every chunk size, from bytes and from a web stream', async () => {
    const bytes = new TextEncoder().encode(doc);
    for (const size of [1, 2, 3, 7, 64, 4096]) expect(await readXmltv(pieces(bytes, size))).toEqual(whole);
    expect(await readXmltv(new Blob([bytes]).stream())).toEqual(whole);
  });

  test('keep: only the asked channel is held, every channel is still listed and checked', async () => {
    const r = await readXmltv(new Blob([doc]).stream(), { keep: (c) => c === 'b.il' });
    expect(r.channels).toEqual(['a.il', 'b.il']);
    expect(r.programmes.map((p) => p.title)).toEqual(['Tom &nbsp; Jerry']);
    const bad = doc.replace('<title>  Last  </title>', '');
    await expect(readXmltv(new Blob([bad]).stream(), { keep: (c) => c === 'b.il' })).rejects.toThrow(/programme 3 has no title/);
  });

  test('malformed documents name the problem', async () => {
    const cases: [string, RegExp][] = [
      ['', /<tv> root element is missing/],
      ['<rss></rss>', /not an XMLTV document/],
      ['<tv><programme start="20310101000000" channel="a"><title>a</title></tv>', /<programme> element is not closed/],
      ['<tv><programme start="20310101000000" channel="a"><title>a</title></programme>', /root element is missing or not closed/],
      ['<tv><programme start="2031" channel="a"><title>a</title></programme></tv>', /programme 1: unreadable start "2031"/],
      ['<tv><programme start="20310101000000" stop="x" channel="a"><title>a</title></programme></tv>', /unreadable stop/],
      ['<tv><programme start="20310101000000"><title>a</title></programme></tv>', /no channel attribute/],
      ['<tv><programme start="20310101000000" channel="a" x="1" x="2"><title>a</title></programme></tv>', /malformed XMLTV \(1:\d+: duplicate attribute: x\.\)/],
    ];
    for (const [xml, re] of cases) {
      await expect(readXmltv(new Blob([xml]).stream())).rejects.toThrow(re);
      await expect(readXmltv(new Blob([xml]).stream())).rejects.toBeInstanceOf(XmltvError);
    }
  });
});
