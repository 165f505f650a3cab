import { expect, test } from 'bun:test';
import fc from 'fast-check';
import { SearchIndex, decodeCursor, encodeCursor, type SearchDoc } from '../../src/features/sites/search';
import { cacheControl, notModified, answer } from '../../src/features/sites/http-cache';
import { normalisePath } from '../../src/features/sites/delivery';
import { uuidV5, PODCAST_NS } from '../../src/features/sites/feeds';
import { matchScore } from '../../src/text/hebrew-search';

const doc = (slug: string, title: string, time = 0, type: SearchDoc['type'] = 'video'): SearchDoc => ({ type, slug, title, text: title, time });
const all = () => true;

test('Hebrew cases: חדשות finds והחדשות and בחדשות, שלום finds שָׁלוֹם, צהל finds צה"ל; exact words rank first', () => {
  const ix = new SearchIndex([
    doc('a', 'מהדורת והחדשות', 5), doc('b', 'בחדשות הערב', 4), doc('c', 'חדשות הבוקר', 1), doc('d', 'שָׁלוֹם עולם', 3),
    doc('e', 'דובר צה"ל', 2), doc('f', 'ספורט', 9),
  ]);
  const slugs = (q: string) => ix.search(q, all).map((h) => h.doc.slug);
  expect(slugs('חדשות')).toEqual(['c', 'a', 'b']); // exact first (older), then prefixed forms newest first
  expect(slugs('שלום')).toEqual(['d']);
  expect(slugs('צהל')).toEqual(['e']);
  expect(slugs('צה"ל')).toEqual(['e']);
  expect(slugs('וחדשות')).toEqual(expect.arrayContaining(['a', 'b', 'c']));
  expect(slugs('ספורט חדשות')).toEqual([]);
  expect(ix.suggest('חד', all, 8).map((d) => d.slug)).toEqual(expect.arrayContaining(['a', 'b', 'c']));
});

test('suggest answers at most the maximum asked', () => {
  const ix = new SearchIndex(Array.from({ length: 50 }, (_, i) => doc(`s${i}`, `חדשות ${i}`, i)));
  expect(ix.suggest('חד', all, 8)).toHaveLength(8);
});

test('property: every hit holds every query word (in search form, prefix letters as alternatives); no query throws', () => {
  const words = ['חדשות', 'והחדשות', 'שלום', 'בית', 'news', 'ערב', 'לבית', 'צה"ל'];
  fc.assert(fc.property(fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 20 }), fc.string(), (titles, q) => {
    const ix = new SearchIndex(titles.map((t, i) => doc(`d${i}`, t.join(' '), i)));
    const hits = ix.search(q, all);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    for (const h of hits) expect(matchScore(q, h.doc.text)).toBeGreaterThan(0);
    // And nothing that holds every word is missed.
    expect(hits.length).toBe(ix.docs.filter((d) => matchScore(q, d.text) > 0).length);
    ix.suggest(q, all, 8);
  }), { numRuns: 200 });
});

test('cursors are bound to their query; hostile cursors answer 422, never throw otherwise', () => {
  const c = encodeCursor('חדשות', 'video', 20);
  expect(decodeCursor(c, 'חדשות', 'video')).toBe(20);
  expect(() => decodeCursor(c, 'שלום', 'video')).toThrow();
  fc.assert(fc.property(fc.string({ maxLength: 300 }), (x) => {
    try { decodeCursor(x, 'q', ''); } catch (e) { expect((e as { status?: number }).status).toBe(422); }
  }), { numRuns: 300 });
});

test('paths: hostile ?path= values are refused with 422 or normalised to a path starting with /', () => {
  fc.assert(fc.property(fc.string({ maxLength: 3000 }), (p) => {
    try { expect(normalisePath(p).startsWith('/')).toBe(true); } catch (e) { expect((e as { status?: number }).status).toBe(422); }
  }), { numRuns: 500 });
  expect(normalisePath('/a//b/')).toBe('/a/b');
  expect(normalisePath('/')).toBe('/');
});

test('caching: If-None-Match (weak comparison, lists, *), s-maxage lowered to a scheduled change', () => {
  const a = answer('{"x":1}', 'application/json', 'page', ['site-x'], 10_000);
  expect(notModified(a.etag, a.etag)).toBe(true);
  expect(notModified(`"other", W/${a.etag}`, a.etag)).toBe(true);
  expect(notModified('*', a.etag)).toBe(true);
  expect(notModified('"other"', a.etag)).toBe(false);
  expect(cacheControl(a, 0)).toBe('public, s-maxage=10, stale-while-revalidate=300, stale-if-error=86400');
  expect(cacheControl(a, 9_500)).toContain('s-maxage=1,');
  expect(cacheControl(a, 20_000)).toContain('s-maxage=30,');
  expect(cacheControl(answer('', 'text/plain', 'private', []), 0)).toBe('private, no-store');
});

test('podcast:guid is UUIDv5 of the feed URL without scheme (checked against Python uuid.uuid5)', () => {
  const name = 'mp3s.nashownotes.com/pc20rss.xml';
  const py = Bun.spawnSync(['python3', '-c', `import uuid,sys; print(uuid.uuid5(uuid.UUID("${PODCAST_NS}"), sys.argv[1]))`, name]).stdout.toString().trim();
  expect(py).toMatch(/^[0-9a-f-]{36}$/);
  expect(uuidV5(PODCAST_NS, name)).toBe(py);
});

test('property: after random changes the incremental index answers like a full rebuild (search, pages, suggest)', () => {
  const words = ['חדשות', 'והחדשות', 'בחדשות', 'שלום', 'שָׁלוֹם', 'בית', 'news', 'ערב', 'לבית', 'צה"ל', 'מבזק'];
  const title = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
  const type = fc.constantFrom<SearchDoc['type']>('show', 'video', 'programme');
  const change = fc.oneof(
    fc.record({ op: fc.constant('add' as const), slug: fc.integer({ min: 0, max: 30 }), type, title, time: fc.integer({ min: 0, max: 5 }) }),
    fc.record({ op: fc.constant('remove' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('retitle' as const), at: fc.nat(), title }),
    fc.record({ op: fc.constant('retime' as const), at: fc.nat(), time: fc.integer({ min: 0, max: 5 }) }),
  );
  const queries = [...words, 'חדשות ערב', 'בית news', 'חד', 'ב', 'צהל', 'ש'];
  const keepVideo = (d: SearchDoc) => d.type === 'video';
  fc.assert(fc.property(fc.array(fc.tuple(title, type, fc.integer({ min: 0, max: 5 })), { maxLength: 25 }), fc.array(fc.array(change, { maxLength: 8 }), { minLength: 1, maxLength: 4 }), (start, batches) => {
    let docs = start.map(([t, ty, time], i) => ({ ...doc(`d${i}`, t, time, ty) }));
    const ix = new SearchIndex(docs);
    for (const batch of batches) {
      docs = [...docs];
      for (const c of batch) {
        if (c.op === 'add') { if (!docs.some((d) => d.type === c.type && d.slug === `n${c.slug}`)) docs.push(doc(`n${c.slug}`, c.title, c.time, c.type)); continue; }
        if (!docs.length) continue;
        const i = c.at % docs.length;
        if (c.op === 'remove') docs.splice(i, 1);
        else if (c.op === 'retitle') docs[i] = { ...docs[i]!, title: c.title, text: c.title };
        else docs[i] = { ...docs[i]!, time: c.time };
      }
      ix.update(docs);
      const full = new SearchIndex(docs);
      const view = (x: SearchIndex, q: string) => ({
        all: x.search(q, all).map((h) => `${h.doc.type}:${h.doc.slug}:${h.score}`),
        page: ((p) => [p.total, ...p.hits.map((h) => h.doc.slug)])(x.page(q, keepVideo, 1, 3)),
        suggest: x.suggest(q, all, 8).map((d) => `${d.type}:${d.slug}`),
      });
      for (const q of queries) expect(view(ix, q)).toEqual(view(full, q));
      expect(ix.docs.map((d) => `${d.type}:${d.slug}`)).toEqual(full.docs.map((d) => `${d.type}:${d.slug}`));
    }
  }), { numRuns: 300 });
});

test('an update re-indexes only the changed documents', () => {
  const docs = Array.from({ length: 200 }, (_, i) => doc(`v${i}`, `חדשות ${i}`, i));
  const ix = new SearchIndex(docs);
  ix.update(docs.map((d) => ({ ...d })));
  expect(ix.lastChanged).toBe(0);
  const next = docs.filter((d) => d.slug !== 'v3').map((d) => (d.slug === 'v7' ? { ...d, title: 'שלום', text: 'שלום' } : d));
  next.push(doc('v200', 'בחדשות הערב', 500));
  ix.update(next);
  expect(ix.lastChanged).toBe(3); // v3 gone, v7 changed, v200 new
  expect(ix.search('שלום', all).map((h) => h.doc.slug)).toEqual(['v7']);
  expect(ix.search('חדשות', all).map((h) => h.doc.slug).slice(0, 2)).toEqual(['v199', 'v198']);
  expect(ix.search('חדשות', all).at(-1)!.doc.slug).toBe('v200'); // through a prefix: after every exact match
  expect(ix.search('3', all).map((h) => h.doc.slug)).toEqual([]);
});
