#!/usr/bin/env bun
/**
 * Edge benchmark (issue 46), all in one run on loopback, every figure a ratio against a baseline measured in the same
 * run (alternating rounds), with CPU per request (server process trees, /proc) and the load average beside it:
 * 1. The default install (`serve`: delivery front on the public port, edge cache on, the data dir's own files sent
 *    straight from disk): a token's 2 MB segment vs plain nginx (Debian package, 2 workers) serving the same file
 *    (target >= 1.0x).
 * 2. A cached 2 MB segment through the edge (`VS_EDGE_CACHE_FILES=on`: the grant sends it from the cache, HIT) vs the
 *    same plain nginx (targets >= 0.95x, p99 <= 1.2x).
 * 3. A CDN distribution (external origin: that plain nginx, addressed by a hostname of the edge) cached through the
 *    edge vs nginx's own proxy_cache of the same origin (2 workers, HIT): the distributions figure.
 * 4. Purge of 10,000 cached keys (10,000 small files of one asset fetched once through the edge): wall time from
 *    `POST /v1/purge` to its job's end, split into the answer, the queue wait and the removal (target < 1 s).
 * 5. Pre-warm of a 6-rendition 10-minute ladder (2 s segments, 1,806 URLs, synthetic bytes) through the edge vs
 *    `wget -i` of the same URLs (one connection; wget -r cannot read HLS playlists), each on a cold cache (purged
 *    between): ratio of wall times and the edge's line rate.
 * 6-7. `live` (not in the default parts): live playlists cached at the edge vs the front without a cache, two
 *    appliances with a pushed live channel each (edge-live.ts): playlists the appliance writes per second under N
 *    polling viewers (`--viewers`, `--every-ms`), and answers/s, p99 and CPU per answer under wrk.
 * Usage: bun scripts/bench/edge.ts [--seconds 4] [--rounds 3] [--segment-kb 200] [--parts default,cached,dist,purge,prewarm,live] [--viewers 100] [--every-ms 500]
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { median, firstStart, startAppliance, wrk, type WrkResult } from './lib';
import { measured, treeCpu } from './cpu';
import { benchLivePlaylists } from './edge-live';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '4' }, rounds: { type: 'string', default: '3' }, 'segment-kb': { type: 'string', default: '200' }, parts: { type: 'string', default: 'default,cached,dist,purge,prewarm' }, viewers: { type: 'string', default: '100' }, 'every-ms': { type: 'string', default: '500' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds), segKb = Number(values['segment-kb']);
const parts = new Set(values.parts!.split(','));
if (!Bun.which('nginx') && !Bun.which('/usr/sbin/nginx')) throw new Error('nginx not found: apt-get install nginx-light');
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-edge-'));
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');
const load = () => `load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
const files = { hls: 'master.m3u8', dash: 'manifest.mpd', poster: 'poster.jpg', sprite: 'sprite.jpg', thumbs_vtt: 'thumbs.vtt', download: 'download.mp4' };
const SEG = randomBytes(2 * 1024 * 1024);
const KEYS = 10_000, RENDITIONS = 6, SEGMENTS = 300;

/** One appliance over its own data dir, with ready assets written straight into the data dir and database. */
async function appliance(name: string, env: Record<string, string>, extra: boolean) {
  const data = join(dir, name);
  const { key, db, tenant } = await firstStart(data, { VS_CONFIG: cfg });
  const addAsset = (write: (d: string) => void) => {
    const id = Bun.randomUUIDv7();
    const rel = `media/${tenant}/assets/${id}/v1`;
    mkdirSync(join(data, rel), { recursive: true });
    write(join(data, rel));
    db.query(`INSERT INTO assets (id, tenant_id, title, status, source, output, created_at, updated_at) VALUES (?, ?, 'bench', 'ready', '{"kind":"upload"}', ?, ?, ?)`)
      .run(id, tenant, JSON.stringify({ dir: rel, version: 1, files }), Date.now(), Date.now());
    return { id, rel };
  };
  const seg = addAsset((d) => { writeFileSync(join(d, 'seg_00001.m4s'), SEG); writeFileSync(join(d, 'master.m3u8'), '#EXTM3U\n'); });
  const many = extra ? addAsset((d) => { const b = randomBytes(512); for (let i = 0; i < KEYS; i++) writeFileSync(join(d, `k_${String(i).padStart(5, '0')}.m4s`), b); writeFileSync(join(d, 'master.m3u8'), '#EXTM3U\n'); }) : null;
  const ladder = extra ? addAsset((d) => {
    const body = randomBytes(segKb * 1024);
    let master = '#EXTM3U\n';
    for (let r = 0; r < RENDITIONS; r++) {
      writeFileSync(join(d, `r${r}_init.mp4`), body.subarray(0, 1024));
      let pl = '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-MAP:URI="r' + r + '_init.mp4"\n';
      for (let i = 0; i < SEGMENTS; i++) { writeFileSync(join(d, `r${r}_${String(i).padStart(5, '0')}.m4s`), body); pl += `#EXTINF:2.0,\nr${r}_${String(i).padStart(5, '0')}.m4s\n`; }
      writeFileSync(join(d, `r${r}.m3u8`), pl + '#EXT-X-ENDLIST\n');
      master += `#EXT-X-STREAM-INF:BANDWIDTH=${(r + 1) * 500000}\nr${r}.m3u8\n`;
    }
    writeFileSync(join(d, 'master.m3u8'), master);
  }) : null;
  db.close();
  const app = await startAppliance(data, { VS_CONFIG: cfg, VS_DELIVERY_FRONT: 'auto', ...env });
  const api = (method: string, path: string, body?: unknown) => fetch(`${app.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const token = async (asset: string) => (await (await api('POST', '/v1/playback/tokens', { asset, ttl_s: 3600 })).json() as { src: string }).src;
  const segUrl = new URL('seg_00001.m4s', await token(seg.id)).toString();
  for (let i = 0; i < 3; i++) await (await fetch(segUrl)).arrayBuffer(); // fill (cached files), then the grant
  // The front's nginx master: the appliance's descendant started with its generated configuration.
  const kids = (pid: number): number[] => { try { return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number)); } catch { return []; } };
  const tree = (pid: number): number[] => [pid, ...kids(pid).flatMap(tree)];
  const ngx = tree(app.proc.pid).find((p) => { try { return /-c \S*nginx\.conf/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8')); } catch { return false; } }) ?? 0;
  return { app, api, token, segUrl, seg, many, ladder, data, ngx };
}

/** Plain nginx (2 workers) serving `root`, optionally as a proxy_cache of `origin` instead. */
async function plainNginx(name: string, root: string, origin?: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const server = origin
      ? `proxy_cache_path ${dir}/${name}-cache levels=1:2 keys_zone=${name}:16m use_temp_path=off;\n  server { listen 127.0.0.1:${port}; location / { proxy_pass ${origin}; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_cache ${name}; proxy_cache_valid 200 10m; add_header X-Cache-Status $upstream_cache_status; } }`
      : `server { listen 127.0.0.1:${port}; root ${root}; }`;
    writeFileSync(join(dir, `${name}.conf`), `worker_processes 2;\npid ${dir}/${name}.pid;\nerror_log ${dir}/${name}-error.log;\ndaemon off;\nevents { worker_connections 1024; }\nhttp { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;\n  types { video/iso.segment m4s; }\n  ${server} }\n`);
    const p = Bun.spawn(['nginx', '-c', join(dir, `${name}.conf`), '-p', dir], { stdout: 'ignore', stderr: 'ignore' });
    for (let i = 0; i < 100 && p.exitCode === null; i++) { try { await fetch(`http://127.0.0.1:${port}/`); return { p, base: `http://127.0.0.1:${port}` }; } catch { /* not yet */ } await Bun.sleep(50); }
    p.kill('SIGTERM'); await p.exited; // the random port may be taken: another one
  }
  throw new Error(`nginx ${name} did not start`);
}

type R = WrkResult & { cpuUs: number };
const rps = (xs: R[]) => median(xs.map((x) => x.rps)), p99 = (xs: R[]) => median(xs.map((x) => x.p99ms)), cpu = (xs: R[]) => median(xs.map((x) => x.cpuUs));
/** Alternating rounds of `a` (the edge) and `b` (the baseline); prints both and their ratios. */
async function versus(title: string, a: { url: string; pid: number; nginx?: number; headers?: Record<string, string> }, b: { url: string; pid: number }, target: string) {
  const o = { connections: 64, seconds };
  await wrk(a.url, { ...o, seconds: 1, headers: a.headers }); await wrk(b.url, { ...o, seconds: 1 });
  const ar: R[] = [], br: R[] = [], ngxUs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    br.push(await measured(b.url, b.pid, o));
    const n0 = a.nginx ? treeCpu(a.nginx) : 0;
    const r = await measured(a.url, a.pid, { ...o, headers: a.headers });
    ar.push(r);
    if (a.nginx) ngxUs.push(((treeCpu(a.nginx) - n0) * 1e6) / Math.max(1, r.rps * seconds));
  }
  console.log(`${title} (64 connections, ${rounds} alternating rounds x ${seconds} s, medians; ${load()})`);
  console.log(`  baseline  ${rps(br).toFixed(0).padStart(6)} req/s  p99 ${p99(br).toFixed(1)} ms  CPU ${cpu(br).toFixed(0)} us/req`);
  console.log(`  edge      ${rps(ar).toFixed(0).padStart(6)} req/s  p99 ${p99(ar).toFixed(1)} ms  CPU ${cpu(ar).toFixed(0)} us/req${ngxUs.length ? ` (its nginx ${median(ngxUs).toFixed(0)})` : ''}  non-2xx ${ar.reduce((s, x) => s + x.non2xx, 0)}`);
  console.log(`  ratio ${(rps(ar) / rps(br)).toFixed(2)}x  p99 ${(p99(ar) / p99(br)).toFixed(2)}x  CPU per request ${(cpu(ar) / cpu(br)).toFixed(2)}x${ngxUs.length ? ` (nginx only ${(median(ngxUs) / cpu(br)).toFixed(2)}x)` : ''}  (${target}); per round ${ar.map((x, i) => (x.rps / br[i].rps).toFixed(2)).join(' ')}`);
}

const stop: (() => Promise<unknown>)[] = [];
/** Thrown when only the parts that need no file appliance were asked for. */
class Done extends Error {}
try {
  if (parts.has('live')) await benchLivePlaylists({ dir, cfg, seconds, rounds, viewers: Number(values.viewers), everyMs: Number(values['every-ms']), load });
  if (!['default', 'cached', 'dist', 'purge', 'prewarm'].some((p) => parts.has(p))) throw new Done();
  // The appliance with the data dir's files through the cache (cached segment, distributions, purge, pre-warm).
  const cached = await appliance('cached', { VS_EDGE_CACHE_FILES: 'on', VS_CDN_ORIGIN_ALLOW: '127.0.0.1/32' }, parts.has('purge') || parts.has('prewarm'));
  stop.push(async () => { cached.app.kill('SIGTERM'); await cached.app.proc.exited; });
  Bun.spawnSync(['chmod', '-R', 'a+rX', dir]);
  const plain = await plainNginx('plain', cached.data);
  stop.push(async () => { plain.p.kill('SIGTERM'); await plain.p.exited; });
  const plainUrl = `${plain.base}/${cached.seg.rel}/seg_00001.m4s`;

  if (parts.has('default')) {
    // 1. The default install: its own data dir (the same bytes), files sent straight from disk.
    const dflt = await appliance('default', {}, false);
    stop.push(async () => { dflt.app.kill('SIGTERM'); await dflt.app.proc.exited; });
    const probe = await fetch(dflt.segUrl); await probe.arrayBuffer();
    if (probe.status !== 200 || probe.headers.get('x-cache-status') !== null) throw new Error(`default install: ${probe.status} ${probe.headers.get('x-cache-status')}`);
    Bun.spawnSync(['chmod', '-R', 'a+rX', dir]);
    // The appliance's own CPU while nothing is requested (timers, background work), to read its per-request share.
    await Bun.sleep(6000); // past the statistics flush of the warm-up's rows
    const i0 = treeCpu(dflt.app.proc.pid) - treeCpu(dflt.ngx);
    await Bun.sleep(3000);
    console.log(`   (the default appliance idle, nginx excluded: ${(((treeCpu(dflt.app.proc.pid) - treeCpu(dflt.ngx)) - i0) * 1000 / 3).toFixed(1)} ms CPU per second)`);
    await versus('1. default install: token 2 MB segment through the front (files from disk) vs nginx(2 workers), same file', { url: dflt.segUrl, pid: dflt.app.proc.pid, nginx: dflt.ngx }, { url: plainUrl, pid: plain.p.pid }, 'target >= 1.0x');
    dflt.app.kill('SIGTERM'); await dflt.app.proc.exited; stop.pop();
  }
  if (parts.has('cached')) {
    const probe = await fetch(cached.segUrl); await probe.arrayBuffer();
    if (probe.headers.get('x-cache-status') !== 'HIT') throw new Error(`the segment is not a cache HIT through the edge: ${probe.headers.get('x-cache-status')}`);
    await versus('2. cached 2 MB segment through the edge (VS_EDGE_CACHE_FILES=on, HIT) vs nginx(2 workers) serving the file', { url: cached.segUrl, pid: cached.app.proc.pid, nginx: cached.ngx }, { url: plainUrl, pid: plain.p.pid }, 'targets >= 0.95x, p99 <= 1.2x');
  }
  if (parts.has('dist')) {
    // 3. A distribution whose external origin is the plain nginx, vs nginx's own proxy_cache of that origin.
    const host = 'media.bench.test';
    const d = await cached.api('POST', '/v1/cdn/distributions', { hostnames: [host], origin: { kind: 'url', url: `${plain.base}/` }, cache_rules: { default_ttl_s: 600 } });
    if (d.status !== 201 && d.status !== 200) throw new Error(`distribution: ${d.status} ${await d.text()}`);
    const pc = await plainNginx('pcache', '', `${plain.base}`);
    stop.push(async () => { pc.p.kill('SIGTERM'); await pc.p.exited; });
    const path = `/${cached.seg.rel}/seg_00001.m4s`;
    const distUrl = `${cached.app.url}${path}`;
    for (let i = 0; i < 2; i++) { await (await fetch(`${pc.base}${path}`)).arrayBuffer(); await (await fetch(distUrl, { headers: { host } })).arrayBuffer(); }
    const a = await fetch(distUrl, { headers: { host } }), b = await fetch(`${pc.base}${path}`);
    await a.arrayBuffer(); await b.arrayBuffer();
    if (a.headers.get('x-cache-status') !== 'HIT' || b.headers.get('x-cache-status') !== 'HIT') throw new Error(`distribution/proxy_cache not HIT: ${a.status} ${a.headers.get('x-cache-status')} / ${b.headers.get('x-cache-status')}`);
    await versus('3. distribution: external origin cached through the edge (Host: media.bench.test, HIT) vs nginx(2 workers) proxy_cache of the same origin', { url: distUrl, pid: cached.app.proc.pid, nginx: cached.ngx, headers: { Host: host } }, { url: `${pc.base}${path}`, pid: pc.p.pid }, 'target >= 0.95x');
  }
  const jobDone = async (path: string) => { for (;;) { const j = await (await cached.api('GET', path)).json() as Record<string, any>; if (j.status === 'succeeded' || j.status === 'failed') return j; await Bun.sleep(5); } };
  if (parts.has('purge')) {
    // 4. Purge of 10,000 keys.
    const manyBase = await cached.token(cached.many!.id);
    const names = Array.from({ length: KEYS }, (_, i) => `k_${String(i).padStart(5, '0')}.m4s`);
    for (let i = 0; i < names.length; i += 64) await Promise.all(names.slice(i, i + 64).map(async (n) => { await (await fetch(new URL(n, manyBase))).arrayBuffer(); }));
    await Bun.sleep(300); // the fill log is read back every 100 ms
    const t0 = performance.now();
    const res = await cached.api('POST', '/v1/purge', { asset_id: cached.many!.id });
    const answered = performance.now() - t0;
    const p = await res.json() as { job_id: string; keys: number };
    const pj = await jobDone(`/v1/jobs/${p.job_id}`);
    const purgeMs = performance.now() - t0;
    const db = new Database(join(cached.data, 'db', 'meta.sqlite'), { readonly: true });
    const j = db.query<{ created_at: number; started_at: number; finished_at: number }, [string]>('SELECT created_at, started_at, finished_at FROM jobs WHERE id = ?').get(p.job_id)!;
    db.close();
    console.log(`4. purge of ${p.keys} keys (asset_id): ${purgeMs.toFixed(0)} ms from POST to the job's end seen by the client (answer ${answered.toFixed(0)} ms, queued ${j.started_at - j.created_at} ms, removal ${j.finished_at - j.started_at} ms), removed ${pj.result?.removed} (target < 1000 ms; ${load()})`);
    const after = await fetch(new URL(names[0]!, manyBase)); await after.arrayBuffer();
    if (after.headers.get('x-cache-status') !== 'MISS') throw new Error(`after the purge: ${after.headers.get('x-cache-status')}`);
  }
  if (parts.has('prewarm')) {
    // 5. Pre-warm vs wget on the same URLs, each on a cold cache.
    const master = await cached.token(cached.ladder!.id);
    const urls: string[] = [master];
    for (let r = 0; r < RENDITIONS; r++) {
      urls.push(new URL(`r${r}.m3u8`, master).toString(), new URL(`r${r}_init.mp4`, master).toString());
      for (let i = 0; i < SEGMENTS; i++) urls.push(new URL(`r${r}_${String(i).padStart(5, '0')}.m4s`, master).toString());
    }
    writeFileSync(join(dir, 'urls.txt'), urls.join('\n') + '\n');
    const w0 = performance.now();
    const wget = Bun.spawnSync(['wget', '-q', '-O', '/dev/null', '-i', join(dir, 'urls.txt')]);
    const wgetMs = performance.now() - w0;
    if (wget.exitCode !== 0) console.log(`  wget exited ${wget.exitCode}`);
    await jobDone(`/v1/jobs/${(await (await cached.api('POST', '/v1/purge', { asset_id: cached.ladder!.id })).json() as { job_id: string }).job_id}`);
    const e0 = performance.now();
    const pw = await (await cached.api('POST', '/v1/prewarm', { asset_id: cached.ladder!.id })).json() as { id: string };
    const pr = await jobDone(`/v1/prewarm/${pw.id}`);
    const prewarmMs = performance.now() - e0;
    const mb = pr.bytes / 1e6;
    console.log(`5. pre-warm of ${RENDITIONS} renditions x ${SEGMENTS} segments of ${segKb} KB (${urls.length} URLs, ${mb.toFixed(0)} MB): ${prewarmMs.toFixed(0)} ms (${(mb * 8 / (prewarmMs / 1000)).toFixed(0)} Mbit/s), fetched ${pr.fetched}, stored ${pr.stored}, hit ${pr.hit}, failed ${pr.failed}`);
    console.log(`   wget -i of the same URLs (cold cache): ${wgetMs.toFixed(0)} ms; pre-warm / wget time ratio ${(prewarmMs / wgetMs).toFixed(2)}x (below 1: faster; ${load()})`);
  }
} catch (e) {
  if (!(e instanceof Done)) throw e;
} finally {
  for (const s of stop.reverse()) await s().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
