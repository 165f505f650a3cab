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
  readonly docs: SearchDoc[];
  private exact = new Map<string, Int32Array>();
  private loose = new Map<string, Int32Array>();
  private terms: string[] = [];
  private acc: Uint16Array;
  private mark: Uint8Array;

  /** Documents are kept newest first, so a posting list (ascending) is already in time order. */
  constructor(docs: SearchDoc[]) {
    this.docs = [...docs].sort((a, b) => b.time - a.time);
    const exact = new Map<string, number[]>(), loose = new Map<string, number[]>();
    // Words repeat across titles: each raw word is put in search form once.
    const memo = new Map<string, { words: string[]; vars: string[] }>();
    this.docs.forEach((d, i) => {
      for (const raw of d.text.split(/\s+/)) {
        if (!raw) continue;
        let m = memo.get(raw);
        if (!m) {
          // Plain ASCII letters and digits need no normalising (most unique words are numbers and Latin names).
          const words = /^[A-Za-z0-9]+$/.test(raw) ? [raw.toLowerCase()] : searchTokens(raw);
          m = { words, vars: [...new Set(words.flatMap(prefixVariants))] };
          if (memo.size > 500_000) memo.clear();
          memo.set(raw, m);
        }
        for (const w of m.words) post(exact, w, i);
        for (const v of m.vars) post(loose, v, i);
      }
    });
    for (const [k, l] of exact) this.exact.set(k, Int32Array.from(l));
    for (const [k, l] of loose) this.loose.set(k, Int32Array.from(l));
    this.terms = [...this.loose.keys()].sort();
    this.acc = new Uint16Array(this.docs.length);
    this.mark = new Uint8Array(this.docs.length);
  }

  /** Indexes of the documents matching every query word, with their scores in `acc` (2 exact, 1 through a prefix, summed). */
  private match(words: string[]): Int32Array {
    let cand: Int32Array | null = null;
    const { acc, mark } = this;
    for (const w of words) {
      const list: number[] = [];
      for (const v of prefixVariants(w)) {
        const l = this.loose.get(v);
        if (l) for (let j = 0; j < l.length; j++) { const i = l[j]!; if (!mark[i]) { mark[i] = 1; list.push(i); } }
      }
      const ex = this.exact.get(w);
      if (ex) for (let j = 0; j < ex.length; j++) mark[ex[j]!] = 2;
      if (!cand) { cand = Int32Array.from(list); for (let j = 0; j < cand.length; j++) acc[cand[j]!] = mark[cand[j]!]!; }
      else {
        const next: number[] = [];
        for (let j = 0; j < cand.length; j++) { const i = cand[j]!; if (mark[i]) { acc[i]! += mark[i]!; next.push(i); } else acc[i] = 0; }
        cand = Int32Array.from(next);
      }
      for (let j = 0; j < list.length; j++) mark[list[j]!] = 0;
      if (!cand.length) break;
    }
    return cand ?? new Int32Array(0);
  }

  /**
   * The matches of `q` kept by `keep`, best first (higher score, then newer): their number and the `count` from `from`.
   * Only the page is built: scores live in a typed array walked in document (time) order once per score present.
   */
  page(q: string, keep: (d: SearchDoc) => boolean, from: number, count: number): { total: number; hits: Hit[] } {
    const words = [...new Set(searchTokens(q))].slice(0, 8);
    if (!words.length) return { total: 0, hits: [] };
    const cand = this.match(words);
    const { acc } = this;
    const levels = new Uint8Array(2 * words.length + 1);
    for (let j = 0; j < cand.length; j++) levels[acc[cand[j]!]!] = 1;
    let total = 0;
    const hits: Hit[] = [];
    for (let sc = levels.length - 1; sc > 0; sc--) {
      if (!levels[sc]) continue;
      for (let i = 0; i < acc.length; i++) {
        if (acc[i] !== sc) continue;
        const d = this.docs[i]!;
        if (!keep(d)) continue;
        if (total >= from && hits.length < count) hits.push({ doc: d, score: sc });
        total++;
      }
    }
    for (let j = 0; j < cand.length; j++) acc[cand[j]!] = 0;
    return { total, hits };
  }

  /** Every match of `q` (filtered by `keep`), best first. */
  search(q: string, keep: (d: SearchDoc) => boolean): Hit[] {
    return this.page(q, keep, 0, Number.MAX_SAFE_INTEGER).hits;
  }

  /** Titles whose words start with the query's last word (the others matched as in search), best first. */
  suggest(q: string, keep: (d: SearchDoc) => boolean, max: number): SearchDoc[] {
    const words = searchTokens(q);
    const last = words.pop();
    if (!last) return [];
    const head = words.length ? new Set(this.match(words)) : null;
    if (head) for (const i of head) this.acc[i] = 0;
    // The sorted terms starting with `last`: a binary search for the first, then forward.
    let lo = 0, hi = this.terms.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (this.terms[mid]! < last) lo = mid + 1; else hi = mid; }
    const exact = new Set(this.exact.get(last) ?? []);
    const cands = new Set<number>();
    for (let k = lo; k < this.terms.length && this.terms[k]!.startsWith(last) && cands.size < 5000; k++) for (const i of this.loose.get(this.terms[k]!)!) cands.add(i);
    const ranked = [...cands].filter((i) => (!head || head.has(i)) && keep(this.docs[i]!))
      .sort((a, b) => Number(exact.has(b)) - Number(exact.has(a)) || a - b);
    return ranked.slice(0, max).map((i) => this.docs[i]!);
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
