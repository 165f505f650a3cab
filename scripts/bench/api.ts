#!/usr/bin/env bun
/**
 * API kernel benchmark: authenticated GET /v1/me at 64 connections against the appliance vs a bare Bun.serve
 * returning the same JSON, measured in the same run with wrk (alternating, median of rounds).
 * The appliance's per-key rate limit is raised for this run (config file) so the figures measure the kernel.
 * Usage: bun scripts/bench/api.ts [--seconds 8] [--rounds 3] [--connections 64]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median, startAppliance, wrk, type WrkResult } from './lib';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '64' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds), connections = Number(values.connections);
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-api-'));
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');
const app = await startAppliance(join(dir, 'data'), { VS_CONFIG: cfg });
const headers = { authorization: `Bearer ${app.key}` };
const body = await (await fetch(`${app.url}/v1/me`, { headers })).text();

// Baseline: bare Bun.serve in its own process, same JSON, same headers a management answer carries.
const baseSrc = join(dir, 'base.ts');
writeFileSync(baseSrc, `const body = ${JSON.stringify(body)};
const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': crypto.randomUUID() } }) });
console.log('listening on 127.0.0.1:' + s.port);`);
const base = Bun.spawn(['bun', baseSrc], { stdout: 'pipe' });
const reader = base.stdout.getReader();
let line = '';
while (!/:\d+/.test(line)) line += new TextDecoder().decode((await reader.read()).value);
const baseUrl = `http://127.0.0.1:${/:(\d+)/.exec(line)![1]}`;

try {
  await wrk(`${app.url}/v1/me`, { connections, seconds: 2, headers }); // warm-up
  await wrk(`${baseUrl}/v1/me`, { connections, seconds: 2, headers });
  const a: WrkResult[] = [], b: WrkResult[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await wrk(`${baseUrl}/v1/me`, { connections, seconds, headers }));
    a.push(await wrk(`${app.url}/v1/me`, { connections, seconds, headers }));
  }
  const row = (name: string, r: WrkResult[]) => `${name.padEnd(22)} ${median(r.map((x) => x.rps)).toFixed(0).padStart(8)} req/s   p50 ${median(r.map((x) => x.p50ms)).toFixed(2)} ms   p99 ${median(r.map((x) => x.p99ms)).toFixed(2)} ms   non-2xx ${r.reduce((s, x) => s + x.non2xx, 0)}`;
  console.log(`GET /v1/me, ${connections} connections, ${rounds} x ${seconds} s rounds (median)`);
  console.log(row('bare Bun.serve', b));
  console.log(row('appliance (auth+kernel)', a));
  const ratio = median(a.map((x) => x.rps)) / median(b.map((x) => x.rps));
  console.log(`ratio appliance/baseline: ${ratio.toFixed(2)} (target >= 0.5); appliance p99 ${median(a.map((x) => x.p99ms)).toFixed(2)} ms (target < 10 ms)`);
} finally {
  app.kill();
  base.kill(9);
  rmSync(dir, { recursive: true, force: true });
}
