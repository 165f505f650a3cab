#!/usr/bin/env bun
/**
 * Upload benchmark: a 1 GiB file as 16 parallel 64 MiB parts over loopback into a `serve` child process, against
 * writing the same bytes with Bun.write in the same run. Prints MB/s of both, the ratio (target >= 0.6) and the
 * server's peak RSS (VmHWM, target < 300 MB).   Usage: bun scripts/bench/upload.ts [--keep]
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppliance } from './lib';

const PART = 67108864;
const SIZE = 16 * PART;
const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'vs-bench-upload-'));
const data = new Uint8Array(SIZE);
{ // Incompressible, deterministic bytes.
  const v = new Uint32Array(data.buffer);
  let x = 2463534242;
  for (let i = 0; i < v.length; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; v[i] = x >>> 0; }
}
const mb = (bytes: number, ms: number) => bytes / 1048576 / (ms / 1000);
/** CPU seconds per thread name of a process (Linux /proc), to show where the time goes. */
const cpu = (pid: number): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      const name = /\((.*)\)/.exec(s)?.[1] ?? '?';
      out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) / 100;
    } catch { /* thread gone */ }
  }
  return out;
};
const cpuSince = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.entries(b).map(([k, v]) => [k, Number((v - (a[k] ?? 0)).toFixed(2))]).filter(([, v]) => (v as number) >= 0.05));
const rss = (pid: number, field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const app = await startAppliance(join(dir, 'data'), { VS_LOG_LEVEL: 'error' });
try {
  const pid = app.proc.pid;
  const auth = { authorization: `Bearer ${app.key}` };
  // Baseline: the same bytes with Bun.write on the same filesystem (fsync'd like the server's parts).
  const t0 = performance.now();
  await Bun.write(join(dir, 'baseline.bin'), data);
  Bun.spawnSync(['sync', join(dir, 'baseline.bin')]);
  const baseMs = performance.now() - t0;
  rmSync(join(dir, 'baseline.bin'));

  const rssBefore = rss(pid, 'VmRSS');
  const up = await (await fetch(`${app.url}/v1/uploads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'bench.bin', size_bytes: SIZE }) })).json() as { upload_id: string; key: string; parts: { part_number: number; url: string }[] };
  let peakSampled = 0;
  const sampler = setInterval(() => { try { peakSampled = Math.max(peakSampled, rss(pid, 'VmRSS')); } catch { /* gone */ } }, 50);
  const cpu0 = cpu(pid), ccpu0 = cpu(process.pid);
  const t1 = performance.now();
  const parts = await Promise.all(up.parts.map(async (p) => {
    const body = data.subarray((p.part_number - 1) * PART, p.part_number * PART);
    const r = await fetch(p.url, { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: body as BodyInit });
    if (r.status !== 200) throw new Error(`part ${p.part_number}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<{ part_number: number; etag: string }>;
  }));
  const partsMs = performance.now() - t1;
  const c = await fetch(`${app.url}/v1/uploads/${up.upload_id}/complete`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ key: up.key, parts }) });
  if (c.status !== 201) throw new Error(`complete: ${c.status} ${await c.text()}`);
  const totalMs = performance.now() - t1;
  const serverCpu = cpuSince(cpu0, cpu(pid)), clientCpu = cpuSince(ccpu0, cpu(process.pid));
  clearInterval(sampler);
  const upMbps = mb(SIZE, totalMs), baseMbps = mb(SIZE, baseMs);
  const peak = rss(pid, 'VmHWM');
  console.log(JSON.stringify({
    size_mib: SIZE / 1048576, parts: 16, part_mib: 64,
    bun_write_mb_s: Math.round(baseMbps), upload_mb_s: Math.round(upMbps), parts_only_mb_s: Math.round(mb(SIZE, partsMs)),
    ratio: Number((upMbps / baseMbps).toFixed(2)), ratio_target: 0.6,
    server_cpu_s_by_thread: serverCpu, client_cpu_s_by_thread: clientCpu, load_avg_1m: Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]),
    server_rss_before_mb: Math.round(rssBefore), server_rss_peak_sampled_mb: Math.round(peakSampled), server_peak_rss_vmhwm_mb: Math.round(peak), rss_target_mb: 300,
  }, null, 2));
} finally {
  app.kill('SIGKILL');
  if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
}
