import { expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import fc from 'fast-check';
import { migrate } from '../../src/kernel/db/sqlite';
import { SubtitleStore } from '../../src/features/subtitles/store';
import { backfillSubtitleIndexInBackground, cueIndexText, dropTrack, reindexTrack } from '../../src/features/subtitles/search-index';
import { looseExpression, searchCues } from '../../src/features/subtitles/search';

// Issue 43, search inside what was said: the transcript index (migration 0140) and its queries on a real SQLite.

const T1 = '11111111-1111-4111-8111-111111111111', T2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', A2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

function fixture() {
  const db = new Database(':memory:');
  migrate(db);
  const store = new SubtitleStore(db);
  const track = (id: string, tenant: string, asset: string, lines: string[], publish = true) => {
    store.insert({ id, tenant_id: tenant, asset_id: asset, language: 'he', kind: 'subtitles', label: null, source: 'upload', status: 'ready', job_id: null, created_at: 1, updated_at: 1 });
    store.replaceCues(id, lines.map((text, i) => ({ startMs: i * 4000, endMs: i * 4000 + 3000, text })), 2);
    if (publish) store.setPublished(tenant, id, true, 3);
  };
  return { db, store, track };
}

test('index text: words in search form, prefix-stripped copies apart', () => {
  expect(cueIndexText('וְהַחֲדָשׁוֹת של צה"ל')).toEqual({ exact: 'והחדשות של צהל', loose: 'החדשות חדשות' });
  expect(cueIndexText('...!?')).toEqual({ exact: '', loose: '' });
});

test('Hebrew matching: prefixes, niqqud, final letters, gershayim; exact words first', () => {
  const { db, track } = fixture();
  track('t1', T1, A1, ['והחדשות הערב', 'שָׁלוֹם לכולם', 'דובר צה"ל מסר', 'בחדשות אתמול', 'חדשות הבוקר', 'חדשנות']);
  const q = (text: string) => searchCues(db, { tenantId: T1 }, text, 50).map((h) => [h.startMs / 1000, h.exact]);
  expect(q('חדשות')).toEqual([[16, true], [12, false], [0, false]]);
  expect(q('שלום')).toEqual([[4, true]]);
  expect(q('שלומ')).toEqual([[4, true]]);
  expect(q('צהל')).toEqual([[8, true]]);
  expect(q('צה"ל')).toEqual([[8, true]]);
  expect(q('צה״ל')).toEqual([[8, true]]);
  // A prefixed query word finds the bare word too; a word prefix finds longer words (not exact).
  expect(q('בחדשות')).toEqual([[12, true], [16, false], [0, false]]);
  expect(q('חדש').map((x) => x[0]).sort()).toEqual([0, 12, 16, 20]);
  // Every word must be in one cue.
  expect(q('חדשות הבוקר')).toEqual([[16, true]]);
  expect(q('חדשות שלום')).toEqual([]);
});

test('scope: another tenant, another asset, unpublished and deleted tracks are not found', () => {
  const { db, store, track } = fixture();
  track('t1', T1, A1, ['סוד גלוי']);
  track('t2', T2, A2, ['סוד כמוס']);
  track('t3', T1, A2, ['סוד שמור'], false);
  expect(searchCues(db, { tenantId: T1 }, 'סוד', 10).map((h) => h.text)).toEqual(['סוד גלוי']);
  expect(searchCues(db, { tenantId: T1, assetId: A2 }, 'סוד', 10)).toEqual([]);
  expect(searchCues(db, { tenantId: T2, assetId: A2 }, 'כמוס', 10).map((h) => h.trackId)).toEqual(['t2']);
  store.setPublished(T1, 't3', true, 4);
  expect(searchCues(db, { tenantId: T1, assetId: A2 }, 'שמור', 10).map((h) => h.trackId)).toEqual(['t3']);
  store.setPublished(T1, 't3', false, 5);
  expect(searchCues(db, { tenantId: T1, assetId: A2 }, 'שמור', 10)).toEqual([]);
  store.delete(T1, 't1');
  expect(searchCues(db, { tenantId: T1 }, 'גלוי', 10)).toEqual([]);
  expect(db.query('SELECT count(*) AS n FROM subtitle_search_rows').get()).toEqual({ n: 1 });
  // Cues replaced: the old text is gone, the new one found; reindexing twice changes nothing.
  store.replaceCues('t2', [{ startMs: 0, endMs: 1000, text: 'חדש לגמרי' }], 6);
  reindexTrack(db, 't2');
  expect(searchCues(db, { tenantId: T2 }, 'כמוס', 10)).toEqual([]);
  expect(searchCues(db, { tenantId: T2 }, 'לגמרי', 10).length).toBe(1);
});

test('hostile queries (FTS syntax, quotes, operators, scope names, any text) never throw and never leave the scope', () => {
  const { db, track } = fixture();
  track('t1', T1, A1, ['near and or not', 'secret']);
  track('t2', T2, A2, ['secret of another tenant']);
  for (const q of ['"', '""', '*', 'a*', 'NEAR(a b)', 'NEAR(', '-x', 'x:y', '{exact}:secret', '^secret', 'OR AND NOT', '(', ')', 'scope : kasset',
    `scope : t${T2.replace(/-/g, '')}`, '\u0000secret', '"secret" OR "another"', 'secret"*', 'x'.repeat(5000)]) {
    const hits = searchCues(db, { tenantId: T1 }, q, 10);
    expect(hits.every((h) => h.trackId === 't1')).toBe(true);
  }
  expect(searchCues(db, { tenantId: T1 }, 'another', 10)).toEqual([]);
  fc.assert(fc.property(fc.string({ maxLength: 120 }), fc.string({ unit: 'grapheme', maxLength: 40 }), (a, b) => {
    for (const q of [a, b, `${a} ${b}`]) {
      expect(() => searchCues(db, { tenantId: T1 }, q, 5)).not.toThrow();
      expect(() => db.query('SELECT rowid FROM subtitle_search WHERE subtitle_search MATCH ?').all(looseExpression([q.replace(/[^\p{L}\p{N}]/gu, '') || 'x']))).not.toThrow();
    }
  }), { numRuns: 300 });
});

test('an emptied index (migration 0185) is filled again in the background, in batches, and stops when told', async () => {
  const { db, track } = fixture();
  for (let i = 0; i < 7; i++) track(`b${i}`, T1, A1, [`שידור ${i} חדשות`]);
  track('draft', T1, A1, ['חדשות טיוטה'], false); // not published: never indexed
  const seqs = db.query<{ seq: number }, []>('SELECT seq FROM subtitle_tracks').all();
  for (const { seq } of seqs) dropTrack(db, seq);
  expect(searchCues(db, { tenantId: T1 }, 'חדשות', 50)).toHaveLength(0);
  const logged: unknown[] = [];
  const log = { info: (_m: string, f?: Record<string, unknown>) => logged.push(f), warn: (m: string) => { throw new Error(m); } };
  backfillSubtitleIndexInBackground(db, log, () => false, 3); // 3 per turn: 3 + 3 + 1
  expect(searchCues(db, { tenantId: T1 }, 'חדשות', 50)).toHaveLength(0); // nothing done before the first turn
  const deadline = Date.now() + 5000;
  while (!logged.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  expect(logged).toEqual([{ tracks: 7 }]);
  expect(searchCues(db, { tenantId: T1 }, 'חדשות', 50)).toHaveLength(7);
  // Stopped before its first turn: nothing is touched (the database may be closing).
  for (const { seq } of seqs) dropTrack(db, seq);
  backfillSubtitleIndexInBackground(db, log, () => true, 3);
  await new Promise((r) => setTimeout(r, 20));
  expect(searchCues(db, { tenantId: T1 }, 'חדשות', 50)).toHaveLength(0);
});
