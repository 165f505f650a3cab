/** Shared parts of the subtitle file formats (WebVTT, SRT): errors that name the line, decoding, limits, times. */

/** A malformed or refused subtitle file; `line` is 1-based (0: the file as a whole). */
export class SubtitleParseError extends Error {
  constructor(readonly line: number, readonly reason: string) {
    super(line > 0 ? `line ${line}: ${reason}` : reason);
    this.name = 'SubtitleParseError';
  }
}

/** Limits on what an import accepts. */
export interface SubtitleLimits { maxBytes: number; maxCues: number; maxCueChars: number }
/** Default limits: 10 MiB, 100,000 cues (a 24-hour channel day at one cue every second), 1,000 characters a cue. */
export const DEFAULT_SUBTITLE_LIMITS: Readonly<SubtitleLimits> = Object.freeze({ maxBytes: 10 * 1024 * 1024, maxCues: 100_000, maxCueChars: 1000 });

/**
 * The text of an uploaded file: UTF-8 (a BOM is dropped) or UTF-16 with a BOM; refused when larger than `maxBytes`,
 * not valid text, or binary (a NUL or other C0 control besides tab, CR, LF, FF), naming the first bad line.
 */
export function decodeSubtitleBytes(bytes: Uint8Array, limits: Partial<SubtitleLimits> = {}): string {
  const max = limits.maxBytes ?? DEFAULT_SUBTITLE_LIMITS.maxBytes;
  if (bytes.length > max) throw new SubtitleParseError(0, `file is ${bytes.length} bytes; at most ${max} are accepted`);
  let text: string;
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    else text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    // Name the line of the first byte sequence that is not UTF-8.
    const good = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    const at = good.indexOf('\ufffd');
    throw new SubtitleParseError(lineAt(good, Math.max(0, at)), 'not UTF-8 text (save the file as UTF-8)');
  }
  const bad = /[\u0000-\u0008\u000b\u000e-\u001f]/.exec(text);
  if (bad) throw new SubtitleParseError(lineAt(text, bad.index), `binary data (control character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()})`);
  return text;
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Parses `[hh:]mm:ss.ttt` (WebVTT, `sep` '.') or `hh:mm:ss,ttt` (SRT, '.' also accepted) to ms, or null. */
export function parseTimestamp(s: string, requireHours: boolean): number | null {
  const m = /^(?:(\d{1,4}):)?([0-5]?\d):([0-5]\d)[.,](\d{1,3})$/.exec(s.trim());
  if (!m || (requireHours && m[1] === undefined)) return null;
  const ms = Number(m[4]!.padEnd(3, '0'));
  return ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + ms;
}

/** `hh:mm:ss.ttt` (or with `,` for SRT) from ms. */
export function formatTimestamp(ms: number, sep: '.' | ','): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000), m = Math.floor(t / 60_000) % 60, s = Math.floor(t / 1000) % 60;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(h)}:${p(m)}:${p(s)}${sep}${p(t % 1000, 3)}`;
}

/** The lines of a text with any line ending, each with its 1-based number. */
export function numberedLines(text: string): { n: number; s: string }[] {
  return text.replace(/^\ufeff/, '').split(/\r\n|\r|\n/).map((s, i) => ({ n: i + 1, s }));
}

/** A numbered line of a subtitle file. */
export type NumberedLine = { n: number; s: string };

/**
 * The blocks of a subtitle file (runs of non-blank lines) from line index `from` on, in order: what WebVTT and SRT
 * both split their cues by.
 */
export function* blocks(lines: NumberedLine[], from = 0): Generator<NumberedLine[]> {
  let i = from;
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.s.trim() === '') i++;
    if (i >= lines.length) return;
    const block: NumberedLine[] = [];
    while (i < lines.length && lines[i]!.s.trim() !== '') block.push(lines[i++]!);
    yield block;
  }
}
