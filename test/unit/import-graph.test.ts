import { describe, expect, test } from 'bun:test';
import { analyseImports, countsOf, type Edge } from '../../scripts/import-graph';

// Layers point down only (DESIGN.md rule 0) and no file imports itself through a loop. Each failure lists every
// violation, so one run shows the whole debt.
const r = analyseImports();
const show = (e: Edge) => `${e.from} -> ${e.to}`;

describe('import graph of src/', () => {
  test('the graph was read (sanity)', () => {
    console.log('import graph', JSON.stringify(countsOf(r)));
    expect(r.files.length).toBeGreaterThan(100);
    expect(r.edges.length).toBeGreaterThan(r.files.length);
  });

  test('no import cycle between files', () => {
    expect(r.cycles.map((c) => c.loop.join(' -> '))).toEqual([]);
  });

  test('kernel, media, jobs and live import nothing from features', () => {
    expect(r.upward.map(show)).toEqual([]);
  });
});
