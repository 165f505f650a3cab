/**
 * Cue text as we store it: logical order, plain text (no markup), lines joined by `\n`. Everything that comes in
 * (uploads, engines, edits) goes through `cleanCueText`; exports add what a format or a player needs.
 */

/** One timed cue: `text` holds its lines joined by `\n`. */
export interface Cue { startMs: number; endMs: number; text: string }

/** Explicit bidi controls (embeddings, overrides, isolates, marks) and the Arabic letter mark: never stored. */
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/g;
/** C0/C1 controls except the newline, and other invisible formatting that could hide or reorder text. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\ufff9-\ufffb]/g;
/** WebVTT/SRT/HTML-style tags (`<i>`, `<v Ann>`, `<script>`, `<00:00:01.000>`) and ASS override blocks (`{\an8}`). */
const TAG = /<[^<>\n]*>|\{\\[^{}\n]*\}/g;

/**
 * Plain stored text from any incoming cue text: well-formed Unicode in NFC, tags and override blocks removed (their
 * inner text stays), bidi and control characters removed, `\r\n` to `\n`, runs of blanks to one space, lines trimmed,
 * empty lines dropped, `...` as one `…`.
 */
export function cleanCueText(s: string): string {
  let t = s.toWellFormed().normalize('NFC').replace(/\r\n?/g, '\n');
  // Repeat until stable: removing one tag can join the halves of another (`<scr<b>ipt>`).
  for (let prev = ''; prev !== t;) { prev = t; t = t.replace(TAG, ''); }
  t = t.replace(BIDI, '').replace(CONTROL, '').replace(/\.\.\./g, '…');
  return t.normalize('NFC').split('\n').map((l) => l.replace(/[^\S\n]+/g, ' ').trim()).filter(Boolean).join('\n');
}

/** Characters a reader reads: code points without combining marks (niqqud) and format characters. */
export function visibleLength(s: string): number {
  let n = 0;
  for (const ch of s.replace(/[\p{M}\p{Cf}\n]/gu, '')) { void ch; n++; }
  return n;
}

/** Characters counted for reading speed: visible characters with each line break read as a space. */
export function readingChars(text: string): number {
  return visibleLength(text.replace(/\n/g, ' '));
}

const RTL_LANGS = new Set(['he', 'iw', 'ar', 'fa', 'ur', 'yi', 'ps', 'dv', 'ckb', 'sd', 'ug']);
/** Whether a BCP 47 language is written right to left. */
export function isRtlLanguage(tag: string | null | undefined): boolean {
  return !!tag && RTL_LANGS.has(tag.toLowerCase().split(/[-_]/)[0]!);
}

const STRONG_RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
const STRONG = /[\p{L}]/u;
/** Whether the first strong character of `line` is right to left (Hebrew, Arabic). */
export function startsRtl(line: string): boolean {
  for (const ch of line) if (STRONG.test(ch)) return STRONG_RTL.test(ch);
  return false;
}

/**
 * Lines for export: in a right-to-left track every line, elsewhere each line whose first strong character is RTL,
 * starts with U+200F (RIGHT-TO-LEFT MARK) so players put punctuation on the right side (Subtitle Edit's fix).
 */
export function exportLines(text: string, language?: string | null): string[] {
  const rtl = isRtlLanguage(language);
  return text.split('\n').map((l) => (rtl || startsRtl(l) ? `\u200f${l}` : l));
}

/**
 * Repairs a right-to-left line saved in visual order by an old tool: punctuation that belongs at the end stands at the
 * start (`.שלום`, `?מה קרה`). Returns the line in logical order; other lines come back unchanged.
 */
export function fixVisualOrderPunctuation(line: string): string {
  const m = /^([.,!?:;…]+)(.*?)$/u.exec(line);
  if (!m || !startsRtl(m[2]!) || /[.,!?:;…]$/.test(m[2]!)) return line;
  return `${m[2]!.trim()}${[...m[1]!].reverse().join('')}`;
}
