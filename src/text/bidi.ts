/**
 * Bidirectional-text isolation for user text shown inside other text (page titles, headings): a title holding a
 * right-to-left override (U+202E) or a stray isolate must not reorder what stands around it.
 */

const LRE = 0x202a, RLE = 0x202b, PDF = 0x202c, LRO = 0x202d, RLO = 0x202e;
const LRI = 0x2066, RLI = 0x2067, FSI = 0x2068, PDI = 0x2069;

/**
 * Balances the explicit directional controls of `s` (UAX #9): a PDF with no open embedding or override before it and
 * a PDI with no open isolate are dropped, and whatever is still open at the end is closed (PDF for embeddings and
 * overrides, PDI for isolates), so the text cannot close a wrapper around it nor leave anything open after it.
 */
export function balanceBidi(s: string): string {
  const stack: ('e' | 'i')[] = [];
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c === LRE || c === RLE || c === LRO || c === RLO) stack.push('e');
    else if (c === LRI || c === RLI || c === FSI) stack.push('i');
    else if (c === PDF) {
      if (stack[stack.length - 1] !== 'e') continue;
      stack.pop();
    } else if (c === PDI) {
      const at = stack.lastIndexOf('i');
      if (at < 0) continue;
      // A PDI also closes the embeddings opened inside its isolate.
      stack.length = at;
    }
    out += ch;
  }
  for (let i = stack.length - 1; i >= 0; i--) out += stack[i] === 'e' ? '\u202c' : '\u2069';
  return out;
}

/**
 * `s` as a first-strong isolate (U+2068 … U+2069), balanced inside: for places that cannot hold markup, such as
 * `<title>` or a plain-text line. In HTML bodies wrap the (escaped) text in `<bdi>` instead.
 */
export function isolate(s: string): string {
  return s ? `\u2068${balanceBidi(s)}\u2069` : s;
}
