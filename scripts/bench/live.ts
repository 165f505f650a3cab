#!/usr/bin/env bun
/**
 * Live benchmark: N channels of 720p25 passthrough pushed over SRT by local ffmpeg processes.
 * Prints appliance CPU% and RSS per channel (server process + its ingest ffmpegs) against the pushers,
 * ingest-to-playlist latency (time a segment is first listed minus its PDT end; p50/p95), and the segment
 * index rebuild time for synthetic 2 s segment files (empty files; scaled from --days to a channel-year).
 * Usage: bun scripts/bench/live.ts [--channels 2] [--seconds 40] [--days 7]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { startTestServer } from '../../test/helpers/server';
import { killPushers, liveEnv, parseMedia, push } from '../../test/e2e/live-helpers';
import { liveControl } from '../../src/live/registry';
import type { LiveEngine } from '../../src/live/manager';
import { openDb, tx } from '../../src/kernel/db/sqlite';
import { ChannelStore } from '../../src/features/channels/store';
import { rebuildRows } from '../../src/live/rebuild';
import { segmentRelPath, initPath } from '../../src/live/paths';

const arg = (name: string, def: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const N = arg('channels', 2), SECONDS = arg('seconds', 40), DAYS = arg('days', 7);
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

async function rebuildBench() {
  const dir = mkdtempSync(join(tmpdir(), 'vs-bench-rebuild-'));
  try {
    const n = Math.round((DAYS * 86400) / 2);
    const t0 = Date.UTC(2025, 0, 1);
    const g0 = Date.now();
    let lastDir = '';
    for (let i = 0; i < n; i++) {
      const p = join(dir, 'rec', segmentRelPath('ten', 'ch', 'src', t0 + i * 2000));
      const d = dirname(p);
      if (d !== lastDir) { mkdirSync(d, { recursive: true }); lastDir = d; }
      writeFileSync(p, '');
    }
    const ip = initPath(dir, 'ten', 'ch', 'src', t0);
    mkdirSync(dirname(ip), { recursive: true }); writeFileSync(ip, '');
    const genS = (Date.now() - g0) / 1000;
    const db = openDb(join(dir, 'db', 'meta.sqlite'));
    const store = new ChannelStore(db);
    const r0 = performance.now();
    const rows = tx(db, () => store.replaceIndex('ch', rebuildRows(dir, 'ten', 'ch', 'src', 2000)));
    const ms = performance.now() - r0;
    db.close();
    const perYear = (ms / 1000) * (365 / DAYS);
    console.log(`rebuild: ${rows} synthetic 2 s segment files (${DAYS} days; generated in ${genS.toFixed(1)} s) indexed in ${(ms / 1000).toFixed(2)} s`);
    console.log(`  = ${Math.round(rows / (ms / 1000))} segments/s; scaled to a channel-year (15.8 M files): ${perYear.toFixed(1)} s (target < 10 s)`);
  } finally { rmSync(dir, { recursive: true, force: true }); }
}

if (N > 0) await liveBench();
if (DAYS > 0) await rebuildBench();
process.exit(0);
