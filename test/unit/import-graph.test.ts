import { describe, expect, test } from 'bun:test';
import { analyseImports, countsOf, type Edge } from '../../scripts/import-graph';

// Layers point down only (DESIGN.md rule 0) and no file imports itself through a loop. Each failure lists every
// violation, so one run shows the whole debt.
const r = analyseImports();
const show = (e: Edge) => `${e.from} -> ${e.to}`;

/**
 * PENDING (issue 14, item 1): src/live still reads the channels feature's stores, and two live files import each
 * other. Another change gives live/ its own storage interface; when it lands, delete this predicate and the two
 * test.todo below, so the checks above cover src/live as well.
 */
const PENDING_LIVE = (file: string) => file.startsWith('src/live/');

describe('import graph of src/', () => {
  test('the graph was read (sanity)', () => {
    console.log('import graph', JSON.stringify(countsOf(r)));
    expect(r.files.length).toBeGreaterThan(100);
    expect(r.edges.length).toBeGreaterThan(r.files.length);
  });

  test('no import cycle between files', () => {
    const bad = r.cycles.filter((c) => !c.files.some(PENDING_LIVE)).map((c) => c.loop.join(' -> '));
    expect(bad).toEqual([]);
  });

  test('kernel, media and jobs import nothing from features', () => {
    const bad = r.upward.filter((e) => !PENDING_LIVE(e.from)).map(show);
    expect(bad).toEqual([]);
  });

  test.todo('PENDING live: src/live imports nothing from features', () => {
    expect(r.upward.filter((e) => PENDING_LIVE(e.from)).map(show)).toEqual([]);
  });

  test.todo('PENDING live: no import cycle through src/live', () => {
    expect(r.cycles.filter((c) => c.files.some(PENDING_LIVE)).map((c) => c.loop.join(' -> '))).toEqual([]);
  });

  test('the pending live list is reported', () => {
    const pending = [...r.upward.filter((e) => PENDING_LIVE(e.from)).map(show), ...r.cycles.filter((c) => c.files.some(PENDING_LIVE)).map((c) => `cycle ${c.loop.join(' -> ')}`)];
    if (pending.length) console.log(`pending live seams (${pending.length}):\n  ${pending.join('\n  ')}`);
    expect(Array.isArray(pending)).toBe(true);
  });
});
