/** Shared helpers for benchmark scripts: wrk runs, process stats, formatting. */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { spawnServe, type ServeProc } from '../../test/helpers/proc';

/** One wrk result. */
export interface WrkResult { rps: number; p50ms: number; p99ms: number; mbps: number; non2xx: number; errors: number; requests: number }

function ms(v: string, unit: string): number {
  const n = Number(v);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60000 : n;
}

/** Runs wrk (Debian package `wrk`) against `url` and parses throughput and latency percentiles. */
export async function wrk(url: string, o: { connections: number; seconds: number; threads?: number; headers?: Record<string, string> }): Promise<WrkResult> {
  if (!Bun.which('wrk')) throw new Error('wrk not found: apt-get install wrk');
  const args = ['wrk', `-t${o.threads ?? 2}`, `-c${o.connections}`, `-d${o.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(o.headers ?? {})) args.push('-H', `${k}: ${v}`);
  const p = Bun.spawnSync([...args, url], { stdout: 'pipe', stderr: 'pipe' });
  const out = p.stdout.toString();
  const lat = (pct: string) => { const m = new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(out); return m ? ms(m[1], m[2]) : NaN; };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const tr = /Transfer\/sec:\s+([\d.]+)(KB|MB|GB|B)/.exec(out);
  const mbps = tr ? Number(tr[1]) * ({ B: 1 / 2 ** 20, KB: 1 / 1024, MB: 1, GB: 1024 } as Record<string, number>)[tr[2]] : NaN;
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const se = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = se ? se.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  if (!Number.isFinite(rps)) throw new Error(`wrk failed: ${out}\n${p.stderr.toString()}`);
  return { rps, p50ms: lat('50'), p99ms: lat('99'), mbps, non2xx, errors, requests };
}

/** Median of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Starts the appliance from source in a temp data dir with extra env; returns its address and owner key. */
export async function startAppliance(dataDir: string, env: Record<string, string> = {}): Promise<ServeProc> {
  // Two minutes to listen: on a loaded shared box the first start (transpiling the app) can pass spawnServe's 30 s.
  return spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], env, 120_000);
}

/**
 * First start of an appliance over `dataDir`: creates the schema and the owner key, stops it, and opens its database
 * for the bench to write fixtures into. The stopped appliance's last connection may still be closing (SQLITE_BUSY even
 * on prepare): the default tenant is read with retries.
 */
export async function firstStart(dataDir: string, env: Record<string, string>): Promise<{ key: string; db: Database; tenant: string }> {
  const app = await startAppliance(dataDir, env);
  const key = app.key!;
  app.kill('SIGTERM');
  await app.proc.exited;
  const db = new Database(join(dataDir, 'db', 'meta.sqlite'));
  for (let i = 0; ; i++) {
    try { return { key, db, tenant: db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id }; } catch (e) { if (i > 100) throw e; await Bun.sleep(100); }
  }
}

/** Resident set size of a process in MB (Linux /proc). */
export function rssMb(pid: number): number {
  try {
    const s = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string;
    return Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024;
  } catch { return 0; }
}

/** Peak resident set size of a process in MB (Linux VmHWM). */
export function peakRssMb(pid: number): number {
  try {
    const s = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8') as string;
    return Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024;
  } catch { return 0; }
}

/**
 * CPU seconds (user+system) used so far by a process (Linux /proc): its own by default; with `children`, also (or,
 * with `self: false`, only) those of its children it has waited for.
 */
export function cpuSeconds(pid: number | 'self', o: { self?: boolean; children?: boolean } = {}): number {
  try {
    const f = (require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8') as string).split(') ')[1].split(' ');
    const own = o.self === false ? 0 : Number(f[11]) + Number(f[12]);
    const kids = o.children ? Number(f[13]) + Number(f[14]) : 0;
    return (own + kids) / 100;
  } catch { return 0; }
}
