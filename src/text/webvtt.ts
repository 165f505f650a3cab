import { cleanCueText, exportLines, type Cue } from './cue-text';
import { DEFAULT_SUBTITLE_LIMITS, blocks, SubtitleParseError, formatTimestamp, numberedLines, parseTimestamp, type SubtitleLimits } from './subtitle-file';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };

/** WebVTT cue text to stored text: tags dropped, character references decoded, then `cleanCueText`. */
function payloadText(lines: string[]): string {
  const raw = lines.join('\n').replace(/<[^<>\n]*>/g, '');
  const decoded = raw.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (all, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
  return cleanCueText(decoded);
}

const TIMING = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+.*)?$/;

/**
 * Parses a WebVTT file into stored cues (sorted by start; cue settings, ids, NOTE/STYLE/REGION blocks and markup are
 * dropped). Throws SubtitleParseError naming the line of the first problem.
 */
export function parseWebVtt(text: string, limits: Partial<SubtitleLimits> = {}): Cue[] {
  const lim = { ...DEFAULT_SUBTITLE_LIMITS, ...limits };
  const lines = numberedLines(text);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0]?.s ?? '')) throw new SubtitleParseError(1, 'a WebVTT file starts with "WEBVTT"');
  const cues: Cue[] = [];
  let i = 1;
  while (i < lines.length && lines[i]!.s.trim() !== '') {
    if (lines[i]!.s.includes('-->')) throw new SubtitleParseError(lines[i]!.n, 'a blank line must follow the WEBVTT header');
    i++;
  }
  for (const block of blocks(lines, i)) {
    const head = block[0]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(head.s)) continue;
    if (!head.s.includes('-->') && /^\s*[\d:.,]+\s*-+>/.test(head.s)) throw new SubtitleParseError(head.n, `malformed cue timing "${head.s.slice(0, 80)}" (expected [hh:]mm:ss.ttt --> [hh:]mm:ss.ttt)`);
    const t = head.s.includes('-->') ? 0 : 1;
    const timing = block[t];
    if (!timing || !timing.s.includes('-->')) throw new SubtitleParseError(timing?.n ?? head.n + 1, 'expected a cue timing line such as "00:00:01.000 --> 00:00:02.500"');
    const m = TIMING.exec(timing.s.trim());
    const start = m ? parseTimestamp(m[1]!, false) : null, end = m ? parseTimestamp(m[2]!, false) : null;
    if (start === null || end === null) throw new SubtitleParseError(timing.n, `malformed cue timing "${timing.s.slice(0, 80)}" (expected [hh:]mm:ss.ttt --> [hh:]mm:ss.ttt)`);
    if (end <= start) throw new SubtitleParseError(timing.n, 'the cue ends before it starts');
    const payload = block.slice(t + 1);
    const arrow = payload.find((l) => l.s.includes('-->'));
    if (arrow) throw new SubtitleParseError(arrow.n, 'a cue timing line inside cue text (is a blank line missing?)');
    const body = payloadText(payload.map((l) => l.s));
    if (body.length > lim.maxCueChars) throw new SubtitleParseError(payload[0]!.n, `cue text is ${body.length} characters; at most ${lim.maxCueChars}`);
    if (!body) continue;
    if (cues.length >= lim.maxCues) throw new SubtitleParseError(timing.n, `more than ${lim.maxCues} cues`);
    cues.push({ startMs: start, endMs: end, text: body });
  }
  return cues.map((c, k) => ({ c, k })).sort((a, b) => a.c.startMs - b.c.startMs || a.k - b.k).map((x) => x.c);
}

const escapeVtt = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A WebVTT file from stored cues: text escaped (`&`, `<`, `>`), lines of right-to-left text (all lines for an RTL
 * `language`) opened with U+200F.
 */
export function serializeWebVtt(cues: Cue[], o: { language?: string | null } = {}): string {
  let out = 'WEBVTT\n';
  for (const c of cues) {
    out += `\n${formatTimestamp(c.startMs, '.')} --> ${formatTimestamp(c.endMs, '.')}\n`;
    out += `${exportLines(c.text, o.language).map(escapeVtt).join('\n')}\n`;
  }
  return out;
}
