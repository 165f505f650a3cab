import { visibleLength } from './cue-text';

/** Words that open a phrase: a line break before them reads naturally (English and Hebrew function words). */
const PHRASE_START = new Set([
  'and', 'or', 'but', 'because', 'so', 'that', 'which', 'who', 'when', 'where', 'while', 'if', 'to', 'of', 'in', 'on',
  'at', 'for', 'with', 'from', 'about', 'after', 'before',
  'של', 'עם', 'על', 'אל', 'כי', 'אבל', 'או', 'אם', 'גם', 'כאשר', 'לכן', 'אשר', 'אחרי', 'לפני', 'בגלל', 'כדי', 'אך',
]);
/** Words that should not end a line (they belong with what follows). */
const CLINGING = new Set(['a', 'an', 'the', 'of', 'to', 'in', 'on', 'at', 'my', 'your', 'his', 'her', 'our', 'their', 'של', 'את', 'עם', 'על']);

const bare = (w: string) => w.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

/** Cost of ending a line after `words[k-1]` (before `words[k]`): low at punctuation and phrase starts. */
function breakCost(words: string[], k: number): number {
  const before = words[k - 1]!, after = words[k]!;
  let c = 0;
  if (/[.!?…]["'”’)]*$/.test(before)) c -= 30;
  else if (/[,;:–—]["'”’)]*$/.test(before)) c -= 20;
  if (PHRASE_START.has(bare(after))) c -= 8;
  if (CLINGING.has(bare(before))) c += 12;
  return c;
}

/**
 * Lays words out on at most `maxLines` lines of at most `maxChars` visible characters each, or null when they do not
 * fit. One line when they fit on one; otherwise the break with the lowest cost: at punctuation and phrase starts, lines
 * of similar length (a longer bottom line preferred), never after an article or a clinging preposition when avoidable.
 */
export function breakLines(words: string[], maxChars: number, maxLines: number): string[] | null {
  if (!words.length) return [];
  const one = words.join(' ');
  if (visibleLength(one) <= maxChars) return [one];
  if (maxLines <= 1) return null;
  let best: { cost: number; lines: string[] } | null = null;
  for (let k = 1; k < words.length; k++) {
    const first = words.slice(0, k).join(' ');
    const l1 = visibleLength(first);
    if (l1 > maxChars) break;
    const rest = breakLines(words.slice(k), maxChars, maxLines - 1);
    if (!rest) continue;
    const l2 = visibleLength(rest[0]!);
    const cost = Math.abs(l1 - l2) + (l1 > l2 ? 3 : 0) + breakCost(words, k) + (rest.length - 1) * 10;
    if (!best || cost < best.cost) best = { cost, lines: [first, ...rest] };
  }
  return best?.lines ?? null;
}
