import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { cleanCueText, fixVisualOrderPunctuation, type Cue } from '../../src/text/cue-text';
import { parseSrt, serializeSrt } from '../../src/text/srt';
import { SubtitleParseError, decodeSubtitleBytes } from '../../src/text/subtitle-file';
import { parseWebVtt, serializeWebVtt } from '../../src/text/webvtt';

// Issue 43: WebVTT and SRT import/export. Errors name the line; stored text is plain, logical order; RTL lines are
// written with U+200F; hostile files are refused or neutralised.

const errOf = (f: () => unknown): SubtitleParseError => {
  try { f(); } catch (e) { if (e instanceof SubtitleParseError) return e; throw e; }
  throw new Error('no error');
};

/** Stored cues: clean text, positive durations, sorted by start. */
const storedCues = fc.array(fc.record({
  startMs: fc.integer({ min: 0, max: 360_000_000 }),
  len: fc.integer({ min: 1, max: 7_000 }),
  text: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 90 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
    fc.constantFrom('שלום, עולם!', 'مرحبا بالعالم.', 'a & b <c> --> d', '<i>x</i>\n\ny', 'NOTE this', '12\n00:00:01,000 --> 00:00:02,000', '&amp;lt;')),
}), { maxLength: 30 }).map((xs) => xs
  .map((x) => ({ startMs: x.startMs, endMs: x.startMs + x.len, text: cleanCueText(x.text) }))
  .filter((c) => c.text && c.text.length <= 1000)
  .sort((a, b) => a.startMs - b.startMs));

describe('round trips (fast-check)', () => {
  test('WebVTT: parse(serialize(cues)) gives the cues back, for any language setting', () => {
    fc.assert(fc.property(storedCues, fc.constantFrom(undefined, 'he', 'en', 'ar'), (cues, language) => {
      expect(parseWebVtt(serializeWebVtt(cues, { language }))).toEqual(cues);
    }), { numRuns: 300 });
  });
  test('SRT: parse(serialize(cues)) gives the cues back', () => {
    fc.assert(fc.property(storedCues, fc.constantFrom(undefined, 'he', 'en'), (cues, language) => {
      expect(parseSrt(serializeSrt(cues, { language }))).toEqual(cues);
    }), { numRuns: 300 });
  });
  test('cleaning is idempotent (what is stored comes back unchanged when cleaned again)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
      expect(cleanCueText(cleanCueText(s))).toBe(cleanCueText(s));
    }), { numRuns: 500 });
  });
});

describe('WebVTT and SRT files', () => {
  test('a real-world WebVTT file: header metadata, NOTE/STYLE, ids, settings, tags and entities', () => {
    const vtt = '\ufeffWEBVTT - news\r\nKind: captions\r\n\r\nSTYLE\r\n::cue { color: yellow }\r\n\r\nNOTE made by hand\r\n\r\n'
      + 'intro\r\n00:01.000 --> 00:03.500 align:start line:90%\r\n<v Anchor><i>Good</i> evening &amp; welcome</v>\r\n\r\n'
      + '01:00:00.000 --> 01:00:02.000\r\n\u200fשלום &lt;3\r\nשורה שנייה\r\n';
    expect(parseWebVtt(vtt)).toEqual([
      { startMs: 1000, endMs: 3500, text: 'Good evening & welcome' },
      { startMs: 3_600_000, endMs: 3_602_000, text: 'שלום <3\nשורה שנייה' },
    ]);
  });

  test('export: U+200F opens each Hebrew/Arabic line; a Hebrew track marks every line; text escaped in WebVTT', () => {
    const cues: Cue[] = [{ startMs: 0, endMs: 1500, text: 'שלום, עולם!\nCNN דיווחה' }, { startMs: 2000, endMs: 3000, text: 'a < b' }];
    expect(serializeWebVtt(cues, { language: 'he' })).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n\u200fשלום, עולם!\n\u200fCNN דיווחה\n\n00:00:02.000 --> 00:00:03.000\n\u200fa &lt; b\n');
    expect(serializeWebVtt(cues, { language: 'en' })).toContain('\n\u200fשלום, עולם!\nCNN דיווחה\n');
    expect(serializeSrt(cues)).toBe('1\r\n00:00:00,000 --> 00:00:01,500\r\n\u200fשלום, עולם!\r\nCNN דיווחה\r\n\r\n2\r\n00:00:02,000 --> 00:00:03,000\r\na < b\r\n');
  });

  test('malformed files: the error names the line', () => {
    expect(errOf(() => parseWebVtt('1\n00:00:01.000 --> 00:00:02.000\nhi\n')).message).toBe('line 1: a WebVTT file starts with "WEBVTT"');
    expect(errOf(() => parseWebVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n\n00:00:03.000 -> 00:00:04.000\nthere\n')).line).toBe(6);
    expect(errOf(() => parseWebVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n\n00:00:05.000 --> 00:00:04.000\nthere\n')).message).toBe('line 6: the cue ends before it starts');
    expect(errOf(() => parseWebVtt('WEBVTT\n\n00:00:01.000 --> 00:01:61.000\nhi\n')).line).toBe(3);
    expect(errOf(() => parseWebVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\n00:00:03.000 --> 00:00:04.000\n')).line).toBe(5);
    expect(errOf(() => parseSrt('1\n00:00:01,000 --> 00:00:02,000\nhi\n\n2\nhello\n')).message).toBe('line 6: expected a timing line such as "00:00:01,000 --> 00:00:02,500"');
    expect(errOf(() => parseSrt('1\n00:00:01,000 --> 00:00:02,000\nhi\n\n2\n0:0:1 --> 0:0:2\nhello\n')).message).toMatch(/^line 6: malformed timing/);
  });

  test('a reversed (visual-order) Hebrew line gets its punctuation back at the end', () => {
    expect(fixVisualOrderPunctuation('.שלום לכם')).toBe('שלום לכם.');
    expect(fixVisualOrderPunctuation('?!מה קרה')).toBe('מה קרה!?');
    expect(fixVisualOrderPunctuation('...hello')).toBe('...hello');
    expect(fixVisualOrderPunctuation('שלום.')).toBe('שלום.');
  });
});

describe('hostile files', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  test('huge, binary and non-UTF-8 files are refused with a reason', () => {
    expect(errOf(() => decodeSubtitleBytes(new Uint8Array(11 * 1024 * 1024))).message).toMatch(/at most 10485760/);
    expect(errOf(() => decodeSubtitleBytes(enc('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhi\0there\n'))).message).toBe('line 4: binary data (control character U+0000)');
    expect(errOf(() => decodeSubtitleBytes(new Uint8Array([0x57, 0x45, 0x42, 0x0a, 0x0a, 0xff, 0xfe, 0xfd]))).message).toBe('line 3: not UTF-8 text (save the file as UTF-8)');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(() => decodeSubtitleBytes(png)).toThrow(SubtitleParseError);
    expect(decodeSubtitleBytes(new Uint8Array([0xff, 0xfe, 0x57, 0, 0x45, 0]))).toBe('WE');
    expect(errOf(() => parseWebVtt('WEBVTT\n\n' + '00:00:01.000 --> 00:00:02.000\nx\n\n'.repeat(11), { maxCues: 10 })).message).toBe('line 33: more than 10 cues');
    expect(errOf(() => parseSrt(`1\n00:00:01,000 --> 00:00:02,000\n${'y'.repeat(1001)}\n`)).message).toBe('line 3: cue text is 1001 characters; at most 1000');
  });

  test('script tags, markup and bidi overrides are neutralised: plain text, no controls, escaped on export', () => {
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<script>alert(1)</script><img src=x onerror=alert(2)>\u202eevil\u202c &#x202E;x &lt;b&gt;bold&lt;/b&gt;\n';
    const [cue] = parseWebVtt(vtt);
    expect(cue!.text).toBe('alert(1)evil x bold');
    const srt = parseSrt('1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<font color="red"><scr<b>ipt>x</script></font>\u2066a\u2069\n');
    expect(srt[0]!.text).toBe('xa');
    const out = serializeWebVtt([{ startMs: 0, endMs: 1000, text: 'a<b>c</b> &' }]);
    expect(out).toContain('a&lt;b&gt;c&lt;/b&gt; &amp;');
    expect(out).not.toMatch(/<|\u202e/);
  });
});
