#!/usr/bin/env bun
/**
 * Statistics benchmark (issue 16), one run:
 *  1. Beacon ingest through HTTP (/b/v1, 300 events per beacon, curl from many loopback addresses so the per-IP
 *     beacon limit does not bind) vs DuckDB's own read_json bulk load of the same events (the ceiling).
 *  2. A synthetic table of --events viewer events (and as many origin-log rows) over 30 days, sessionized and rolled
 *     up; DuckDB file size per million events; API latencies (p50/p95 of --reps calls): 30-day timeseries, 30-day
 *     overview, realtime; streamed export rows/s.
 * Usage: bun scripts/bench/stats.ts [--events 5000000] [--reps 20] [--ips 32] [--beacons 100] [--only ingest|large]
 *   [--data DIR: build the large table there and keep it, or reuse it when it exists] [--mem 3GB: DuckDB memory while generating]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startAppliance } from './lib';
import { openStats } from '../../src/kernel/stats';
import { ensureTables } from '../../src/features/stats/tables';
import { beaconChannel, playbackSid } from '../../test/helpers/beacon-session';

const { values } = parseArgs({ options: { events: { type: 'string', default: '5000000' }, reps: { type: 'string', default: '20' }, ips: { type: 'string', default: '32' }, beacons: { type: 'string', default: '100' }, only: { type: 'string', default: '' }, data: { type: 'string', default: '' }, 'build-only': { type: 'boolean', default: false }, 'export-max-s': { type: 'string', default: '300' }, mem: { type: 'string', default: '3GB' } } });
const N = Number(values.events), REPS = Number(values.reps), IPS = Number(values.ips), PER_IP = Number(values.beacons);
if (!Bun.which('curl')) throw new Error('curl not found');
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-stats-'));
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };
const dbPath = (data: string) => join(data, 'db', 'stats.duckdb');

try {
  // ---- 1. HTTP ingest vs read_json -------------------------------------------------------------------------
  if (values.only !== 'large') await ingestBench();
  async function ingestBench() {
  const data1 = join(dir, 'ingest');
  const app = await startAppliance(data1, { VS_CONFIG: cfg });
  const now = Date.now();
  const bodies: string[] = [];
  // Beacons bind to sessions the issuer created (docs/beacons.md, "Binding"): one session per address, on one channel.
  const channel = await beaconChannel(app.url, app.key!, 'Bench');
  for (let i = 0; i < IPS; i++) {
    const events = Array.from({ length: 300 }, (_, k) => ({ e: k % 20 === 0 ? 'rebuffer_start' : 'heartbeat', t: now + k * 100, pos: k, buf: 8, level: 3 }));
    const body = JSON.stringify({ v: 1, sid: await playbackSid(app.url, app.key!, { channel }), vid: `viewer-${i}`, tenant: 'default', host: 'news.example', kind: 'live', id: channel, events });
    const f = join(dir, `beacon-${i}.json`);
    writeFileSync(f, body);
    bodies.push(f);
  }
  console.log(`1. beacon ingest: ${IPS} addresses x ${PER_IP} beacons x 300 events = ${(IPS * PER_IP * 300).toLocaleString('en')} events (beacon ${Math.round(Bun.file(bodies[0]).size / 1024)} KiB)`);
  const t0 = performance.now();
  // One curl per address (4 requests in flight each); `-o /dev/null` once per URL (curl pairs outputs with URLs).
  const procs = bodies.map((f, i) => Bun.spawn(['curl', '-s', '-w', '%{http_code}\\n', '-Z', '--parallel-max', '4', '--interface', `127.0.0.${i + 2}`,
    '-H', 'content-type: text/plain', '--data-binary', `@${f}`, ...Array.from({ length: PER_IP }, () => ['-o', '/dev/null', `${app.url}/b/v1`]).flat()], { stdout: 'pipe', stderr: 'ignore' }));
  const codes = (await Promise.all(procs.map(async (p) => (await new Response(p.stdout).text()).trim().split('\n')))).flat();
  const t1 = performance.now();
  const ok = codes.filter((c) => c === '204').length;
  app.kill('SIGTERM');
  await app.proc.exited; // SIGTERM flushes the queues
  const t2 = performance.now();
  let st = await openStats(dbPath(data1));
  const [{ n: stored }] = await st.all<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM player_events');
  // The same events as table rows, for read_json.
  const cols = await st.all<{ column_name: string; data_type: string }>(`SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'player_events' ORDER BY column_index`);
  const nd = join(dir, 'events.ndjson');
  await st.run(`COPY (SELECT * FROM player_events) TO '${nd}' (FORMAT json)`);
  st.close();
  const other = join(dir, 'readjson.duckdb');
  st = await openStats(other);
  await ensureTables(st);
  const t3 = performance.now();
  await st.run(`INSERT INTO player_events SELECT * FROM read_json('${nd}', format = 'newline_delimited', columns = {${cols.map((c) => `${c.column_name}: '${c.data_type}'`).join(', ')}})`);
  const t4 = performance.now();
  st.close();
  const codeCount = Object.entries(codes.reduce<Record<string, number>>((a, c) => { a[c] = (a[c] ?? 0) + 1; return a; }, {})).map(([c, n]) => `${c}: ${n}`).join(', ');
  const httpRate = (ok * 300) / ((t1 - t0) / 1000), durableRate = stored / ((t2 - t0) / 1000), ceiling = stored / ((t4 - t3) / 1000);
  console.log(`   answers ${codeCount}; accepted ${(ok * 300).toLocaleString('en')} events in ${((t1 - t0) / 1000).toFixed(2)} s = ${Math.round(httpRate).toLocaleString('en')} events/s over HTTP`);
  console.log(`   stored ${stored.toLocaleString('en')} rows by shutdown (${((t2 - t0) / 1000).toFixed(2)} s) = ${Math.round(durableRate).toLocaleString('en')} events/s durable`);
  console.log(`   read_json bulk load of the same rows: ${((t4 - t3) / 1000).toFixed(2)} s = ${Math.round(ceiling).toLocaleString('en')} rows/s; ratio HTTP/ceiling ${(httpRate / ceiling).toFixed(3)}, durable/ceiling ${(durableRate / ceiling).toFixed(3)}`);
  }
  if (values.only === 'ingest') { rmSync(dir, { recursive: true, force: true }); process.exit(0); }

  // ---- 2. Large synthetic table --------------------------------------------------------------------------------
  // --data DIR keeps (or reuses) the large table's data directory, so runs of two versions read the same table.
  const data2 = values.data || join(dir, 'large');
  const reuse = existsSync(dbPath(data2));
  let app = await startAppliance(data2, { VS_CONFIG: cfg });
  const key = app.key ?? readFileSync(join(data2, 'bench-key.txt'), 'utf8').trim();
  if (!reuse) writeFileSync(join(data2, 'bench-key.txt'), key);
  app.kill('SIGTERM');
  await app.proc.exited;
  const { Database } = await import('bun:sqlite');
  const meta = new Database(join(data2, 'db', 'meta.sqlite'));
  // The appliance's delivery workers may still hold the file for a moment after the main process exits.
  meta.exec('PRAGMA busy_timeout = 10000');
  const tenant = meta.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
  meta.close();
  const st = await openStats(dbPath(data2));
  await ensureTables(st);
  let end: number, start: number;
  if (reuse) {
    const [r] = await st.all<{ a: number; b: number; n: number }>('SELECT min(ts)::DOUBLE AS a, max(ts)::DOUBLE AS b, count(*)::DOUBLE AS n FROM player_events');
    end = Math.ceil((r.b + 1) / 60_000) * 60_000; start = end - 30 * 86_400_000;
    console.log(`2. reusing ${data2}: ${r.n.toLocaleString('en')} viewer events`);
    await st.run('CHECKPOINT');
    await st.close();
  } else {
    // SET: the generator's statements use a bounded amount of memory (they spill past it).
    await st.run(`SET memory_limit = '${values.mem}'`);
    end = Math.floor(Date.now() / 60_000) * 60_000 - 3_600_000;
    const { generate, PER_SESSION } = await import('./stats-gen'); // (lazily: a run of an older version only reuses tables)
    console.log(`2. synthetic: ${N.toLocaleString('en')} viewer events (sessions of ${PER_SESSION}) and as many origin-log rows over 30 days, pure SQL`);
    const g0 = performance.now();
    const g = await generate(st, { n: N, days: 30, end, tenant });
    start = g.start;
    await st.run('CHECKPOINT');
    await st.close();
    const size = statSync(dbPath(data2)).size;
    console.log(`   built in ${((performance.now() - g0) / 1000).toFixed(1)} s; DuckDB file ${(size / 2 ** 20).toFixed(1)} MiB = ${(size / 2 ** 20 / (N / 1e6)).toFixed(1)} MiB per million events (events, origin log, sessions, rollups)`);
  }
  if (values['build-only']) { rmSync(dir, { recursive: true, force: true }); process.exit(0); }

  app = await startAppliance(data2, { VS_CONFIG: cfg });
  const from = new Date(start).toISOString(), to = new Date(end).toISOString();
  const time = async (path: string) => {
    const xs: number[] = [];
    for (let i = 0; i < REPS + 2; i++) {
      const a = performance.now();
      const r = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
      if (i >= 2) xs.push(performance.now() - a); // two warm-up calls
    }
    return `p50 ${pct(xs, 50).toFixed(1)} ms, p95 ${pct(xs, 95).toFixed(1)} ms`;
  };
  console.log(`   timeseries plays 30 days (1h):  ${await time(`/v1/stats/timeseries?metric=plays&from=${from}&to=${to}`)} (target p95 < 300 ms at 100 M)`);
  console.log(`   timeseries bytes 30 days (1h):  ${await time(`/v1/stats/timeseries?metric=bytes&from=${from}&to=${to}`)}`);
  console.log(`   overview 30 days:               ${await time(`/v1/stats/overview?from=${from}&to=${to}`)} (target p95 < 200 ms)`);
  // Live viewers for realtime: 100 sessions playing now (beacons over HTTP; the tracker answers from memory).
  const nowMs = Date.now();
  const liveChannel = await beaconChannel(app.url, key, 'Realtime bench');
  for (let i = 0; i < 100; i++) {
    const r = await fetch(`${app.url}/b/v1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ v: 1, sid: await playbackSid(app.url, key, { channel: liveChannel }), vid: `lv-${i}`, tenant: 'default', kind: 'live', id: liveChannel, events: [{ e: 'play_request', t: nowMs - 5000, pos: 0, buf: 0 }, { e: 'heartbeat', t: nowMs, pos: 5, buf: 8 }] }) });
    if (r.status !== 204) throw new Error(`beacon: ${r.status} ${await r.text()}`);
  }
  console.log(`   realtime (100 playing now):     ${await time('/v1/stats/realtime')} (target p95 < 20 ms)`);
  // curl is the client (a JS reader here would measure itself): bytes and time of the body.
  // curl is the client (a JS reader here would measure itself); rows are the lines received (--max-time caps a slow run).
  const exportRates: { report: string; format: string; rate: number }[] = [];
  for (const [report, format] of [['player_events', 'ndjson'], ['player_events', 'csv'], ['sessions', 'csv']]) {
    const url = `${app.url}/v1/stats/export?report=${report}&format=${format}&from=${new Date(end - 31 * 86_400_000).toISOString()}&to=${to}`;
    const hdr = join(dir, 'export-headers.txt');
    const a = performance.now();
    const cp = Bun.spawn(['sh', '-c', `curl -s --max-time ${values['export-max-s']} -D '${hdr}' -H 'authorization: Bearer ${key}' '${url}' | wc -lc`], { stdout: 'pipe' });
    const [lines, size] = (await new Response(cp.stdout).text()).trim().split(/\s+/).map(Number);
    const secs = (performance.now() - a) / 1000;
    const heads = await Bun.file(hdr).text();
    const totalRows = Number(/x-export-total-rows: (\d+)/i.exec(heads)?.[1] ?? 0);
    const rows = format === 'csv' ? lines - 1 : lines;
    exportRates.push({ report, format, rate: rows / secs });
    console.log(`   streamed export (${report}, ${format}): ${rows.toLocaleString('en')} rows, ${(size / 2 ** 20).toFixed(0)} MiB in ${secs.toFixed(2)} s = ${Math.round(rows / secs).toLocaleString('en')} rows/s (X-Export-Total-Rows ${totalRows}${rows < Math.min(totalRows, 1_000_000) ? `, cut at --export-max-s ${values['export-max-s']}` : ''}; target >= 200,000)`);
  }
  app.kill('SIGTERM');
  await app.proc.exited;
  // Ceiling, same run: DuckDB building the same lines of the same first 1,000,000 rows in time order, nothing sent.
  if (existsSync(join(import.meta.dir, '../../src/features/stats/export-windows.ts'))) {
    const ex = await import('../../src/features/stats/export');
    const { reportQuery, lineQuery } = ex;
    // The same form of query the export runs (lines built below the sort where the version has it).
    const lines = (r: ReturnType<typeof reportQuery>, f: 'csv' | 'ndjson') => ('reportLineQuery' in ex ? ex.reportLineQuery(r, f, 1_000_000) : lineQuery(r.sql, r.columns, f, 1_000_000));
    const db = await openStats(dbPath(data2));
    const q0 = { tenantId: tenant, from: end - 31 * 86_400_000, to: end, filters: {} };
    for (const x of exportRates) {
      const tcol = x.report === 'sessions' ? 'started' : 'ts', table = x.report === 'sessions' ? 'viewer_sessions' : 'player_events';
      const [c] = await db.all<{ t: number | null }>(`SELECT max(${tcol})::DOUBLE AS t FROM (SELECT ${tcol} FROM ${table} WHERE tenant_id = ? AND ${tcol} >= ? AND ${tcol} < ? ORDER BY ${tcol} LIMIT 1000000)`, [tenant, q0.from, q0.to]);
      const r = reportQuery(x.report as 'sessions', { ...q0, to: (c.t ?? q0.from) + 1 }, true);
      const a = performance.now();
      const [{ n }] = await db.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n, sum(length(line)) AS b FROM (${lines(r, x.format as 'csv')})`, r.params);
      const ceil = n / ((performance.now() - a) / 1000);
      console.log(`   ceiling ${x.report} ${x.format}: DuckDB builds the lines of ${n.toLocaleString('en')} rows at ${Math.round(ceil).toLocaleString('en')} rows/s; streamed export / ceiling ${(x.rate / ceil).toFixed(2)}`);
    }
    // Background cost of the sessionizer at this size: one pass after one new event of one session (as each flush
    // interval does while beacons arrive): the session, its minute and its day are rebuilt in the rollups.
    const { sessionize } = await import('../../src/features/stats/sessionizer');
    const passes: number[] = [];
    for (let i = 0; i < 3; i++) {
      await db.run(`INSERT INTO player_events SELECT * REPLACE (ts + 1 AS ts, ? AS received) FROM player_events WHERE ts = (SELECT max(ts) FROM player_events) LIMIT 1`, [Date.now()]);
      const a = performance.now();
      await sessionize(db);
      passes.push(performance.now() - a);
    }
    console.log(`   sessionizer pass after one new event (3 passes): ${passes.map((x) => x.toFixed(0)).join(', ')} ms`);
    await db.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
