import { prefixVariants, searchTokens } from '../../text/hebrew-search';
import { invalid } from '../../kernel/errors';

/** One searchable item: what it is, its slug, its title and the text searched (title, series, description, tags). */
export interface SearchDoc { type: 'show' | 'video' | 'programme'; slug: string; title: string; text: string; time: number }

/** A ranked hit. */
export interface Hit { doc: SearchDoc; score: number }

/** The identity of a document across catalogue snapshots. */
const keyOf = (d: SearchDoc) => `${d.type}:${d.slug}`;
/** The canonical order: newest first, then by identity (so an updated index and a fresh build order ties alike). */
const before = (a: SearchDoc, b: SearchDoc) => b.time - a.time || (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0);

/**
 * An in-memory Hebrew-aware inverted index: each word in search form (src/text/hebrew-search.ts: niqqud dropped, finals
 * folded, geresh ignored) is posted under itself (`exact`) and under its copies without 1-3 prefix letters ו ה ב כ ל מ ש
 * (`loose`). A query word matches a document exactly (2 points) or through a stripped prefix on either side (1 point);
 * every query word must match. Ties: newest first, then by type and slug.
 *
 * Documents live in slots (append-only; a removed or changed document leaves a dead slot, compacted by a rebuild once a
 * quarter of the slots are dead), so `update` applies only the changed documents of a new catalogue snapshot: each is
 * tokenised once, and the posting lists (ascending slot numbers) only grow at their end.
 */
export class SearchIndex {
  private slots: (SearchDoc | null)[] = [];
  private bySlot = new Map<string, number>();
  private exact = new Map<string, number[]>();
  private loose = new Map<string, number[]>();
  private terms: string[] = [];
  /** Live slots in the canonical order, and each slot's place in it. */
  private order = new Int32Array(0);
  private rank = new Int32Array(0);
  private acc = new Uint16Array(0);
  private mark = new Uint8Array(0);
  /** 1 for a slot holding a live document. */
  private alive = new Uint8Array(0);
  /** Scratch for a query word's matches. */
  private buf = new Int32Array(0);
  private dead = 0;
  private memo = new Map<string, { words: string[]; vars: string[] }>();

  /** A full build over `docs`. */
  constructor(docs: SearchDoc[]) { this.rebuild(docs); }

  /** The live documents in the canonical order (newest first). */
  get docs(): SearchDoc[] { return Array.from(this.order, (i) => this.slots[i]!); }

  /** How many documents the last `update` re-indexed (0 when nothing changed); -1 when it rebuilt whole. */
  lastChanged = -1;

  /**
   * Brings the index to `docs` (a new catalogue snapshot) by applying only what changed: documents gone or changed leave
   * their slot, new or changed ones get a new slot. Answers are the same as a fresh `new SearchIndex(docs)`.
   */
  update(docs: SearchDoc[]): void {
    const next = new Map<string, SearchDoc>();
    for (const d of docs) next.set(keyOf(d), d);
    // Repeated identities (never in a catalogue) or many dead slots: a full build keeps answers and memory right.
    if (next.size !== docs.length || this.dead * 4 > this.slots.length + 1000) { this.rebuild(docs); return; }
    let changed = 0; // documents gone; changed and new ones are those left in `next`
    for (const [k, i] of this.bySlot) {
      const d = next.get(k), cur = this.slots[i]!;
      if (d && cur.text === d.text && cur.title === d.title && cur.time === d.time) { this.slots[i] = d; next.delete(k); continue; }
      // Gone or changed: its slot dies (a changed document is added again below).
      this.slots[i] = null; this.dead++; this.bySlot.delete(k); if (!d) changed++;
    }
    this.lastChanged = changed + next.size;
    if (!this.lastChanged) return;
    const fresh = new Set<string>();
    const first = this.slots.length;
    for (const d of next.values()) this.add(d, fresh);
    if (fresh.size < 2000) for (const t of fresh) this.terms.splice(lowerBound(this.terms, t), 0, t);
    else this.terms = [...this.loose.keys()].sort();
    this.reorder(first);
  }

  private rebuild(docs: SearchDoc[]): void {
    this.slots = []; this.bySlot = new Map(); this.exact = new Map(); this.loose = new Map(); this.dead = 0;
    const sorted = [...docs].sort(before);
    for (const d of sorted) if (!this.bySlot.has(keyOf(d))) this.add(d, null);
    this.terms = [...this.loose.keys()].sort();
    this.order = new Int32Array(0);
    this.reorder(0);
    this.lastChanged = -1;
  }

  private add(d: SearchDoc, fresh: Set<string> | null): void {
    const i = this.slots.length;
    this.slots.push(d);
    this.bySlot.set(keyOf(d), i);
    // Words repeat across titles: each raw word is put in search form once.
    for (const raw of d.text.split(/\s+/)) {
      if (!raw) continue;
      let m = this.memo.get(raw);
      if (!m) {
        // Plain ASCII letters and digits need no normalising (most unique words are numbers and Latin names).
        const words = /^[A-Za-z0-9]+$/.test(raw) ? [raw.toLowerCase()] : searchTokens(raw);
        m = { words, vars: [...new Set(words.flatMap(prefixVariants))] };
        if (this.memo.size > 500_000) this.memo.clear();
        this.memo.set(raw, m);
      }
      for (const w of m.words) post(this.exact, w, i);
      for (const v of m.vars) if (post(this.loose, v, i) && fresh) fresh.add(v);
    }
  }

  private kill(i: number): void {
    if (this.slots[i]) { this.slots[i] = null; this.dead++; }
  }

  /**
   * The canonical order of the live slots, and scratch arrays sized to the slots: the live part of the previous order
   * (already sorted) merged with the slots from `first` on (new documents, sorted among themselves).
   */
  private reorder(first: number): void {
    const { slots } = this;
    if (this.alive.length < slots.length) { const a = new Uint8Array(slots.length * 2); a.set(this.alive); this.alive = a; }
    for (let i = 0; i < slots.length; i++) this.alive[i] = slots[i] ? 1 : 0;
    const old = this.order.filter((i) => !!slots[i]);
    const added: number[] = [];
    for (let i = first; i < slots.length; i++) if (slots[i]) added.push(i);
    added.sort((a, b) => before(slots[a]!, slots[b]!));
    const order = new Int32Array(old.length + added.length);
    let a = 0, b = 0, k = 0;
    while (a < old.length || b < added.length) {
      order[k++] = b >= added.length || (a < old.length && before(slots[old[a]!]!, slots[added[b]!]!) <= 0) ? old[a++]! : added[b++]!;
    }
    this.order = order;
    if (this.rank.length < slots.length) this.rank = new Int32Array(slots.length * 2);
    for (let j = 0; j < order.length; j++) this.rank[order[j]!] = j;
    if (this.acc.length < slots.length) {
      this.acc = new Uint16Array(slots.length * 2); this.mark = new Uint8Array(slots.length * 2); this.buf = new Int32Array(slots.length * 2);
    }
  }

  /** Slots of the live documents matching every query word, with their scores in `acc` (2 exact, 1 through a prefix, summed). */
  private match(words: string[]): Int32Array {
    let cand: Int32Array | null = null;
    const { acc, mark, alive, buf } = this;
    for (const w of words) {
      let n = 0;
      for (const v of prefixVariants(w)) {
        const l = this.loose.get(v);
        if (l) for (let j = 0; j < l.length; j++) { const i = l[j]!; if (!mark[i] && alive[i]) { mark[i] = 1; buf[n++] = i; } }
      }
      const ex = this.exact.get(w);
      if (ex) for (let j = 0; j < ex.length; j++) if (mark[ex[j]!]) mark[ex[j]!] = 2;
      if (!cand) { cand = buf.slice(0, n); for (let j = 0; j < n; j++) acc[cand[j]!] = mark[cand[j]!]!; }
      else {
        let m = 0;
        for (let j = 0; j < cand.length; j++) { const i = cand[j]!; if (mark[i]) { acc[i]! += mark[i]!; cand[m++] = i; } else acc[i] = 0; }
        cand = cand.subarray(0, m);
      }
      for (let j = 0; j < n; j++) mark[buf[j]!] = 0;
      if (!cand.length) break;
    }
    return cand ?? new Int32Array(0);
  }

  /**
   * The matches of `q` kept by `keep`, best first (higher score, then the canonical order): their number and the `count`
   * from `from`. A few candidates are sorted; many are bucketed by score and walked in the canonical order.
   */
  page(q: string, keep: (d: SearchDoc) => boolean, from: number, count: number): { total: number; hits: Hit[] } {
    const words = [...new Set(searchTokens(q))].slice(0, 8);
    if (!words.length) return { total: 0, hits: [] };
    const cand = this.match(words);
    const { acc, rank, order, slots } = this;
    let total = 0;
    const hits: Hit[] = [];
    if (cand.length * 16 < order.length) {
      const sorted = Array.from(cand).sort((a, b) => acc[b]! - acc[a]! || rank[a]! - rank[b]!);
      for (const i of sorted) {
        const d = slots[i]!;
        if (!keep(d)) continue;
        if (total >= from && hits.length < count) hits.push({ doc: d, score: acc[i]! });
        total++;
      }
    } else {
      const levels = new Uint8Array(2 * words.length + 1);
      for (let j = 0; j < cand.length; j++) levels[acc[cand[j]!]!] = 1;
      for (let sc = levels.length - 1; sc > 0; sc--) {
        if (!levels[sc]) continue;
        for (let k = 0; k < order.length; k++) {
          const i = order[k]!;
          if (acc[i] !== sc) continue;
          const d = slots[i]!;
          if (!keep(d)) continue;
          if (total >= from && hits.length < count) hits.push({ doc: d, score: sc });
          total++;
        }
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
    const exact = new Set(this.exact.get(last) ?? []);
    const cands = new Set<number>();
    for (let k = lowerBound(this.terms, last); k < this.terms.length && this.terms[k]!.startsWith(last) && cands.size < 5000; k++) {
      for (const i of this.loose.get(this.terms[k]!)!) if (this.alive[i]) cands.add(i);
    }
    const { rank } = this;
    const ranked = [...cands].filter((i) => (!head || head.has(i)) && keep(this.slots[i]!))
      .sort((a, b) => Number(exact.has(b)) - Number(exact.has(a)) || rank[a]! - rank[b]!);
    return ranked.slice(0, max).map((i) => this.slots[i]!);
  }
}

function lowerBound(a: string[], x: string): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid]! < x) lo = mid + 1; else hi = mid; }
  return lo;
}

/** Posts slot `i` under `k`; true when `k` is a new key. */
function post(m: Map<string, number[]>, k: string, i: number): boolean {
  const l = m.get(k);
  if (!l) { m.set(k, [i]); return true; }
  if (l[l.length - 1] !== i) l.push(i);
  return false;
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
