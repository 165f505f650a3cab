#!/usr/bin/env bun
/**
 * FAST benchmark (issue 48): CPU per FAST channel against one live ingest channel, measured in the same run.
 * One in-process appliance; two 720p assets encoded through the job queue (ladder `fast`: 720p + 360p). Windows of
 * --seconds each, CPU time from /proc (utime + stime): (1) idle appliance; (2) one passthrough channel fed 1280x720@25
 * ~3 Mb/s over SRT by a local ffmpeg (appliance process + its ingest ffmpegs; the pusher is the encoder, not counted);
 * (3) --channels FAST channels airing the two assets with a slate break (appliance process only: no child process).
 * The idle CPU is taken off both; prints CPU per channel and the ratio FAST / ingest (target <= 0.1).
 * Usage: bun scripts/bench/fast.ts [--channels 4] [--seconds 30]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startTestServer, waitFor } from '../../test/helpers/server';
import { killPushers, liveEnv, push } from '../../test/e2e/live-helpers';
import { makeClip, registerAsset, settled } from '../../test/e2e/transcode-helpers';
import { liveControl } from '../../src/live/registry';
import type { LiveEngine } from '../../src/live/manager';

const arg = (name: string, def: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const N = arg('channels', 4), SECONDS = arg('seconds', 30);
const TICK = 100; // clock ticks per second on Linux

function cpuTicks(pid: number): number {
  try { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); } catch { return 0; }
}

/** CPU seconds per wall second of `pids()` over one window. */
async function window(pids: () => number[]): Promise<number> {
  const t0 = Date.now(), c0 = new Map(pids().map((p) => [p, cpuTicks(p)]));
  await Bun.sleep(SECONDS * 1000);
  const used = pids().reduce((a, p) => a + cpuTicks(p) - (c0.get(p) ?? 0), 0);
  return used / TICK / ((Date.now() - t0) / 1000);
}

const dir = mkdtempSync(join(tmpdir(), 'vs-bench-fast-'));
const s = await startTestServer({ env: await liveEnv(2 * N + 4) });
try {
  const engine = liveControl(s.ctx.db) as LiveEngine;
  const [ca, cb] = await Promise.all([makeClip(join(dir, 'a.mp4'), { size: '1280x720', seconds: 12 }), makeClip(join(dir, 'b.mp4'), { size: '1280x720', seconds: 8 })]);
  const a = registerAsset(s.ctx, ca, { ladder: 'fast' }), b = registerAsset(s.ctx, cb, { ladder: 'fast' });
  for (const id of [a, b]) if ((await settled(s.ctx, id, 600_000)).status !== 'ready') throw new Error('asset encode failed');
  s.ctx.db.query(`UPDATE assets SET metadata = '{"ads":{"cues":[5]}}' WHERE id = ?`).run(a);
  await Bun.sleep(2000);

  const idle = await window(() => [process.pid]);

  const ing = await (await s.api('POST', '/v1/channels', { name: 'Ingest' })).json() as { id: string };
  const ep = await (await s.api('GET', `/v1/channels/${ing.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  await s.api('POST', `/v1/channels/${ing.id}/start`);
  const pusher = push(ep.srt.primary.url, { size: '1280x720', rate: 25, bitrateK: 3000, seconds: SECONDS + 30 });
  await waitFor('ingest live', async () => ((await (await s.api('GET', `/v1/channels/${ing.id}`)).json()) as { status: string }).status === 'live', 30_000, 200);
  await Bun.sleep(4000);
  const ingestPids = () => [process.pid, ...[...engine.runtimes.values()].flatMap((rt) => [rt.inputs.primary.pid, rt.inputs.backup.pid]).filter((p): p is number => !!p)];
  const ingest = await window(ingestPids);
  pusher.kill();
  await killPushers();
  await s.api('POST', `/v1/channels/${ing.id}/stop`);

  const fast: string[] = [];
  for (let i = 0; i < N; i++) {
    const ch = await (await s.api('POST', '/v1/channels', { name: `Fast ${i}` })).json() as { id: string };
    const r = await s.api('PUT', `/v1/channels/${ch.id}/fast`, { items: [{ asset_id: a }, { asset_id: b }], breaks: { slate_asset_id: b }, guide_hours: 6 });
    if (r.status !== 201) throw new Error(`schedule: ${r.status} ${await r.text()}`);
    fast.push(ch.id);
  }
  await waitFor('schedules prepared', async () => {
    for (const id of fast) if (((await (await s.api('GET', `/v1/channels/${id}/fast`)).json()) as { status: string }).status !== 'ready') return false;
    return true;
  }, 300_000, 500);
  for (const id of fast) await s.api('POST', `/v1/channels/${id}/start`);
  await waitFor('FAST channels live', async () => {
    for (const id of fast) if (((await (await s.api('GET', `/v1/channels/${id}`)).json()) as { status: string }).status !== 'live') return false;
    return true;
  }, 60_000, 250);
  await Bun.sleep(4000); // past the backfill and the first guide generation
  const children = [...engine.runtimes.keys()].length;
  const fastAll = await window(() => [process.pid]);

  const ingestPer = Math.max(1e-6, ingest - idle), fastPer = Math.max(0, fastAll - idle) / N;
  console.log(`fast: ${SECONDS} s windows; idle appliance ${(idle * 100).toFixed(2)}% CPU (taken off both)`);
  console.log(`  live ingest, 1 channel 1280x720@25 ~3 Mb/s SRT passthrough (appliance + ingest ffmpeg): ${(ingestPer * 100).toFixed(2)}% CPU`);
  console.log(`  FAST, ${N} channels of 720p + 360p stitched (appliance only, ${children} ingest runtimes running): ${(fastAll - idle >= 0 ? (fastAll - idle) * 100 : 0).toFixed(2)}% CPU total, ${(fastPer * 100).toFixed(2)}% per channel`);
  console.log(`  ratio FAST channel / ingest channel: ${(fastPer / ingestPer).toFixed(3)}x (target <= 0.1x)`);
} finally {
  await killPushers();
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
}
