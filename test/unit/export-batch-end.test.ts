/**
 * Where the export worker cuts statistics batches (issue 47): statsBatchEnd with a window from the previous batch's
 * span gives exactly the answer of the whole-range query — at most `max` rows, rows sharing an instant never split,
 * sparse stretches, the end of the data, another tenant's rows ignored — against a real DuckDB. And the windowed
 * query reads fewer rows: DuckDB's own profile of the two queries is compared.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openStats, type StatsStore } from '../../src/kernel/stats';
import { ensureTables } from '../../src/features/stats/tables';
import { statsBatchEnd } from '../../src/features/export/events';
import type { AppContext } from '../../src/kernel/context';

let stats: StatsStore;
let ctx: AppContext;
const TIE = 1_005_000;
beforeAll(async () => {
  stats = await openStats(':memory:', { threads: 1 });
  await ensureTables(stats);
  ctx = { stats } as unknown as AppContext; // statsBatchEnd reads only the statistics store
  // Tenant T: 500 rows 10 ms apart, then 30 rows on one instant, a 10-minute gap, 200 rows 1 ms apart.
  // Tenant U: rows interleaved in the same times (must not count).
  const row = (ts: string, t: string) => `SELECT ${ts}, '${t}', 'asset', 'a', 'r', 'f', 'GET', 200, 1, 1.0, 's', 'disk', 'h', 'IL', 1, 'd', 'b', 'o', NULL, NULL`;
  await stats.run(`INSERT INTO edge_requests ${row('1000000 + i * 10', 'T')} FROM range(500) t(i)`);
  await stats.run(`INSERT INTO edge_requests ${row(String(TIE), 'T')} FROM range(30) t(i)`);
  await stats.run(`INSERT INTO edge_requests ${row('1650000 + i', 'T')} FROM range(200) t(i)`);
  await stats.run(`INSERT INTO edge_requests ${row('1000005 + i * 10', 'U')} FROM range(500) t(i)`);
});
afterAll(async () => { await stats?.close(); });

/** Cuts every batch of [from, until) with and without the span hint; both lists must be equal. */
async function cuts(max: number, from: number, until: number) {
  const plain: { from: number; to: number; first: number }[] = [], windowed: typeof plain = [];
  for (let at = from; ;) {
    const r = await statsBatchEnd(ctx, 'edge_requests', 'T', at, until, max);
    if (!r) break;
    plain.push({ from: at, ...r });
    if (r.to >= until) break;
    at = r.to;
  }
  for (let at = from, span = 0; ;) {
    const r = await statsBatchEnd(ctx, 'edge_requests', 'T', at, until, max, span);
    if (!r) break;
    windowed.push({ from: at, ...r });
    if (r.to >= until) break;
    span = r.to - at;
    at = r.to;
  }
  return { plain, windowed };
}

test('windowed batch ends equal the whole-range answer: sizes, ties, gaps, the end', async () => {
  for (const max of [7, 40, 1000]) {
    const { plain, windowed } = await cuts(max, 1_000_000, 2_000_000);
    expect(windowed).toEqual(plain);
    expect(plain.length).toBeGreaterThanOrEqual(Math.floor(700 / max));
    // Each batch holds at most max rows of T unless one instant holds more (the 30 rows at TIE, alone in their batch).
    const counts = await Promise.all(plain.map(async (c) => (await stats.all<{ n: number }>(`SELECT count(*)::INT AS n FROM edge_requests WHERE tenant_id = 'T' AND ts >= ${c.from} AND ts < ${c.to}`))[0]!.n));
    plain.forEach((c, i) => expect(counts[i]! <= max || (c.from === TIE && c.to === TIE + 1)).toBe(true));
    // Every row of T is in exactly one batch (the batches are contiguous).
    expect(counts.reduce((a, b) => a + b, 0)).toBe(730);
    plain.slice(1).forEach((c, i) => expect(c.from).toBe(plain[i]!.to));
  }
  expect(await statsBatchEnd(ctx, 'edge_requests', 'T', 1_700_000, 2_000_000, 10)).toBeNull();
}, 60_000);

test('the window reads fewer rows than the whole range', async () => {
  // DuckDB's operator cardinalities: rows the scan passed on for the first batch, whole range vs a 2×span window.
  const scanned = async (end: number) => {
    const [p] = await stats.all<{ explain_value: string }>(`EXPLAIN ANALYZE SELECT min(t), max(t), count(*) FROM (SELECT ts AS t FROM edge_requests
      WHERE tenant_id = 'T' AND ts >= 1000000 AND ts < ${end} ORDER BY ts LIMIT 11)`);
    return Math.max(...[...p!.explain_value.matchAll(/(\d[\d,]*) [Rr]ows/g)].map((m) => Number(m[1]!.replaceAll(',', ''))));
  };
  expect(await scanned(1_000_000 + 2 * 100)).toBeLessThan(await scanned(2_000_000));
});

test('bounds must be integers (they are written into the SQL)', async () => {
  await expect(statsBatchEnd(ctx, 'edge_requests', 'T', 1.5, 2_000_000, 10)).rejects.toThrow('integers');
  await expect(statsBatchEnd(ctx, 'edge_requests', "T' OR '1'='1", 1_000_000, 2_000_000, 10)).resolves.toBeNull();
});
