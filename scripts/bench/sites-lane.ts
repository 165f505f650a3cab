#!/usr/bin/env bun
/**
 * The JavaScript work of one kept Sites Delivery answer, in process (issue 44), where wrk's figures swing with the
 * box's load: CPU microseconds (process.cpuUsage) per request of `/s/v1/{site}/pages/{id}?sections=6`, 200 and 304,
 * through the app's handler (token entry check, Sites entry, kept answer; plus the request id `serveApp` assigns)
 * and through the kernel's fast lane (the id made and passed, as `serveApp` does), both in the same run on the same
 * Request objects. Neither includes what Bun and the kernel do before them (socket, parsing, the raw-target and
 * canonical checks), the same on both paths.
 * Best and median of `--rounds` rounds of `--requests` each; a kept answer lives a second, so the lane's misses (the
 * app builds the answer again) are counted and included.
 * Usage: bun scripts/bench/sites-lane.ts [--requests 100000] [--rounds 5]
 */
import { parseArgs } from 'node:util';
import { startTestServer } from '../../test/helpers/server';
import { assignRequestId, keepRequestId, makeRequestId } from '../../src/kernel/http/request-id';
import { fastLanes } from '../../src/kernel/http/fast-lane';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '5' } } });
const N = Number(values.requests), rounds = Number(values.rounds);
const s = await startTestServer({ workers: false });
try {
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await s.api(method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Record<string, any>>;
  };
  const site = await api('POST', '/v1/sites', { slug: 'bench', name: 'Bench' });
  for (let i = 0; i < 12; i++) await api('POST', `/v1/sites/${site.id}/shows`, { slug: `show-${i}`, title: `תוכנית ${i} חדשות`, published: true });
  const page = await api('POST', `/v1/sites/${site.id}/pages`, {
    path: '/', title: 'בית', sections: [
      { type: 'hero', items: [{ type: 'show', slug: 'show-0' }, { type: 'show', slug: 'show-1' }] },
      { type: 'rail', title: 'תוכניות', item_type: 'show', query: { limit: 12 } },
      { type: 'promo', title: 'מבצע', link: '/promo' }, { type: 'text', text: 'ברוכים הבאים לאתר' },
    ],
  });
  await api('POST', `/v1/sites/${site.id}/pages/${page.id}/publish`);
  const path = `/s/v1/bench/pages/${page.id}`, query = 'sections=6';
  const first = await fetch(`${s.url}${path}?${query}`);
  const etag = first.headers.get('etag')!;
  const bytes = (await first.arrayBuffer()).byteLength;
  const lanes = fastLanes(s.ctx);
  console.log(`Sites Delivery kept answer, JavaScript CPU per request in process: ${N} requests x ${rounds} rounds, page of ${bytes} bytes`);
  for (const [status, headers] of [[200, {}], [304, { 'if-none-match': etag }]] as const) {
    const reqs = Array.from({ length: 1000 }, () => new Request(`http://127.0.0.1:1${path}?${query}`, { headers: { host: '127.0.0.1', ...headers } }));
    let misses = 0;
    const paths: Record<string, (r: Request) => Response> = {
      // serveApp's part for the app's answer: the id, and (for answers without the kernel's headers) the second pass.
      app: (r) => { const id = assignRequestId(r); const res = s.fetch(r) as Response; if (!res.headers.has('x-request-id')) res.headers.set('x-request-id', id); return res; },
      // serveApp's part for a lane: the id made, kept on the request only when the lane lets it through.
      lane: (r) => { const id = makeRequestId(r); return lanes.answer(r, path, query, id) ?? (misses++, keepRequestId(r, id), s.fetch(r) as Response); },
    };
    const us: Record<string, number[]> = { app: [], lane: [] };
    for (const f of Object.values(paths)) for (let i = 0; i < 20_000; i++) f(reqs[i % 1000]!);
    misses = 0;
    for (let round = 0; round < rounds; round++) {
      // Alternating which path runs first in a round.
      for (const name of round % 2 ? ['lane', 'app'] : ['app', 'lane']) {
        const f = paths[name]!;
        const t0 = process.cpuUsage();
        for (let i = 0; i < N; i++) { const res = f(reqs[i % 1000]!); if (res.status !== status) throw new Error(`${name}: ${res.status}`); }
        const t = process.cpuUsage(t0);
        us[name]!.push((t.user + t.system) / N);
      }
    }
    const best = (xs: number[]) => Math.min(...xs), med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`  ${status}: app path ${best(us.app!).toFixed(2)} µs (median ${med(us.app!).toFixed(2)}) | fast lane ${best(us.lane!).toFixed(2)} µs (median ${med(us.lane!).toFixed(2)}; ${misses} misses) | lane/app ${(med(us.lane!) / med(us.app!)).toFixed(2)}x`);
  }
  console.log(`  load average: ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`);
} finally {
  await s.stop();
}
process.exit(0);
