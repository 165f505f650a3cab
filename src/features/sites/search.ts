import { prefixVariants, searchTokens } from '../../text/hebrew-search';
import { invalid } from '../../kernel/errors';

/** One searchable item: what it is, its slug, its title and the text searched (title, series, description, tags). */
export interface SearchDoc { type: 'show' | 'video' | 'programme'; slug: string; title: string; text: string; time: number }

/** A ranked hit. */
export interface Hit { doc: SearchDoc; score: number }

/**
 * An in-memory Hebrew-aware inverted index (built once per catalogue snapshot): each word in search form
 * (src/text/hebrew-search.ts: niqqud dropped, finals folded, geresh ignored) is posted under itself (`exact`) and under
 * its copies without 1-3 prefix letters ו ה ב כ ל מ ש (`loose`). A query word matches a document exactly (2 points) or
 * through a stripped prefix on either side (1 point); every query word must match. Ties: newest first.
 */
export class SearchIndex {
  private exact = new Map<string, number[]>();
  private loose = new Map<string, number[]>();
  private terms: string[] = [];

  constructor(readonly docs: SearchDoc[]) {
    docs.forEach((d, i) => {
      const words = new Set(searchTokens(d.text));
      const vars = new Set<string>();
      for (const w of words) { post(this.exact, w, i); for (const v of prefixVariants(w)) vars.add(v); }
      for (const v of vars) post(this.loose, v, i);
    });
    this.terms = [...this.loose.keys()].sort();
  }

  /** Every match of `q` (filtered by `keep`), best first. */
  search(q: string, keep: (d: SearchDoc) => boolean): Hit[] {
    const words = [...new Set(searchTokens(q))].slice(0, 8);
    if (!words.length) return [];
    const score = new Map<number, number>();
    words.forEach((w, k) => {
      const exact = new Set(this.exact.get(w) ?? []);
      const hits = new Set<number>();
      for (const v of prefixVariants(w)) for (const i of this.loose.get(v) ?? []) hits.add(i);
      if (k === 0) { for (const i of hits) score.set(i, exact.has(i) ? 2 : 1); return; }
      for (const [i, s] of score) {
        if (!hits.has(i)) score.delete(i);
        else score.set(i, s + (exact.has(i) ? 2 : 1));
      }
    });
    const out: Hit[] = [];
    for (const [i, s] of score) { const d = this.docs[i]!; if (keep(d)) out.push({ doc: d, score: s }); }
    return out.sort((a, b) => b.score - a.score || b.doc.time - a.doc.time || (a.doc.slug < b.doc.slug ? -1 : 1));
  }

  /** Titles whose words start with the query's last word (the others matched as in search), best first. */
  suggest(q: string, keep: (d: SearchDoc) => boolean, max: number): SearchDoc[] {
    const words = searchTokens(q);
    const last = words.pop();
    if (!last) return [];
    const head = words.length ? new Set(this.search(words.join(' '), keep).map((h) => this.docs.indexOf(h.doc))) : null;
    const seen = new Set<number>();
    const out: SearchDoc[] = [];
    // The sorted terms starting with `last`: a binary search for the first, then forward.
    let lo = 0, hi = this.terms.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.terms[mid]! < last) lo = mid + 1; else hi = mid; }
    const cands: number[] = [];
    for (let k = lo; k < this.terms.length && this.terms[k]!.startsWith(last) && cands.length < 5000; k++) cands.push(...this.loose.get(this.terms[k]!)!);
    const exact = new Set(this.exact.get(last) ?? []);
    const ranked = [...new Set(cands)].filter((i) => (!head || head.has(i)) && keep(this.docs[i]!))
      .sort((a, b) => Number(exact.has(b)) - Number(exact.has(a)) || this.docs[b]!.time - this.docs[a]!.time);
    for (const i of ranked) {
      if (seen.has(i)) continue;
      seen.add(i);
      out.push(this.docs[i]!);
      if (out.length >= max) break;
    }
    return out;
  }
}

function post(m: Map<string, number[]>, k: string, i: number): void {
  const l = m.get(k);
  if (!l) m.set(k, [i]);
  else if (l[l.length - 1] !== i) l.push(i);
}

/** An opaque search cursor: the offset of the next hit, bound to the query (another query's cursor answers 422). */
export function encodeCursor(q: string, type: string, offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, h: Bun.hash(`${q}\u0000${type}`).toString(36) })).toString('base64url');
}

/** Reads a search cursor back (422 `cursor` when malformed or from another query). */
export function decodeCursor(cursor: string | undefined, q: string, type: string): number {
  if (!cursor) return 0;
  const bad = () => invalid('cursor', 'not a cursor of this search');
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  let v: { o?: unknown; h?: unknown };
  try { v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof v; } catch { throw bad(); }
  if (!v || typeof v.o !== 'number' || !Number.isInteger(v.o) || v.o < 0 || v.o > 1_000_000 || v.h !== Bun.hash(`${q}\u0000${type}`).toString(36)) throw bad();
  return v.o;
}
