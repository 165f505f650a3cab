#!/usr/bin/env bun
/**
 * The forwarder under hostile load (issue 41 item 5): `serve` as shipped (the main process and its delivery workers
 * on one port; fresh connections land on all of them), then `/healthz` and `/v1/me` probed on fresh connections
 * 10 ms apart for `--window` seconds in each phase: idle (the baseline of the same run), with 1,000 open
 * `GET /v1/events/stream` over ten viewer keys, and with 1,000 slow-body `POST /b/v1` without a key from 20 loopback
 * addresses (a byte a second of a declared 2,000; the window starts as the last one is sent and ends before the 10 s
 * body deadline cuts them).
 * Streams run twice: with the default caps (most are refused with 429) and with the caps lifted (every stream stays
 * open: the worker's lanes alone must hold). Prints p50/p99/max per probe and phase, and probes that got no answer
 * within 10 s. With `--before DIR` (a checkout of an older commit, sharing node_modules) the older server is measured
 * in the same run too. The load runs in a process of its own (forwarder-load.ts), so its sockets never delay the
 * probes' event loop.
 *   bun scripts/bench/forwarder.ts [--before /tmp/vs-before] [--streams 1000] [--slow 1000] [--window 8]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnServe, type ServeProc } from '../../test/helpers/proc';
import { rawRequest } from '../../test/helpers/raw-http';
import { freePort } from '../../src/kernel/net/ports';

const args = process.argv.slice(2);
const opt = (k: string) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : undefined; };
const STREAMS = Number(opt('--streams') ?? 1000);
const SLOW = Number(opt('--slow') ?? 1000);
const WINDOW_S = Number(opt('--window') ?? 8);
const PROBE_TIMEOUT_MS = 10_000;

interface Server { port: number; owner: string; proc: ServeProc; dir: string }

async function start(tree: string, env: Record<string, string>): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'vs-fwd-bench-'));
  const proc = await spawnServe(['bun', join(tree, 'src/main.ts'), 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dir], {
    VS_LOG_LEVEL: 'error', VS_RTMP_PORT: String(await freePort('127.0.0.1')), VS_ANALYTICS: 'off', ...env,
  }, 60_000);
  return { port: Number(new URL(proc.url).port), owner: proc.key!, proc, dir };
}

async function stop(s: Server): Promise<void> {
  s.proc.kill('SIGTERM');
  await Promise.race([s.proc.proc.exited, Bun.sleep(15_000)]);
  s.proc.kill();
  rmSync(s.dir, { recursive: true, force: true });
}

async function viewerKeys(s: Server, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await fetch(`http://127.0.0.1:${s.port}/v1/api-keys`, { method: 'POST', headers: { authorization: `Bearer ${s.owner}`, 'content-type': 'application/json' }, body: JSON.stringify({ role: 'viewer', name: `bench-${i}` }) });
    if (r.status !== 201) throw new Error(`key: ${r.status} ${await r.text()}`);
    out.push((await r.json() as { key: string }).key);
  }
  return out;
}

interface Probe { p50: number; p99: number; max: number; n: number; failed: number }

/**
 * Probes /healthz and /v1/me alternately on fresh connections for WINDOW_S seconds, 10 ms apart, `/v1/me` with five
 * probe keys of their own in turn (each stays under its 20 requests a second).
 */
async function probe(s: Server, keys: string[]): Promise<Record<'/healthz' | '/v1/me', Probe>> {
  const times: Record<string, number[]> = { '/healthz': [], '/v1/me': [] };
  const failed: Record<string, number> = { '/healthz': 0, '/v1/me': 0 };
  const end = performance.now() + WINDOW_S * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const path = i % 2 ? '/v1/me' : '/healthz';
    const t = performance.now();
    const auth = path === '/v1/me' ? `\r\nAuthorization: Bearer ${keys[(i >> 1) % keys.length]}` : '';
    const a = await rawRequest(s.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${s.port}${auth}`, '', PROBE_TIMEOUT_MS).catch(() => null);
    const ms = performance.now() - t;
    await Bun.sleep(10);
    if (!a || a.status !== 200) failed[path]++;
    times[path].push(a && a.status === 200 ? ms : PROBE_TIMEOUT_MS);
  }
  const stat = (xs: number[], f: number): Probe => {
    const v = [...xs].sort((a, b) => a - b);
    const q = (p: number) => v[Math.min(v.length - 1, Math.ceil(p * v.length) - 1)] ?? NaN;
    return { p50: q(0.5), p99: q(0.99), max: v[v.length - 1] ?? NaN, n: v.length, failed: f };
  };
  return { '/healthz': stat(times['/healthz'], failed['/healthz']), '/v1/me': stat(times['/v1/me'], failed['/v1/me']) };
}

const show = (by: Record<string, number>) => Object.entries(by).map(([k, v]) => `${v}×${k}`).join(' ') || 'none';

interface Row { phase: string; note: string; probes: Awaited<ReturnType<typeof probe>> }
interface Keys { load: string[]; probe: string[] }

/** Runs the load (forwarder-load.ts) in a process of its own while probing; returns the load's answers with the probes. */
async function underLoad(s: Server, kind: 'streams' | 'slow', n: number, keys: Keys): Promise<{ ready: Record<string, number>; done: Record<string, number>; probes: Row['probes'] }> {
  const p = Bun.spawn(['bun', join(import.meta.dir, 'forwarder-load.ts'), String(s.port), kind, String(n)], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit', env: { ...process.env, KEYS: keys.load.join(',') } });
  const reader = p.stdout.getReader();
  let out = '';
  const line = async (prefix: string): Promise<Record<string, number>> => {
    for (;;) {
      const m = new RegExp(`^${prefix} (.*)$`, 'm').exec(out);
      if (m) return JSON.parse(m[1]) as Record<string, number>;
      const { value, done } = await reader.read();
      if (done) throw new Error(`load process ended: ${out}`);
      out += new TextDecoder().decode(value);
    }
  };
  try {
    const ready = await line('ready');
    const probes = await probe(s, keys.probe);
    p.stdin.write('stop\n');
    p.stdin.flush();
    const done = await line('done');
    return { ready, done, probes };
  } finally { p.kill(); await p.exited; }
}

/** Holds STREAMS event streams over ten keys while probing. */
async function streamsPhase(s: Server, keys: Keys, phase: string): Promise<Row> {
  const r = await underLoad(s, 'streams', STREAMS, keys);
  return { phase, note: `${STREAMS} streams: ${show(r.ready)}`, probes: r.probes };
}

/** Sends SLOW slow-body beacons (a byte a second of 2,000) and probes while they are held (until each is answered). */
async function slowPhase(s: Server, keys: Keys): Promise<Row> {
  const r = await underLoad(s, 'slow', SLOW, keys);
  return { phase: 'slow bodies', note: `${SLOW} sent; answered during the window: ${show(r.done)}`, probes: r.probes };
}

async function measure(tree: string): Promise<Row[]> {
  const rows: Row[] = [];
  const a = await start(tree, {});
  try {
    const keys = { load: await viewerKeys(a, 10), probe: await viewerKeys(a, 5) };
    rows.push({ phase: 'idle', note: 'baseline', probes: await probe(a, keys.probe) });
    rows.push(await streamsPhase(a, keys, 'streams (default caps)'));
    await Bun.sleep(1000);
    rows.push(await slowPhase(a, keys));
  } finally { await stop(a); }
  const b = await start(tree, { VS_EVENT_STREAMS_PER_KEY: '100000', VS_EVENT_STREAMS_PER_TENANT: '100000' });
  try {
    const keys = { load: await viewerKeys(b, 10), probe: await viewerKeys(b, 5) };
    rows.push({ phase: 'idle (caps lifted)', note: 'baseline', probes: await probe(b, keys.probe) });
    rows.push(await streamsPhase(b, keys, 'streams (caps lifted)'));
  } finally { await stop(b); }
  return rows;
}

const trees: [string, string][] = [['after', resolve(import.meta.dir, '../..')]];
if (opt('--before')) trees.unshift(['before', resolve(opt('--before')!)]);
const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-').padStart(8);
for (const [label, tree] of trees) {
  const rows = await measure(tree);
  console.log(`\n== ${label} (${tree}); probes on fresh connections, ${WINDOW_S} s per phase, ms (no answer in 10 s counts 10000)`);
  console.log('phase'.padEnd(24) + 'probe'.padEnd(10) + 'p50'.padStart(8) + 'p99'.padStart(8) + 'max'.padStart(8) + '     n  failed  load');
  for (const r of rows) {
    for (const [path, p] of Object.entries(r.probes)) {
      console.log(r.phase.padEnd(24) + path.padEnd(10) + f(p.p50) + f(p.p99) + f(p.max) + String(p.n).padStart(6) + String(p.failed).padStart(8) + '  ' + (path === '/healthz' ? r.note : ''));
    }
  }
}
