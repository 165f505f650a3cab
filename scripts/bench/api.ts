#!/usr/bin/env bun
/**
 * API kernel benchmark: authenticated GET /v1/me at 64 connections against the appliance vs a bare Bun.serve
 * returning the same JSON, measured in the same run with wrk (alternating, median of rounds); the same route with a
 * studio session cookie (target: within 10 % of the API-key path); and the sign-in cost (argon2id) in ms.
 * The appliance's per-key rate limit is raised for this run (config file) so the figures measure the kernel.
 * Also CPU time per request of each server (its processes' user+system time over a round / requests answered), which
 * a busy shared box disturbs far less than throughput. A second bare server that reads the URL and the Host and
 * Authorization headers before answering gives the runtime's floor for any authenticated route in the same run. --workers sets VS_DELIVERY_WORKERS (default 1: the API kernel
 * alone; with more, API requests on a worker's connections take one more hop to the main process).
 * Refusals in the same rounds: CPU per answer of a malformed key (401), an unknown well-formed key (401) and a key over
 * its rate limit (429, a second appliance limited to 1 request/s), each against a served 200: a flood of bad calls
 * must cost no more than good traffic.
 * Usage: bun scripts/bench/api.ts [--seconds 8] [--rounds 3] [--connections 64] [--workers 1]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median, startAppliance, wrk, type WrkResult } from './lib';
import { measured } from './cpu';
import { stallFileLines } from './stall';
import { ARGON2 } from '../../src/features/people/password';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '64' }, workers: { type: 'string', default: '1' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds), connections = Number(values.connections);
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-api-'));
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');
const stallFile = join(dir, 'stall');
const app = await startAppliance(join(dir, 'data'), { VS_CONFIG: cfg, VS_STALL_FILE: stallFile, VS_DELIVERY_WORKERS: values.workers });

const limitedCfg = join(dir, 'limited.yml');
writeFileSync(limitedCfg, 'rate_limit: { per_second: 1, burst: 1 }\nlog_level: warn\n');
const limited = await startAppliance(join(dir, 'limited'), { VS_CONFIG: limitedCfg, VS_DELIVERY_WORKERS: '1' });

const headers = { authorization: `Bearer ${app.key}` };
const body = await (await fetch(`${app.url}/v1/me`, { headers })).text();

// A studio person for the session path: created by the CLI (password on stdin), signed in, tenant chosen.
const PW = 'kernel timing passphrase';
const made = Bun.spawnSync(['bun', 'src/main.ts', 'user', 'create', '--email', 'bench@example.com', '--tenant', 'default', '--role', 'owner', '--password-stdin', '--data', join(dir, 'data')], { stdin: Buffer.from(PW + '\n'), stdout: 'pipe', stderr: 'pipe' });
if (made.exitCode !== 0) throw new Error(`user create failed: ${made.stderr}`);
const signInMs: number[] = [];
let cookie = '', csrf = '';
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  const r = await fetch(`${app.url}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: PW }) });
  signInMs.push(performance.now() - t0);
  cookie = r.headers.get('set-cookie')!.split(';')[0];
  csrf = ((await r.json()) as { csrf_token: string }).csrf_token;
}
const chose = await fetch(`${app.url}/v1/me/tenant`, { method: 'PUT', headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'default' }) });
if (chose.status !== 200) throw new Error(`choose tenant: ${chose.status}`);
const sessionHeaders = { cookie };
const hashMs: number[] = [], verifyMs: number[] = [];
for (let i = 0; i < 15; i++) {
  let t0 = performance.now();
  const h = await Bun.password.hash(PW, ARGON2);
  hashMs.push(performance.now() - t0);
  t0 = performance.now();
  await Bun.password.verify(PW, h);
  verifyMs.push(performance.now() - t0);
}

// Baseline: bare Bun.serve in its own process, same JSON, same headers a management answer carries.
const baseSrc = join(dir, 'base.ts');
writeFileSync(baseSrc, `const body = ${JSON.stringify(body)};
const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': crypto.randomUUID() } }) });
console.log('listening on 127.0.0.1:' + s.port);`);
// Second baseline, the runtime's floor for any authenticated route: the same bare server, but it reads what every such
// route must read before it can answer (the URL, the Host and Authorization headers: Bun builds the Headers object
// and the URL string on first access).
const floorSrc = join(dir, 'floor.ts');
writeFileSync(floorSrc, `const body = ${JSON.stringify(body)};
const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => {
  const url = r.url, host = r.headers.get('host'), auth = r.headers.get('authorization');
  if (!auth || !host || !url.includes('/v1/me')) return new Response(null, { status: 401 });
  return new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': crypto.randomUUID() } });
} });
console.log('listening on 127.0.0.1:' + s.port);`);
/** Starts a bare server script and returns it with its URL. */
async function startBare(src: string): Promise<{ p: ReturnType<typeof Bun.spawn>; url: string }> {
  const p = Bun.spawn(['bun', src], { stdout: 'pipe' });
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  let line = '';
  while (!/:\d+/.test(line)) line += new TextDecoder().decode((await reader.read()).value);
  return { p, url: `http://127.0.0.1:${/:(\d+)/.exec(line)![1]}` };
}
const bare = await startBare(baseSrc), floor = await startBare(floorSrc);
const base = bare.p, baseUrl = bare.url;

try {
  await wrk(`${app.url}/v1/me`, { connections, seconds: 2, headers }); // warm-up
  await wrk(`${baseUrl}/v1/me`, { connections, seconds: 2, headers });
  await wrk(`${floor.url}/v1/me`, { connections, seconds: 2, headers });
  await wrk(`${app.url}/v1/me`, { connections, seconds: 2, headers: sessionHeaders });
  const a: (WrkResult & { cpuUs: number })[] = [], b: (WrkResult & { cpuUs: number })[] = [], c: WrkResult[] = [], f: (WrkResult & { cpuUs: number })[] = [];
  /** Refused calls: name, server, its pid, the headers sent, the status every answer must have. */
  const refusals = [
    { name: '401 malformed key', url: app.url, pid: app.proc.pid, headers: { authorization: 'Bearer not-a-key' }, status: 401 },
    { name: '401 unknown key', url: app.url, pid: app.proc.pid, headers: { authorization: `Bearer vs_${'x'.repeat(40)}` }, status: 401 },
    { name: '429 over its limit', url: limited.url, pid: limited.proc.pid, headers: { authorization: `Bearer ${limited.key}` }, status: 429 },
  ];
  for (const r of refusals) {
    const got = await fetch(`${r.url}/v1/me`, { headers: r.headers });
    await got.arrayBuffer();
    if (r.status === 429 && got.status === 200) continue; // the burst's one token; the next is refused
    if (got.status !== r.status) throw new Error(`${r.name}: answered ${got.status}`);
  }
  const refused: (WrkResult & { cpuUs: number })[][] = refusals.map(() => []);
  for (let i = 0; i < rounds; i++) {
    b.push(await measured(`${baseUrl}/v1/me`, base.pid, { connections, seconds, headers }));
    a.push(await measured(`${app.url}/v1/me`, app.proc.pid, { connections, seconds, headers }));
    c.push(await wrk(`${app.url}/v1/me`, { connections, seconds, headers: sessionHeaders }));
    f.push(await measured(`${floor.url}/v1/me`, floor.p.pid, { connections, seconds, headers }));
    for (const [k, r] of refusals.entries()) refused[k].push(await measured(`${r.url}/v1/me`, r.pid, { connections, seconds, headers: r.headers }));
  }
  const row = (name: string, r: WrkResult[]) => `${name.padEnd(22)} ${median(r.map((x) => x.rps)).toFixed(0).padStart(8)} req/s   p50 ${median(r.map((x) => x.p50ms)).toFixed(2)} ms   p99 ${median(r.map((x) => x.p99ms)).toFixed(2)} ms   non-2xx ${r.reduce((s, x) => s + x.non2xx, 0)}`;
  console.log(`GET /v1/me, ${connections} connections, ${rounds} x ${seconds} s rounds (median), VS_DELIVERY_WORKERS=${values.workers}`);
  console.log(row('bare Bun.serve', b));
  console.log(row('appliance (auth+kernel)', a));
  const ratio = median(a.map((x) => x.rps)) / median(b.map((x) => x.rps));
  console.log(`ratio appliance/baseline: ${ratio.toFixed(2)} (issue 21 target >= 0.7); appliance p99 ${median(a.map((x) => x.p99ms)).toFixed(2)} ms (target < 5 ms, quiet box)`);
  console.log(`per round appliance/baseline: ${a.map((x, i) => (x.rps / b[i].rps).toFixed(2)).join(' ')}`);
  const cpuA = median(a.map((x) => x.cpuUs)), cpuB = median(b.map((x) => x.cpuUs));
  console.log(`CPU per request: bare ${cpuB.toFixed(1)} us, appliance (${values.workers} proc) ${cpuA.toFixed(1)} us: CPU ratio bare/appliance ${(cpuB / cpuA).toFixed(2)} (the throughput ratio a single free core would give)`);
  const cpuF = median(f.map((x) => x.cpuUs));
  console.log(row('bare + URL/Host/Auth', f));
  console.log(`runtime floor: bare that reads URL, Host and Authorization / bare ${(median(f.map((x) => x.rps)) / median(b.map((x) => x.rps))).toFixed(2)} (CPU ${cpuF.toFixed(1)} us); appliance / that floor ${(median(a.map((x) => x.rps)) / median(f.map((x) => x.rps))).toFixed(2)}, CPU floor/appliance ${(cpuF / cpuA).toFixed(2)}`);
  console.log(row('appliance, session', c));
  const sr = median(c.map((x) => x.rps)) / median(a.map((x) => x.rps));
  console.log(`session/key: throughput ${sr.toFixed(3)}, p99 ${median(c.map((x) => x.p99ms)).toFixed(2)} vs ${median(a.map((x) => x.p99ms)).toFixed(2)} ms (target: within 10 %)`);
  console.log(`sign-in cost: argon2id m=${ARGON2.memoryCost} KiB t=${ARGON2.timeCost}: hash ${median(hashMs).toFixed(1)} ms, verify ${median(verifyMs).toFixed(1)} ms (median of 15, this process); POST /v1/session ${median(signInMs).toFixed(1)} ms end to end (median of 15)`);
  for (const [k, r] of refusals.entries()) {
    const x = refused[k], cpu = median(x.map((y) => y.cpuUs)), answered = x.reduce((t, y) => t + y.requests, 0), no = x.reduce((t, y) => t + y.non2xx, 0);
    console.log(`refused: ${r.name.padEnd(20)} ${median(x.map((y) => y.rps)).toFixed(0).padStart(8)} req/s   p99 ${median(x.map((y) => y.p99ms)).toFixed(2)} ms   CPU ${cpu.toFixed(1)} us per answer = ${(cpu / cpuA).toFixed(2)}x a served 200 (${((100 * no) / answered).toFixed(2)} % refused)`);
  }
  for (const l of stallFileLines(stallFile)) console.log(l);
} finally {
  app.kill();
  limited.kill();
  base.kill(9);
  floor.p.kill(9);
  rmSync(dir, { recursive: true, force: true });
}
