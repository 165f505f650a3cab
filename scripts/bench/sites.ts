#!/usr/bin/env bun
/**
 * Sites Delivery benchmark (issue 44). In one run, alternating rounds with wrk against the appliance and against a bare
 * Bun.serve answering the same bytes (same body, same headers, 304 for the same If-None-Match):
 *   - GET /s/v1/{site}/pages/{id}?sections=6 (six resolved sections) and /route?path=/ : ratio of requests/s and p99
 *     (target >= 0.7x bare, p99 < 10 ms);
 *   - the same page with If-None-Match (304 revalidation; target >= 0.9x bare);
 *   - search over 100,000 catalogue items (published, ready videos with Hebrew titles, written straight into the
 *     appliance's database as a data generator): p50/p95 of 300 queries of varied selectivity (target p95 < 20 ms),
 *     after one warm query builds the index (its time printed too); then 100 titles change and the next search's time
 *     (catalogue reload + incremental index update) is printed. Both servers get a 1 s warm-up per case first.
 *   - per case, the server CPU microseconds per request of each server (user + system from /proc over a wrk run,
 *     divided by the requests wrk counted): less sensitive than req/s to the box's load; and the load average.
 * Usage: bun scripts/bench/sites.ts [--seconds 5] [--rounds 3] [--connections 32] [--items 100000]
 */
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSeconds, median, startAppliance, wrk, type WrkResult } from './lib';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' }, items: { type: 'string', default: '100000' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds), connections = Number(values.connections), items = Number(values.items);
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-sites-'));
const app = await startAppliance(join(dir, 'data'), { VS_DELIVERY_WORKERS: '1', VS_ANALYTICS: 'off' });
const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(app.url + path, { method, headers: { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<Record<string, any>>;
};

/** A response's headers as pairs, without those the server sets itself. */
function headerList(h: Headers): [string, string][] {
  const out: [string, string][] = [];
  h.forEach((v, k) => { if (k !== 'content-length' && k !== 'date') out.push([k, v]); });
  return out;
}

try {
  // The catalogue: `items` published, ready videos (Hebrew titles from a word list), written by a data generator.
  const WORDS = ['חדשות', 'והחדשות', 'בחדשות', 'ספורט', 'מזג', 'אוויר', 'כלכלה', 'תרבות', 'מוזיקה', 'שָׁלוֹם', 'צה"ל', 'ירושלים', 'בירושלים', 'ערב', 'בוקר', 'לילה', 'סרט', 'סדרה', 'ראיון', 'מבזק', 'news', 'live', 'עולם', 'ישראל', 'פוליטיקה', 'בריאות', 'מדע', 'טכנולוגיה', 'ילדים', 'משפחה'];
  const db = new Database(join(dir, 'data', 'db', 'meta.sqlite'));
  db.exec('PRAGMA busy_timeout = 10000');
  const tenant = db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  const ins = db.query('INSERT INTO assets (id, tenant_id, title, status, published, published_at, source, created_at, updated_at) VALUES (?, ?, ?, \'ready\', 1, ?, \'{}\', ?, ?)');
  let seed = 7;
  const rnd = (n: number) => { seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return (((t ^ (t >>> 14)) >>> 0) % n); };
  const t0 = Date.now();
  db.transaction(() => {
    for (let i = 0; i < items; i++) {
      const title = Array.from({ length: 3 + rnd(3) }, () => WORDS[rnd(WORDS.length)]).join(' ') + ` ${i}`;
      ins.run(Bun.randomUUIDv7(), tenant, title, t0 - i * 1000, t0, t0);
    }
  })();
  db.close();

  // A site with a page of six sections (hero by hand, four rails by query, a text) and a few shows.
  const site = await api('POST', '/v1/sites', { slug: 'bench', name: 'Bench' });
  for (let i = 0; i < 12; i++) await api('POST', `/v1/sites/${site.id}/shows`, { slug: `show-${i}`, title: `תוכנית ${i} חדשות`, published: true });
  const page = await api('POST', `/v1/sites/${site.id}/pages`, {
    path: '/', title: 'בית', sections: [
      { type: 'hero', items: [{ type: 'show', slug: 'show-0' }, { type: 'show', slug: 'show-1' }] },
      { type: 'rail', title: 'חדש', item_type: 'video', query: { limit: 12 } },
      { type: 'rail', title: 'תוכניות', item_type: 'show', query: { limit: 12 } },
      { type: 'rail', title: 'ערוצים', item_type: 'channel' },
      { type: 'promo', title: 'מבצע', link: '/promo' },
      { type: 'text', text: 'ברוכים הבאים לאתר' },
    ],
  });
  await api('POST', `/v1/sites/${site.id}/pages/${page.id}/publish`);
  const base = `${app.url}/s/v1/bench`;
  const targets = { page: `/pages/${page.id}?sections=6`, route: '/route?path=/' };

  // Search: one warm query builds the index; then 300 timed queries (one word, two words, prefixed forms, rare).
  let w0 = performance.now();
  const warm = await fetch(`${base}/search?q=${encodeURIComponent('חדשות')}`);
  if (warm.status !== 200) throw new Error(`search: ${warm.status}`);
  const buildMs = performance.now() - w0;
  const queries = [...WORDS, 'חדשות ערב', 'ספורט ירושלים', 'מזג אוויר', 'שלום', 'צהל', '12345', 'בוקר טוב', 'לילה סרט'];
  const searchMs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const q = queries[i % queries.length]!;
    w0 = performance.now();
    const r = await fetch(`${base}/search?q=${encodeURIComponent(q)}&x=${i}`);
    await r.arrayBuffer();
    searchMs.push(performance.now() - w0);
  }
  searchMs.sort((a, b) => a - b);

  // A catalogue change (100 titles edited, as the library would): the next search brings the index up to date with
  // only those items (its time printed, against the first build above).
  const dbw = new Database(join(dir, 'data', 'db', 'meta.sqlite'));
  dbw.exec('PRAGMA busy_timeout = 10000');
  const edit = dbw.query("UPDATE assets SET title = title || ' מעודכן', updated_at = ? WHERE id IN (SELECT id FROM assets WHERE tenant_id = ? ORDER BY seq LIMIT 100)");
  edit.run(Date.now() + 1, tenant);
  dbw.close();
  await Bun.sleep(1100); // the catalogue is checked for changes at most once a second
  w0 = performance.now();
  const upd = await (await fetch(`${base}/search?q=${encodeURIComponent('מעודכן')}`)).json() as { total: number };
  const updateMs = performance.now() - w0;
  if (upd.total !== 100) throw new Error(`search after the change found ${upd.total}, not 100`);

  // The bare server (its own process): the same bytes and headers for the same paths; 304 for the same If-None-Match.
  const recorded: Record<string, { body: string; headers: [string, string][] }> = {};
  let etag = '';
  for (const p of Object.values(targets)) {
    const r = await fetch(base + p);
    if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
    recorded[`/s/v1/bench${p}`] = { body: Buffer.from(await r.arrayBuffer()).toString('base64'), headers: headerList(r.headers) };
    if (p === targets.page) etag = r.headers.get('etag')!;
  }
  const answersFile = join(dir, 'answers.json');
  await Bun.write(answersFile, JSON.stringify(recorded));
  const bare = Bun.spawn(['bun', join(import.meta.dir, 'sites-bare.ts'), answersFile], { stdout: 'pipe', stderr: 'inherit' });
  const reader = bare.stdout.getReader();
  const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
  const bareBase = `http://127.0.0.1:${port}/s/v1/bench`;
  const cases: [string, string, Record<string, string>][] = [['page (sections=6)', targets.page, {}], ['route', targets.route, {}], ['304 revalidation', targets.page, { 'if-none-match': etag }]];
  const results: Record<string, { app: WrkResult[]; bare: WrkResult[]; appUs: number[]; bareUs: number[] }> = {};
  for (const [name] of cases) results[name] = { app: [], bare: [], appUs: [], bareUs: [] };
  /** One wrk run and the server's CPU microseconds (user + system, from /proc) per request it answered. */
  const measured = async (pid: number, url: string, headers: Record<string, string>): Promise<[WrkResult, number]> => {
    const c0 = cpuSeconds(pid);
    const w = await wrk(url, { connections, seconds, headers });
    return [w, ((cpuSeconds(pid) - c0) * 1e6) / Math.max(1, w.requests)];
  };
  const loadAtStart = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');
  // Warm-up (JIT, connection pools, caches) on both servers, not measured.
  for (const [, path, headers] of cases) {
    await wrk(base + path, { connections, seconds: 1, headers });
    await wrk(bareBase + path, { connections, seconds: 1, headers });
  }
  for (let r = 0; r < rounds; r++) {
    for (const [name, path, headers] of cases) {
      const [a, aUs] = await measured(app.proc.pid, base + path, headers);
      const [b, bUs] = await measured(bare.pid, bareBase + path, headers);
      results[name]!.app.push(a); results[name]!.appUs.push(aUs);
      results[name]!.bare.push(b); results[name]!.bareUs.push(bUs);
    }
  }
  bare.kill();
  await bare.exited;

  console.log(`Sites Delivery benchmark: ${connections} connections, ${seconds} s x ${rounds} rounds (medians), ${items} catalogue items`);
  for (const [name] of cases) {
    const a = results[name]!.app, b = results[name]!.bare;
    const ar = median(a.map((x) => x.rps)), br = median(b.map((x) => x.rps));
    const ap99 = median(a.map((x) => x.p99ms)), bp99 = median(b.map((x) => x.p99ms));
    const bad = a.reduce((n, x) => n + x.non2xx + x.errors, 0);
    const aUs = median(results[name]!.appUs), bUs = median(results[name]!.bareUs);
    console.log(`  ${name.padEnd(18)} appliance ${ar.toFixed(0).padStart(7)} req/s p99 ${ap99.toFixed(2)} ms | bare ${br.toFixed(0).padStart(7)} req/s p99 ${bp99.toFixed(2)} ms | ratio ${(ar / br).toFixed(2)}x${bad ? ` | ${bad} non-2xx/errors` : ''}`);
    console.log(`  ${''.padEnd(18)} server CPU per request: appliance ${aUs.toFixed(1)} µs | bare ${bUs.toFixed(1)} µs | ratio (bare/appliance) ${(bUs / aUs).toFixed(2)}x`);
  }
  const pct = (p: number) => searchMs[Math.min(searchMs.length - 1, Math.floor((p / 100) * searchMs.length))]!;
  console.log(`  search over ${items} items: p50 ${pct(50).toFixed(2)} ms, p95 ${pct(95).toFixed(2)} ms, max ${searchMs.at(-1)!.toFixed(2)} ms (index build on first query ${buildMs.toFixed(0)} ms; after 100 items changed, the next search ${updateMs.toFixed(0)} ms)`);
  console.log(`  load average at the start of the wrk rounds: ${loadAtStart}; at the end: ${(await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ')}`);
} finally {
  app.kill();
  await app.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}
