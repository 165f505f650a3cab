import { cleanCueText, exportLines, type Cue } from './cue-text';
import { DEFAULT_SUBTITLE_LIMITS, blocks, SubtitleParseError, formatTimestamp, numberedLines, parseTimestamp, type SubtitleLimits } from './subtitle-file';

const TIMING = /^(\S+)[ \t]*-->[ \t]*(\S+)(?:[ \t]+.*)?$/;

/**
 * Parses a SubRip (SRT) file into stored cues (sorted by start; indices, coordinates, `<i>`/`<font>` tags and
 * `{\an8}` blocks dropped). Throws SubtitleParseError naming the line of the first problem.
 */
export function parseSrt(text: string, limits: Partial<SubtitleLimits> = {}): Cue[] {
  const lim = { ...DEFAULT_SUBTITLE_LIMITS, ...limits };
  const lines = numberedLines(text);
  const cues: Cue[] = [];
  for (const block of blocks(lines)) {
    const head = block[0]!;
    const t = /^\s*\d+\s*$/.test(head.s) ? 1 : 0;
    const timing = block[t];
    if (!timing || !timing.s.includes('-->')) {
      throw new SubtitleParseError(timing?.n ?? head.n + 1, t ? 'expected a timing line such as "00:00:01,000 --> 00:00:02,500"' : 'expected a cue number or a timing line');
    }
    const m = TIMING.exec(timing.s.trim());
    const start = m ? parseTimestamp(m[1]!, true) : null, end = m ? parseTimestamp(m[2]!, true) : null;
    if (start === null || end === null) throw new SubtitleParseError(timing.n, `malformed timing "${timing.s.slice(0, 80)}" (expected hh:mm:ss,ttt --> hh:mm:ss,ttt)`);
    if (end <= start) throw new SubtitleParseError(timing.n, 'the cue ends before it starts');
    const payload = block.slice(t + 1);
    const body = cleanCueText(payload.map((l) => l.s).join('\n'));
    if (body.length > lim.maxCueChars) throw new SubtitleParseError(payload[0]!.n, `cue text is ${body.length} characters; at most ${lim.maxCueChars}`);
    if (!body) continue;
    if (cues.length >= lim.maxCues) throw new SubtitleParseError(timing.n, `more than ${lim.maxCues} cues`);
    cues.push({ startMs: start, endMs: end, text: body });
  }
  return cues.map((c, k) => ({ c, k })).sort((a, b) => a.c.startMs - b.c.startMs || a.k - b.k).map((x) => x.c);
}

/** An SRT file from stored cues (numbered from 1, CRLF line ends); RTL lines opened with U+200F as in WebVTT. */
export function serializeSrt(cues: Cue[], o: { language?: string | null } = {}): string {
  return cues.map((c, k) => [String(k + 1), `${formatTimestamp(c.startMs, ',')} --> ${formatTimestamp(c.endMs, ',')}`, ...exportLines(c.text, o.language)].join('\r\n')).join('\r\n\r\n') + '\r\n';
}
