#!/usr/bin/env bun
/**
 * Live benchmark: N channels of 720p25 passthrough pushed over SRT by local ffmpeg processes.
 * Prints appliance CPU% and RSS per channel (server process + its ingest ffmpegs) against the pushers,
 * ingest-to-playlist latency (time a segment is first listed minus its PDT end; p50/p95), and the segment
 * index rebuild time for a synthetic tree of 2 s segment files (empty files; cold, steady-state and one-hour-changed
 * reconciliation, scaled linearly from --days to a channel-year, wall and CPU) and the cost of the first read of an hour.
 * Usage: bun scripts/bench/live.ts [--channels 2] [--seconds 40] [--days 30] [--tree DIR]   (--channels 0 or --days 0
 * skips a part; --tree keeps the synthetic tree in DIR and reuses it on the next run, minus database and manifests;
 * a tree of an older layout in DIR is replaced)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { startTestServer } from '../../test/helpers/server';
import { killPushers, liveEnv, parseMedia, push } from '../../test/e2e/live-helpers';
import { liveControl } from '../../src/live/registry';
import type { LiveEngine } from '../../src/live/manager';
import { openDb } from '../../src/kernel/db/sqlite';
import { SegmentIndex } from '../../src/live/segment-index';
import { reconcileChannelAsync } from '../../src/live/reconcile';
import { segmentRelPath, initPath } from '../../src/live/paths';
import { listHourDirs } from '../../src/live/hours';

const arg = (name: string, def: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const N = arg('channels', 2), SECONDS = arg('seconds', 40), DAYS = arg('days', 30);
const TREE = (() => { const i = process.argv.indexOf('--tree'); return i > 0 ? process.argv[i + 1] : null; })();
const TICK = 100; // clock ticks per second on Linux

function cpuTicks(pid: number): number {
  try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); } catch { return 0; }
}
function rssKb(pid: number): number {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0); } catch { return 0; }
}
const pct = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN; };

async function liveBench() {
  const s = await startTestServer({ env: await liveEnv(N * 2 + 2) });
  const engine = liveControl(s.ctx.db) as LiveEngine;
  const chans: { id: string; slug: string }[] = [];
  const pushers = [];
  for (let i = 0; i < N; i++) {
    const ch = await (await s.api('POST', '/v1/channels', { name: `Bench ${i}` })).json();
    const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json();
    await s.api('POST', `/v1/channels/${ch.id}/start`);
    chans.push(ch);
    pushers.push(push(ing.srt.primary.url, { size: '1280x720', rate: 25, bitrateK: 3000, seconds: SECONDS + 15 }));
  }
  const warm = Date.now() + 6000;
  while (Date.now() < warm) await Bun.sleep(200);
  const appPids = () => [process.pid, ...[...engine.runtimes.values()].flatMap((rt) => [rt.inputs.primary.pid, rt.inputs.backup.pid]).filter((p): p is number => !!p)];
  const pushPids = pushers.map((p) => p.proc.pid!);
  const a0 = appPids().reduce((x, p) => x + cpuTicks(p), 0), p0 = pushPids.reduce((x, p) => x + cpuTicks(p), 0), t0 = Date.now();
  const seen = new Map<string, number>();
  const lat: number[] = [];
  const rss: number[] = [], prss: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  while (Date.now() < end) {
    for (const ch of chans) {
      const t = await (await fetch(`${s.url}/live/default/${ch.slug}/src/index.m3u8`)).text().catch(() => '');
      const now = Date.now();
      for (const sg of parseMedia(t)) {
        const k = `${ch.slug}/${sg.uri}`;
        if (seen.has(k)) continue;
        seen.set(k, now);
        if (seen.size > N * 3) lat.push(now - (sg.pdt + sg.durMs)); // skip the first listing (whole window at once)
      }
    }
    rss.push(appPids().reduce((x, p) => x + rssKb(p), 0)); prss.push(pushPids.reduce((x, p) => x + rssKb(p), 0));
    await Bun.sleep(100);
  }
  const secs = (Date.now() - t0) / 1000;
  const appCpu = ((appPids().reduce((x, p) => x + cpuTicks(p), 0) - a0) / TICK / secs) * 100;
  const pushCpu = ((pushPids.reduce((x, p) => x + cpuTicks(p), 0) - p0) / TICK / secs) * 100;
  const avg = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length / 1024;
  console.log(`live: ${N} channel(s) of 1280x720@25 x264 ~3 Mb/s over SRT, passthrough, ${secs.toFixed(0)} s measured`);
  console.log(`  appliance (bun + ingest ffmpegs): CPU ${appCpu.toFixed(1)}% total, ${(appCpu / N).toFixed(1)}% per channel; RSS ${avg(rss).toFixed(0)} MiB total, ${(avg(rss) / N).toFixed(0)} MiB per channel`);
  console.log(`  pushers (ffmpeg x264 encode):      CPU ${pushCpu.toFixed(1)}% total, ${(pushCpu / N).toFixed(1)}% per channel; RSS ${avg(prss).toFixed(0)} MiB total`);
  console.log(`  ingest-to-playlist latency (first listing - PDT end), ${lat.length} segments: p50 ${pct(lat, 50)} ms, p95 ${pct(lat, 95)} ms, max ${Math.max(...lat)} ms (target p95 < 3000 ms)`);
  for (const p of pushers) p.kill();
  await killPushers();
  await s.stop();
}

/** Ids as the appliance makes them (UUIDv7), so the tree's paths are as long as a real recording's. */
const TEN = '0193a5c2-7f00-7000-8000-00000000a001', CH = '0193a5c2-7f00-7000-8000-00000000c001';
/** A segment's start as the recorder names it: ~2 s apart on the channel's timeline, never round (keyframes of a 25 fps feed, a few frames either way). */
const startOf = (t0: number, i: number) => t0 + i * 2000 + ((i * 7) % 5 - 2) * 40 + 3;

async function rebuildBench() {
  const dir = TREE ?? mkdtempSync(join(tmpdir(), 'vs-bench-rebuild-'));
  const marker = join(dir, `tree-v2-${DAYS}d`);
  const reuse = TREE !== null && existsSync(marker);
  const rdir = join(dir, 'rec', TEN, CH, 'src');
  if (TREE !== null && !reuse) for (const n of readdirSync(dir)) if (n === 'rec' || n === 'db' || n.startsWith('tree-')) rmSync(join(dir, n), { recursive: true, force: true }); // an older layout
  if (reuse) {
    // Back to "from nothing": no database, no manifests (DD/hours.json, legacy DD/HH.json), no file added by a previous run.
    rmSync(join(dir, 'db'), { recursive: true, force: true });
    const added = readFileSync(marker, 'utf8');
    if (added) rmSync(added, { force: true });
    const walk = (p: string, depth: number): void => {
      for (const n of readdirSync(p)) {
        if (n.endsWith('.json') || n.endsWith('.tmp')) rmSync(join(p, n), { force: true });
        else if (depth < 3 && /^\d+$/.test(n)) walk(join(p, n), depth + 1);
      }
    };
    walk(rdir, 0);
  }
  try {
    // The synthetic tree is generated once, as the recorder leaves it (rec/<tenant>/<channel>/<rendition>/YYYY/MM/DD/HH/
    // <start ms>.m4s, segmentRelPath): empty ~2 s segment files for DAYS days of one rendition (a real year is
    // 15.8 M files, more inodes than a shared disk should give a benchmark), plus the run's init segment.
    const n = Math.round((DAYS * 86400) / 2);
    const t0 = Date.UTC(2025, 0, 1);
    const g0 = Date.now();
    let lastDir = '';
    for (let i = 0; i < (reuse ? 0 : n); i++) {
      const p = join(dir, 'rec', segmentRelPath(TEN, CH, 'src', startOf(t0, i)));
      const d = dirname(p);
      if (d !== lastDir) { mkdirSync(d, { recursive: true }); lastDir = d; }
      writeFileSync(p, '');
    }
    const ip = initPath(dir, TEN, CH, 'src', startOf(t0, 0));
    mkdirSync(dirname(ip), { recursive: true }); writeFileSync(ip, '');
    const genS = (Date.now() - g0) / 1000;
    let db = openDb(join(dir, 'db', 'meta.sqlite'));
    let index = new SegmentIndex(db, dir);
    const ch = { id: CH, tenant_id: TEN, segment_s: 2 };
    type Timed<T> = [T, number, number];
    const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; }; // every thread of the process
    const time = <T>(fn: () => T): [T, number] => { const a = performance.now(); const r = fn(); return [r, performance.now() - a]; };
    const timeAsync = async <T>(fn: () => Promise<T>): Promise<Timed<T>> => { const c = cpuMs(), a = performance.now(); const r = await fn(); return [r, performance.now() - a, cpuMs() - c]; };
    const year = (ms: number) => ((ms / 1000) * (365 / DAYS)).toFixed(2);
    const [cold, coldMs, coldCpu] = await timeAsync(() => reconcileChannelAsync(index, dir, ch));
    // Baseline in the same run: every hour directory listed with a plain readdirSync on one thread (names only).
    const hourPaths = listHourDirs(rdir).map((h) => h.path);
    const [names, plainMs] = time(() => hourPaths.reduce((a, p) => a + readdirSync(p).length, 0));
    const [steady, steadyMs, steadyCpu] = await timeAsync(() => reconcileChannelAsync(index, dir, ch));
    // The database is lost: rebuild from nothing again, now with the day manifests the first rebuild wrote.
    db.close();
    rmSync(join(dir, 'db'), { recursive: true, force: true });
    db = openDb(join(dir, 'db', 'meta.sqlite'));
    index = new SegmentIndex(db, dir);
    const [warm, warmMs, warmCpu] = await timeAsync(() => reconcileChannelAsync(index, dir, ch));
    // One hour changes behind the index's back (a file added to the middle hour): only that hour is listed.
    const added = join(dir, 'rec', segmentRelPath(TEN, CH, 'src', startOf(t0, Math.floor(n / 2)) + 1));
    if (TREE) writeFileSync(marker, added);
    writeFileSync(added, '');
    const [one, oneMs, oneCpu] = await timeAsync(() => reconcileChannelAsync(index, dir, ch));
    const [rows, hourMs] = time(() => index.segmentsInRange(ch, 'src', t0 + 86_400_000, t0 + 86_400_000 + 3_600_000));
    const [day, dayMs] = time(() => index.segmentsInRange(ch, 'src', t0 + 2 * 86_400_000, t0 + 3 * 86_400_000));
    const [again, againMs] = time(() => index.segmentsInRange(ch, 'src', t0 + 2 * 86_400_000, t0 + 3 * 86_400_000));
    db.close();
    const line = (what: string, st: { hours: number; listed: number; changed: number; segments: number }, ms: number, cpu: number) =>
      console.log(`  ${what}: ${(ms / 1000).toFixed(3)} s (${st.segments} segments, ${st.hours} hours, ${st.listed} listed, ${st.changed} summaries written; CPU ${(cpu / 1000).toFixed(3)} s) -> ${year(ms)} s per channel-year (CPU ${year(cpu)} s)`);
    console.log(`rebuild: ${n} synthetic ~2 s segment files over ${DAYS} days (one rendition, paths and names as the recorder writes them; ${reuse ? 'reused from --tree' : `generated once in ${genS.toFixed(1)} s`}; page cache warm); target < 5 s per channel-year`);
    line('from nothing, no manifests (every hour listed, names only, no per-file stat)', cold, coldMs, coldCpu);
    console.log(`  baseline, plain readdirSync of every hour on one thread (${names} names): ${(plainMs / 1000).toFixed(3)} s -> ${year(plainMs)} s per channel-year; rebuild from nothing / baseline = ${(coldMs / plainMs).toFixed(2)}`);
    line('steady-state startup, nothing changed (one stat per hour, mtime matches the index)', steady, steadyMs, steadyCpu);
    line('from nothing, database lost (day manifests valid for their hour directory mtime)', warm, warmMs, warmCpu);
    line('one hour changed behind the index (only it is listed)', one, oneMs, oneCpu);
    console.log(`  first read of one hour (derive ${rows.length} rows: listing + stat + insert): ${hourMs.toFixed(1)} ms; of one day (${day.length} rows): ${dayMs.toFixed(0)} ms; the same day again from the index (${again.length}): ${againMs.toFixed(0)} ms`);
    console.log(`  per-channel-year = measured seconds x 365 / ${DAYS} (cost is linear in files listed and hour directories; a channel recording R renditions costs R times this); CPU = all threads of the process`);
  } finally { if (!TREE) rmSync(dir, { recursive: true, force: true }); }
}

if (N > 0) await liveBench();
if (DAYS > 0) await rebuildBench();
process.exit(0);
