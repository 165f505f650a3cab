import { PROBE_H, PROBE_W } from '../../media/args/watermark';

/**
 * Reading a session's A/B sequence back from a leaked copy, and naming the session (pure arithmetic; the frames come
 * from media/watermark-probe.ts). Per segment the leaked frame's statistic (mean luma of the left half minus the right
 * half) is compared with the same statistic of the A and B frames at the same time: nearer to B reads 1, nearer to
 * A reads 0; a segment whose A and B frames hardly differ (or that the copy does not cover) reads nothing.
 */

/** The mark's statistic of a probe frame: mean luma of the left half minus the right half. */
export function halves(f: Uint8Array): number {
  let l = 0, r = 0;
  const half = PROBE_W / 2;
  for (let y = 0; y < PROBE_H; y++) for (let x = 0; x < PROBE_W; x++) { if (x < half) l += f[y * PROBE_W + x]; else r += f[y * PROBE_W + x]; }
  return (l - r) / (half * PROBE_H);
}

/** Smallest A-B separation (luma levels) a segment needs to be read. */
export const MIN_SEPARATION = 0.5;

/** One segment as read: its number (from 1) and the bit, or null (not covered, or A and B too close to tell). */
export interface ReadBit { n: number; bit: 0 | 1 | null; leak: number | null; a: number; b: number }

/** Reads the bits of a leaked copy from its probe frames and the A and B frames of the same segments. */
export function readBits(leak: (Uint8Array | null)[], a: Uint8Array[], b: Uint8Array[]): ReadBit[] {
  return a.map((fa, i) => {
    const sa = halves(fa), sb = halves(b[i]), fl = leak[i];
    const sl = fl ? halves(fl) : null;
    const bit = sl === null || Math.abs(sa - sb) < MIN_SEPARATION ? null : Math.abs(sl - sb) < Math.abs(sl - sa) ? 1 : 0;
    return { n: i + 1, bit, leak: sl === null ? null : +sl.toFixed(3), a: +sa.toFixed(3), b: +sb.toFixed(3) };
  });
}

/** log10 of P(X >= k) for X ~ Binomial(n, 1/2): the chance that an unrelated session matches k of n bits. */
export function log10Tail(n: number, k: number): number {
  if (k <= 0) return 0;
  // Sum in log space (n up to thousands): log10 C(n,i) accumulated term by term.
  let logC = 0, acc = -Infinity;
  const add = (x: number, y: number) => (x === -Infinity ? y : Math.max(x, y) + Math.log10(1 + 10 ** -Math.abs(x - y)));
  for (let i = 0; i <= n; i++) {
    if (i >= k) acc = add(acc, logC);
    logC += Math.log10(n - i) - Math.log10(i + 1);
  }
  return acc - n * Math.log10(2);
}

/** One candidate session's score. */
export interface Scored { sid: string; matched: number; of: number; confidence: number; false_match_log10: number }

/**
 * Scores every candidate session against the read bits: matches over the bits read, and the confidence that a match
 * this good is not chance: 1 − (candidates × P(an unrelated session matches as many)), Bonferroni over the candidates.
 * Best first.
 */
export function scoreSessions(bits: ReadBit[], sids: string[], bitOf: (sid: string, n: number) => 0 | 1): Scored[] {
  const read = bits.filter((b): b is ReadBit & { bit: 0 | 1 } => b.bit !== null);
  const n = read.length;
  const logS = Math.log10(Math.max(1, sids.length));
  return sids.map((sid) => {
    const matched = read.reduce((c, b) => c + (bitOf(sid, b.n) === b.bit ? 1 : 0), 0);
    const lp = Math.min(0, log10Tail(n, matched) + logS);
    return { sid, matched, of: n, confidence: n ? Math.max(0, 1 - 10 ** lp) : 0, false_match_log10: +lp.toFixed(2) };
  }).sort((x, y) => y.matched - x.matched || x.sid.localeCompare(y.sid));
}
