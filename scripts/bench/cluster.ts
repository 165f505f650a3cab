#!/usr/bin/env bun
/**
 * Cluster benchmark (issue 49). Two figures, each against a baseline measured in the same run:
 *  1. Delivery: one segment through an edge node (the real `edge run` nginx configuration, with its access log on)
 *     in front of a control node whose media is in an S3 bucket vs one whose media is on its disk, once cached:
 *     wrk rounds alternating between the two (same box state for both), ratio of median requests/s s3/local
 *     (target ≥ 0.9). Reported with the edge's X-Cache-Status counts inside the measured windows (anything but HIT
 *     reached the control) and the control nodes' CPU time in them.
 *  2. Batch: N uploads (default 10 × 60 s, `--uploads N --seconds S`) transcoded by ONE worker pinned to core 0 vs
 *     TWO workers pinned to cores 0 and 1 (`taskset`, standing in for two machines): batch time-to-ready ratio two/one
 *     (target ≤ 0.6), with the workers' own figures (job wall time each reported in its result, CPU time of the worker
 *     processes and their ffmpeg) and the control node's CPU time per upload (what does not scale with workers).
 * Workers encode at niceness 0 (`VS_TRANSCODE_NICE=0`): a worker machine runs nothing else, and on a shared box a
 * niced encode would give its pinned core away to unrelated processes.
 * Needs nats-server, nginx, ffmpeg, wrk and taskset.
 * Usage: bun scripts/bench/cluster.ts [--phase all|delivery|batch] [--uploads 10] [--seconds 60] [--rounds 5] [--window 3]
 */
import { Database } from 'bun:sqlite';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Subprocess } from 'bun';
import { spawnServe, type ServeProc } from '../../test/helpers/proc';
import { freePort, waitFor } from '../../test/helpers/server';
import { cli, makeClip, natsServerBinary, spawnWorker, startNats, startS3, uploadFile, type WorkerProc } from '../../test/e2e/cluster-helpers';
import { renderEdgeNodeConf } from '../../src/features/cluster/edge-node';
import { nginxBinary } from '../../src/delivery-front/front';
import { cpuSeconds, median, wrk } from './lib';

const { values } = parseArgs({
  options: {
    phase: { type: 'string', default: 'all' }, uploads: { type: 'string', default: '10' }, seconds: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '5' }, window: { type: 'string', default: '3' }, connections: { type: 'string', default: '8' },
  },
});
const N = Number(values.uploads), SECONDS = Number(values.seconds), ROUNDS = Number(values.rounds), WINDOW = Number(values.window);
const CONNS = Number(values.connections), PHASE = values.phase!;
const NATS = natsServerBinary(), NGINX = nginxBinary();
if (!NATS || !NGINX) { console.error('nats-server and nginx are needed'); process.exit(2); }
const root = mkdtempSync(join(tmpdir(), 'vs-bench-cluster-'));
const main = join(import.meta.dir, '../../src/main.ts');
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/** The edge node's nginx (the configuration `viewstream edge run` writes) with its access log at `dir/access.log`. */
function startEdge(origin: string, port: number, dir: string): { proc: Subprocess; log: string } {
  for (const d of ['cache', 'tmp']) mkdirSync(join(dir, d), { recursive: true });
  const log = join(dir, 'access.log');
  writeFileSync(join(dir, 'nginx.conf'), renderEdgeNodeConf({ origin, host: '127.0.0.1', port, dir, maxSize: '2g', accessLog: log, user: process.getuid?.() === 0 ? 'root' : undefined }));
  const proc = Bun.spawn([NGINX!, '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdin: 'ignore', stdout: 'ignore', stderr: 'inherit' });
  return { proc, log };
}

interface Cluster { edgePid: number; control: ServeProc; key: string; dir: string; workers: WorkerProc[]; natsPid: number; stopWorkers(): Promise<void>; stop(): Promise<void> }

/** One cluster: nats, bucket, control (S3 store or local), an edge; `workers` pinned one per core from core 0 (`pin`). */
async function cluster(name: string, store: 's3' | 'local', workers: number, pin: boolean): Promise<Cluster & { edgeLog: string }> {
  const dir = join(root, name);
  const nats = await startNats(NATS!, dir);
  const s3 = await startS3(dir, 'bench');
  const edgePort = await freePort();
  const env: Record<string, string> = { VS_NATS_URL: nats.url, VS_TRANSCODE_ENCODER: 'libx264', VS_CDN_BASE_URL: `http://127.0.0.1:${edgePort}`, VS_LOG_LEVEL: 'warn' };
  if (store === 's3') Object.assign(env, { VS_MEDIA_STORE: 's3://bench/b', VS_MEDIA_STORE_ENDPOINT: s3.endpoint, VS_MEDIA_STORE_ACCESS_KEY_ID: 'S3RVER', VS_MEDIA_STORE_SECRET_ACCESS_KEY: 'S3RVER', VS_MEDIA_STORE_REGION: 'us-east-1' });
  const control: ServeProc = await spawnServe(['bun', main, 'serve', '--data', join(dir, 'control'), '--port', '0', '--host', '127.0.0.1'], env, 60_000);
  const edge = startEdge(control.url, edgePort, join(dir, 'edge'));
  const ws: WorkerProc[] = [];
  for (let i = 0; i < workers; i++) {
    const t = JSON.parse(await cli(['admin', 'worker-token', 'create', '--name', `w${i}`, '--json', '--data', join(dir, 'control')])) as { token: string };
    ws.push(spawnWorker(`w${i}`, control.url, t.token, join(dir, `w${i}`), { VS_TRANSCODE_ENCODER: 'libx264', VS_TRANSCODE_NICE: '0', VS_LOG_LEVEL: 'info' }, pin ? String(i) : undefined));
  }
  await waitFor('workers joined', () => ws.every((w) => w.output().includes('joined')), 60_000, 100);
  let workersUp = true;
  const stopWorkers = async () => { if (!workersUp) return; workersUp = false; for (const w of ws) { w.proc.kill(9); await w.proc.exited; } };
  return {
    edgePid: edge.proc.pid, control, key: control.key!, dir, workers: ws, natsPid: nats.proc.pid, edgeLog: edge.log, stopWorkers,
    async stop() { await stopWorkers(); control.kill('SIGKILL'); await control.proc.exited; edge.proc.kill('SIGQUIT'); await edge.proc.exited; await nats.stop(); await s3.stop(); },
  };
}

const assetOf = async (c: Cluster, id: string) => (await fetch(`${c.control.url}/v1/assets/${id}`, { headers: { authorization: `Bearer ${c.key}` } })).json() as Promise<{ status: string; playback: { hls: string } }>;

/** Waits until every asset is ready (throws on a failed one). */
async function allReady(c: Cluster, ids: string[]): Promise<void> {
  await waitFor('assets ready', async () => (await Promise.all(ids.map((id) => assetOf(c, id)))).every((a) => {
    if (a.status === 'failed') throw new Error('an asset failed');
    return a.status === 'ready';
  }), 3_600_000, 500);
}

/** The URL (through the edge) of the first segment of the first variant of an asset's HLS master. */
async function segmentUrl(c: Cluster, id: string): Promise<string> {
  const hls = (await assetOf(c, id)).playback.hls;
  const master = await (await fetch(hls)).text();
  const media = new URL(master.split('\n').find((l) => l && !l.startsWith('#'))!, hls).href;
  return new URL((await (await fetch(media)).text()).split('\n').find((l) => l && !l.startsWith('#'))!, media).href;
}

/** CPU seconds of an nginx master and its worker processes (what the edge spent answering). */
function nginxCpu(masterPid: number): number {
  let kids: number[] = [];
  try { kids = readFileSync(`/proc/${masterPid}/task/${masterPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number); } catch { /* gone */ }
  return cpuSeconds(masterPid) + kids.reduce((a, k) => a + cpuSeconds(k), 0);
}

/** X-Cache-Status counts of the edge's access log lines whose time falls in one of the windows (epoch ms). */
function cacheCounts(log: string, windows: [number, number][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const [msec, , status] = line.split(' ');
    const t = Number(msec) * 1000;
    if (!line || !windows.some(([a, b]) => t >= a && t <= b)) continue;
    const k = status === '-' ? 'none' : status!;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** Figure 1: cached segment delivery through an edge, S3-backed control vs local-disk control, alternating rounds. */
async function delivery(): Promise<void> {
  const clip = join(root, 'short.mp4');
  await makeClip(clip, 8, '1280x720');
  const stacks = { s3: await cluster('d-s3', 's3', 1, false), local: await cluster('d-local', 'local', 1, false) };
  try {
    const segs: Record<string, string> = {};
    for (const [k, c] of Object.entries(stacks)) {
      const id = await uploadFile(c.control.url, c.key, clip, `seg ${k}`);
      await allReady(c, [id]);
      await c.stopWorkers(); // nothing more to encode: the workers' processes leave the box
      segs[k] = await segmentUrl(c, id);
      for (let i = 0; i < 3; i++) await (await fetch(segs[k]!)).arrayBuffer(); // fill the edge's cache
    }
    const sizes = Object.fromEntries(await Promise.all(Object.entries(segs).map(async ([k, u]) => [k, (await (await fetch(u)).arrayBuffer()).byteLength])));
    const rows: { s3: number; local: number; cpuS3: number; cpuLocal: number; edgeUsS3: number; edgeUsLocal: number }[] = [];
    const windows: Record<string, [number, number][]> = { s3: [], local: [] };
    console.log(`delivery: segment ${sizes.s3} bytes (S3) / ${sizes.local} bytes (local), ${CONNS} connections, ${ROUNDS} rounds × ${WINDOW} s each, load ${load()}`);
    for (let r = 0; r < ROUNDS; r++) {
      const row = { s3: 0, local: 0, cpuS3: 0, cpuLocal: 0, edgeUsS3: 0, edgeUsLocal: 0 };
      for (const k of (r % 2 ? ['local', 's3'] : ['s3', 'local']) as ('s3' | 'local')[]) {
        const pid = stacks[k].control.proc.pid;
        const c0 = cpuSeconds(pid, { children: true }), e0 = nginxCpu(stacks[k].edgePid), t0 = Date.now();
        const res = await wrk(segs[k]!, { connections: CONNS, seconds: WINDOW, threads: 1 });
        windows[k].push([t0, Date.now()]);
        row[k] = res.rps;
        row[k === 's3' ? 'cpuS3' : 'cpuLocal'] = cpuSeconds(pid, { children: true }) - c0;
        row[k === 's3' ? 'edgeUsS3' : 'edgeUsLocal'] = ((nginxCpu(stacks[k].edgePid) - e0) * 1e6) / Math.max(1, res.requests);
        if (res.non2xx || res.errors) console.log(`  ${k}: ${res.non2xx} non-2xx, ${res.errors} socket errors`);
      }
      rows.push(row);
      console.log(`  round ${r + 1}: S3 ${row.s3.toFixed(0)}/s, local ${row.local.toFixed(0)}/s, ratio ${(row.s3 / row.local).toFixed(2)}; edge CPU per request ${row.edgeUsS3.toFixed(0)} / ${row.edgeUsLocal.toFixed(0)} µs; control CPU in the windows ${row.cpuS3.toFixed(2)} s / ${row.cpuLocal.toFixed(2)} s; load ${load()}`);
    }
    await Bun.sleep(1500); // the access log is flushed every second
    const ms3 = median(rows.map((x) => x.s3)), mlocal = median(rows.map((x) => x.local));
    console.log(`edge X-Cache-Status in the windows: S3 ${JSON.stringify(cacheCounts(stacks.s3.edgeLog, windows.s3))}, local ${JSON.stringify(cacheCounts(stacks.local.edgeLog, windows.local))}`);
    const us3 = median(rows.map((x) => x.edgeUsS3)), ulocal = median(rows.map((x) => x.edgeUsLocal));
    console.log(`edge CPU per cached answer (independent of how much CPU the box gave it): S3 ${us3.toFixed(0)} µs, local ${ulocal.toFixed(0)} µs (medians), efficiency ratio local/S3 ${(ulocal / us3).toFixed(2)}`);
    console.log(`cached segment through the edge: S3 store ${ms3.toFixed(0)}/s, local disk ${mlocal.toFixed(0)}/s (medians), ratio ${(ms3 / mlocal).toFixed(2)}; median of per-round ratios ${median(rows.map((x) => x.s3 / x.local)).toFixed(2)} (target ≥ 0.9); load ${load()}`);
  } finally {
    for (const c of Object.values(stacks)) await c.stop();
  }
}

/** The workers' own reports of the batch's jobs (the control node's cluster_jobs results): job wall ms by worker. */
function workerReports(c: Cluster): { worker: string; ms: number }[] {
  const db = new Database(join(c.dir, 'control', 'db', 'meta.sqlite'), { readonly: true });
  try {
    return db.query(`SELECT worker, result FROM cluster_jobs WHERE status = 'done' AND result IS NOT NULL`).all()
      .map((r) => ({ worker: String((r as { worker: string | null }).worker), ms: Number((JSON.parse((r as { result: string }).result) as { ms?: number }).ms ?? NaN) }));
  } finally { db.close(); }
}

/** Figure 2 for one worker count: batch seconds, workers' job time and CPU, the control's CPU. */
async function batch(clip: string, workers: number) {
  const c = await cluster(`b${workers}`, 's3', workers, true);
  try {
    const cpu = () => ({
      control: cpuSeconds(c.control.proc.pid, { children: true }), controlKids: cpuSeconds(c.control.proc.pid, { self: false, children: true }),
      nats: cpuSeconds(c.natsPid), bench: cpuSeconds('self'), workers: c.workers.reduce((a, w) => a + cpuSeconds(w.proc.pid, { children: true }), 0),
    });
    // The control node's CPU while idle (timers, queue polls): subtracted to give what the uploads cost it.
    const i0 = cpu().control, ti = performance.now();
    await Bun.sleep(10_000);
    const idleRate = (cpu().control - i0) / ((performance.now() - ti) / 1000);
    const before = cpu(), t0 = performance.now();
    const ids = await Promise.all(Array.from({ length: N }, (_, i) => uploadFile(c.control.url, c.key, clip, `bench ${i}`)));
    const uploaded = (performance.now() - t0) / 1000;
    await allReady(c, ids);
    const wall = (performance.now() - t0) / 1000;
    const after = cpu();
    const reports = workerReports(c);
    const d = { control: after.control - before.control, controlKids: after.controlKids - before.controlKids, nats: after.nats - before.nats, bench: after.bench - before.bench, workers: after.workers - before.workers };
    const controlWork = d.control - idleRate * wall;
    const jobS = reports.reduce((a, r) => a + r.ms, 0) / 1000;
    const per = Object.entries(Object.groupBy(reports, (r) => r.worker)).map(([w, rs]) => `${w} ${rs!.length} jobs ${(rs!.reduce((a, r) => a + r.ms, 0) / 1000).toFixed(1)} s`).join(', ');
    console.log(`batch, ${workers} worker(s): ${wall.toFixed(1)} s (uploads in ${uploaded.toFixed(1)} s); worker job wall ${jobS.toFixed(1)} s (${per}); CPU: workers+ffmpeg ${d.workers.toFixed(1)} s (${(d.workers / wall).toFixed(2)} cores busy), control ${d.control.toFixed(1)} s (its children ${d.controlKids.toFixed(1)} s; idle rate ${(idleRate * 100).toFixed(1)} % of a core, so the uploads' own ${(controlWork / N).toFixed(2)} s per upload), bench+s3rver ${d.bench.toFixed(1)} s, nats ${d.nats.toFixed(1)} s; load ${load()}`);
    return { wall, jobS, workerCpu: d.workers, controlCpu: controlWork };
  } finally { await c.stop(); }
}

try {
  if (PHASE === 'all' || PHASE === 'delivery') await delivery();
  if (PHASE === 'all' || PHASE === 'batch') {
    const clip = join(root, 'clip.mp4');
    await makeClip(clip, SECONDS, '1280x720');
    console.log(`batch: ${N} × ${SECONDS} s 1280x720 uploads, load ${load()}`);
    const one = await batch(clip, 1);
    const two = await batch(clip, 2);
    console.log(`batch of ${N} × ${SECONDS} s uploads: one worker ${one.wall.toFixed(1)} s, two workers ${two.wall.toFixed(1)} s, ratio ${(two.wall / one.wall).toFixed(2)} (target ≤ 0.6)`);
    console.log(`  encode share: workers' CPU ${one.workerCpu.toFixed(1)} s vs ${two.workerCpu.toFixed(1)} s, job wall ${one.jobS.toFixed(1)} s vs ${two.jobS.toFixed(1)} s; control CPU ${(one.controlCpu / N).toFixed(2)} / ${(two.controlCpu / N).toFixed(2)} s per upload = ${(100 * one.controlCpu / Math.max(one.workerCpu, 1e-9)).toFixed(1)} % of the encode CPU`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
