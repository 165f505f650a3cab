/**
 * Origin-log ingestion CPU per row: the old flush (rows appended into `edge_stage`, then EDGE_FLUSH moves them and
 * groups the minute and day rollups in SQL) against the new one (rows appended straight into `edge_requests` with
 * their rollup rows summed in JavaScript), both with the same prepare step (edgeRowMaker), on the
 * same generated hits in the same run, rounds interleaved. CPU is the process's (process.cpuUsage: every thread,
 * DuckDB's included), per row, split into prepare (hash, geo, device) and write (DuckDB). Each path has its own
 * DuckDB file (one DuckDB thread, as `statsThreads` picks on two cores); at the end their rollups are compared.
 *
 *   bun scripts/bench/edge-ingest.ts [--rows 4000] [--rounds 12] [--viewers 60]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStats, type StatsParam, type StatsStore } from '../../src/kernel/stats';
import { ensureTables } from '../../src/features/stats/tables';
import { EDGE_FLUSH, writeEdgeRows, type EdgeHit } from '../../src/features/stats/rows';
import { edgeRowMaker } from '../../src/features/stats/runtime';
import { DeviceParser } from '../../src/features/stats/device';
import { IpHasher } from '../../src/features/stats/salt';
import { GeoLookup } from '../../src/features/playback/geo';
import { median } from './lib';

const { values: a } = parseArgs({ options: { rows: { type: 'string', default: '4000' }, rounds: { type: 'string', default: '12' }, viewers: { type: 'string', default: '60' } } });
const ROWS = Number(a.rows), ROUNDS = Number(a.rounds), VIEWERS = Number(a.viewers);

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
  'wrk',
];
const ASSETS = ['01a2282d-92ae-7640-b98d-b6fc275d2096', '01a2282d-92ae-7640-b98d-b6fc275d2097', '01a2282d-92ae-7640-b98d-b6fc275d2098'];

/** One batch of hits as the queue hands them over: a few assets, VIEWERS viewers (address, UA, sid), ~1 s apart. */
function hits(round: number): EdgeHit[] {
  const t0 = Date.UTC(2026, 10, 29, 12) + round * 61_000;
  return Array.from({ length: ROWS }, (_, i): EdgeHit => {
    const v = (i * 7919) % VIEWERS;
    const playlist = i % 6 === 0;
    const asset = ASSETS[v % ASSETS.length];
    const status = i % 97 === 0 ? 404 : i % 31 === 0 ? 304 : 200;
    // Fresh string objects per hit, as parsed from the spool (no interned keys shared across hits).
    return {
      ts: t0 + i * 15 + 0.25, tenantId: `01a2282d-8535-73b3-b362-cd769179656${v % 2}`, kind: 'asset', target: asset,
      rendition: playlist ? null : `${240 * (1 + (i % 4))}p`, file: playlist ? 'master.m3u8' : `${240 * (1 + (i % 4))}p_${String(i % 300).padStart(5, '0')}.m4s`,
      method: 'GET', status, bytes: status === 200 ? (playlist ? 900 : 2_097_152) : 0, ttfbMs: 0.3 + (i % 10) / 10,
      sid: `01a2282d-a9bb-70c1-8a6b-a60309dd8e${String(v).padStart(2, '0')}`, source: playlist ? 'memory' : 'disk',
      ip: `198.51.${100 + (v >> 8)}.${v & 255}`, ua: `${UAS[v % UAS.length]}`.slice(0), referrer: v % 3 ? null : `https://example.com/watch/${v}`,
    };
  });
}

const cpu = () => { const u = process.cpuUsage(); return u.user + u.system; };
const dir = mkdtempSync(join(tmpdir(), 'vs-edge-ingest-'));
type Path = { name: string; stats: StatsStore; prepare: (r: EdgeHit[]) => Promise<StatsParam[][]>; write: (rows: StatsParam[][]) => Promise<void>; prep: number[]; wr: number[] };
const paths: Path[] = [];
try {
  const geo = new GeoLookup({ countryDb: null, asnDb: null });
  for (const name of ['old', 'new']) {
    const stats = await openStats(join(dir, `${name}.duckdb`), { threads: 1 });
    await ensureTables(stats);
    // No automatic checkpoint inside a round (it would land in one path's round at random): each store's checkpoint of
    // what it wrote is run and measured once at the end.
    await stats.run(`SET checkpoint_threshold = '4GB'`);
    const ips = new IpHasher(stats), devices = new DeviceParser();
    paths.push(name === 'old'
      ? { name, stats, prepare: edgeRowMaker(ips, geo, devices), write: (rows) => stats.append('edge_stage', rows, EDGE_FLUSH), prep: [], wr: [] }
      : { name, stats, prepare: edgeRowMaker(ips, geo, devices), write: (rows) => writeEdgeRows(stats, rows), prep: [], wr: [] });
  }
  // One warm-up round each (salts, prepared statements, first appender), then rounds interleaved old/new, new/old.
  for (let round = -1; round < ROUNDS; round++) {
    const order = round % 2 ? paths : [...paths].reverse();
    for (const p of order) {
      const batch = hits(round + 1);
      Bun.gc(true);
      const c0 = cpu();
      const rows = await p.prepare(batch);
      const c1 = cpu();
      await p.write(rows);
      const c2 = cpu();
      if (round >= 0) { p.prep.push((c1 - c0) / ROWS); p.wr.push((c2 - c1) / ROWS); }
    }
  }
  // The checkpoint each store owes for what it wrote (the old path's WAL holds the rows twice, staged and moved, plus
  // their delete), spread over all rows and added to its write CPU.
  const owed: number[] = [];
  for (const p of paths) { const c0 = cpu(); await p.stats.run('CHECKPOINT'); owed.push((cpu() - c0) / ROWS / ROUNDS); }
  const fmt = (x: number) => x.toFixed(2);
  const tot = (p: Path, i: number) => median(p.prep) + median(p.wr) + owed[i];
  paths.forEach((p, i) => console.log(`${p.name}: prepare ${fmt(median(p.prep))} us/row, write ${fmt(median(p.wr))} + checkpoint ${fmt(owed[i])} us/row, total ${fmt(tot(p, i))} us/row (medians of ${ROUNDS} rounds of ${ROWS} rows)`));
  const [o, n] = paths;
  console.log(`ratio new/old CPU per row: total ${(tot(n, 1) / tot(o, 0)).toFixed(2)}x, write+checkpoint ${((median(n.wr) + owed[1]) / (median(o.wr) + owed[0])).toFixed(2)}x, prepare ${(median(n.prep) / median(o.prep)).toFixed(2)}x (target total <= 0.5x)`);
  // Same answers: the log (but the per-store address hash) and both rollups, summed per key.
  const sums = async (s: StatsStore) => JSON.stringify([
    await s.all(`SELECT * EXCLUDE (ip_hash) FROM edge_requests ORDER BY ALL`),
    await s.all(`SELECT tenant_id, minute, kind, target, country, device, sum(requests), sum(errors), sum(bytes), sum(memory_requests), sum(memory_bytes), round(sum(ttfb_ms_sum), 6) FROM edge_minute GROUP BY ALL ORDER BY ALL`),
    await s.all(`SELECT tenant_id, day, kind, target, country, device, sum(requests), sum(errors), sum(bytes), sum(memory_requests), sum(memory_bytes), round(sum(ttfb_ms_sum), 6) FROM edge_day GROUP BY ALL ORDER BY ALL`),
  ]);
  const same = (await sums(o.stats)) === (await sums(n.stats));
  console.log(`same log and rollups in both stores: ${same}`);
  if (!same) process.exitCode = 1;
} finally {
  for (const p of paths) await p.stats.close();
  rmSync(dir, { recursive: true, force: true });
}
