#!/usr/bin/env bun
/**
 * Assistant endpoint benchmark: MCP `tools/call` of a read tool against the equivalent REST call, in the same run
 * against the same appliance process, one request at a time (latency, not throughput), interleaved A/B so both see
 * the same machine load. Pairs: list_assets {limit: 20} vs GET /v1/assets?limit=20, get_asset vs GET /v1/assets/{id},
 * stats_overview vs GET /v1/stats/overview (DuckDB).
 * Reports p50, p99 and the p50 ratio (targets: ratio <= 1.5, MCP p99 < 20 ms). The per-key rate limit is raised.
 * Usage: bun scripts/bench/mcp.ts [--requests 2000] [--assets 20]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startAppliance } from './lib';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, assets: { type: 'string', default: '20' } } });
const N = Number(values.requests), ASSETS = Number(values.assets);
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-mcp-'));
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');
const app = await startAppliance(join(dir, 'data'), { VS_CONFIG: cfg, VS_PRIVATE_ALLOWLIST: '127.0.0.0/8', ...(process.env.BENCH_WORKERS ? { VS_DELIVERY_WORKERS: process.env.BENCH_WORKERS } : {}) });

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };
const auth = { authorization: `Bearer ${app.key}` };
const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** One timed request; throws unless the answer is what the pair expects. */
async function timed(run: () => Promise<Response>, check: (body: string) => boolean): Promise<number> {
  const t0 = performance.now();
  const r = await run();
  const body = await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 200 || !check(body)) throw new Error(`unexpected answer ${r.status}: ${body.slice(0, 300)}`);
  return ms;
}

try {
  let assetId = '';
  for (let i = 0; i < ASSETS; i++) {
    const r = await fetch(`${app.url}/v1/assets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ source: { kind: 'url', url: `http://127.0.0.1:9/bench-${i}.mp4` }, title: `Bench asset ${i}`, metadata: { desk: 'sport', n: i } }) });
    if (r.status !== 201) throw new Error(`asset create ${r.status}: ${await r.text()}`);
    assetId = ((await r.json()) as { id: string }).id;
  }
  let rpcId = 0;
  const call = (name: string, args: Record<string, unknown>) => () => fetch(`${app.url}/mcp`, { method: 'POST', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }) });
  const rest = (path: string) => () => fetch(`${app.url}${path}`, { headers: auth });
  const okMcp = (b: string) => b.includes('"structuredContent"') && !b.includes('"isError":true');
  const pairs = [
    { name: 'list 20 assets', mcp: call('list_assets', { limit: 20 }), rest: rest('/v1/assets?limit=20') },
    { name: 'get one asset', mcp: call('get_asset', { asset_id: assetId }), rest: rest(`/v1/assets/${assetId}`) },
    // A DuckDB-backed read: the fixed protocol cost weighs less against real work.
    { name: 'stats overview', mcp: call('stats_overview', {}), rest: rest('/v1/stats/overview') },
  ];
  console.log(`MCP tools/call vs REST, ${N} sequential requests each (interleaved, after ${Math.min(300, N)} warm-up), ${ASSETS} assets`);
  for (const p of pairs) {
    for (let i = 0; i < Math.min(300, N); i++) { await timed(p.mcp, okMcp); await timed(p.rest, () => true); }
    const a: number[] = [], b: number[] = [];
    for (let i = 0; i < N; i++) {
      // Alternate which goes first so neither always follows the other.
      if (i % 2) { a.push(await timed(p.mcp, okMcp)); b.push(await timed(p.rest, () => true)); }
      else { b.push(await timed(p.rest, () => true)); a.push(await timed(p.mcp, okMcp)); }
    }
    const ratio = pct(a, 50) / pct(b, 50);
    console.log(`${p.name.padEnd(15)} REST p50 ${pct(b, 50).toFixed(3)} ms p99 ${pct(b, 99).toFixed(3)} ms | MCP p50 ${pct(a, 50).toFixed(3)} ms p99 ${pct(a, 99).toFixed(3)} ms | p50 ratio ${ratio.toFixed(2)} (target <= 1.5) | MCP p99 ${pct(a, 99) < 20 ? '<' : '>='} 20 ms`);
  }
} finally {
  app.kill();
  rmSync(dir, { recursive: true, force: true });
}
