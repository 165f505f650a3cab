#!/usr/bin/env bun
/**
 * Edge benchmark (issue 46), the appliance as `serve` starts it by default (delivery front with its edge cache on the
 * public port), all in one run on loopback:
 * 1. A cached 2 MB segment through the edge (a token's URL: the grant sends it from the cache, X-Cache-Status HIT) vs
 *    plain nginx (Debian package, 2 workers) serving the same file from the same disk: wrk at 64 connections,
 *    alternating rounds, ratio of median requests per second and of median p99 (targets >= 0.95x, p99 <= 1.2x).
 * 2. Purge of 10,000 cached keys (10,000 small files of one asset fetched once through the edge): wall time from
 *    `POST /v1/purge` to its job's end, and the keys it removed (target < 1 s).
 * 3. Pre-warm of a 6-rendition 10-minute ladder (2 s segments, 1,806 URLs, synthetic bytes) through the edge vs
 *    `wget` fetching the same URLs (one connection, `-i` list: wget -r cannot read HLS playlists) on a cold cache each
 *    (purged between): ratio of wall times and the edge's line rate.
 * Usage: bun scripts/bench/edge.ts [--seconds 6] [--rounds 3] [--segment-kb 200]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median, firstStart, startAppliance, wrk, type WrkResult } from './lib';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '6' }, rounds: { type: 'string', default: '3' }, 'segment-kb': { type: 'string', default: '200' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds), segKb = Number(values['segment-kb']);
if (!Bun.which('nginx') && !Bun.which('/usr/sbin/nginx')) throw new Error('nginx not found: apt-get install nginx-light');
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-edge-'));
const data = join(dir, 'data');
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');

// 1. First start: schema and owner key; stop; write three ready assets straight into the data dir and database.
const { key, db, tenant } = await firstStart(data, { VS_CONFIG: cfg });
let app: Awaited<ReturnType<typeof startAppliance>>;
const files = { hls: 'master.m3u8', dash: 'manifest.mpd', poster: 'poster.jpg', sprite: 'sprite.jpg', thumbs_vtt: 'thumbs.vtt', download: 'download.mp4' };
const addAsset = (write: (dir: string) => void) => {
  const id = Bun.randomUUIDv7();
  const rel = `media/${tenant}/assets/${id}/v1`;
  mkdirSync(join(data, rel), { recursive: true });
  write(join(data, rel));
  db.query(`INSERT INTO assets (id, tenant_id, title, status, source, output, created_at, updated_at) VALUES (?, ?, 'bench', 'ready', '{"kind":"upload"}', ?, ?, ?)`)
    .run(id, tenant, JSON.stringify({ dir: rel, version: 1, files }), Date.now(), Date.now());
  return { id, rel };
};
const seg = addAsset((d) => { writeFileSync(join(d, 'seg_00001.m4s'), randomBytes(2 * 1024 * 1024)); writeFileSync(join(d, 'master.m3u8'), '#EXTM3U\n'); });
const KEYS = 10_000;
const many = addAsset((d) => { const b = randomBytes(512); for (let i = 0; i < KEYS; i++) writeFileSync(join(d, `k_${String(i).padStart(5, '0')}.m4s`), b); writeFileSync(join(d, 'master.m3u8'), '#EXTM3U\n'); });
const RENDITIONS = 6, SEGMENTS = 300;
const ladder = addAsset((d) => {
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
});
db.close();

// 2. The default start: front with its edge cache on the public port.
app = await startAppliance(data, { VS_CONFIG: cfg, VS_DELIVERY_FRONT: 'auto' });
const api = (method: string, path: string, body?: unknown) => fetch(`${app.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const token = async (asset: string) => (await (await api('POST', '/v1/playback/tokens', { asset, ttl_s: 3600 })).json() as { src: string }).src;
const jobDone = async (path: string) => { for (;;) { const j = await (await api('GET', path)).json() as Record<string, any>; if (j.status === 'succeeded' || j.status === 'failed') return j; await Bun.sleep(20); } };
const segUrl = new URL('seg_00001.m4s', await token(seg.id)).toString();
for (let i = 0; i < 2; i++) await (await fetch(segUrl)).arrayBuffer(); // fill, then the grant
const probe = await fetch(segUrl);
await probe.arrayBuffer();
if (probe.headers.get('x-cache-status') !== 'HIT') throw new Error(`the segment is not a cache HIT through the edge: ${probe.headers.get('x-cache-status')}`);

// 3. Plain nginx (2 workers) on the same file.
Bun.spawnSync(['chmod', '-R', 'a+rX', dir]);
const port = 20000 + Math.floor(Math.random() * 20000);
writeFileSync(join(dir, 'nginx.conf'), `worker_processes 2;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log;\ndaemon off;\nevents { worker_connections 1024; }\nhttp { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;\n  types { video/iso.segment m4s; }\n  server { listen 127.0.0.1:${port}; root ${data}; } }\n`);
const nginx = Bun.spawn(['nginx', '-c', join(dir, 'nginx.conf'), '-p', dir], { stdout: 'ignore', stderr: 'pipe' });
const nginxUrl = `http://127.0.0.1:${port}/${seg.rel}/seg_00001.m4s`;
for (let i = 0; i < 100; i++) { try { if ((await fetch(nginxUrl)).ok) break; } catch { /* not yet */ } await Bun.sleep(50); }

const edgeRuns: WrkResult[] = [], nginxRuns: WrkResult[] = [];
for (let r = 0; r < rounds; r++) {
  nginxRuns.push(await wrk(nginxUrl, { connections: 64, seconds }));
  edgeRuns.push(await wrk(segUrl, { connections: 64, seconds }));
}
const rps = (xs: WrkResult[]) => median(xs.map((x) => x.rps)), p99 = (xs: WrkResult[]) => median(xs.map((x) => x.p99ms));
console.log(`cached 2 MB segment, 64 connections, ${rounds} rounds x ${seconds} s (medians)`);
console.log(`  nginx (2 workers)   ${rps(nginxRuns).toFixed(0)} req/s  p99 ${p99(nginxRuns).toFixed(1)} ms`);
console.log(`  edge (cache HIT)    ${rps(edgeRuns).toFixed(0)} req/s  p99 ${p99(edgeRuns).toFixed(1)} ms  non-2xx ${edgeRuns.reduce((a, x) => a + x.non2xx, 0)}`);
console.log(`  ratio ${(rps(edgeRuns) / rps(nginxRuns)).toFixed(2)}x  p99 ratio ${(p99(edgeRuns) / p99(nginxRuns)).toFixed(2)}x  (targets >= 0.95x, <= 1.2x)`);
nginx.kill('SIGTERM');

// 4. Purge of 10,000 keys.
const manyBase = await token(many.id);
const names = Array.from({ length: KEYS }, (_, i) => `k_${String(i).padStart(5, '0')}.m4s`);
for (let i = 0; i < names.length; i += 64) await Promise.all(names.slice(i, i + 64).map(async (n) => { await (await fetch(new URL(n, manyBase))).arrayBuffer(); }));
await Bun.sleep(300); // the fill log is read back every 100 ms
const t0 = performance.now();
const p = await (await api('POST', '/v1/purge', { asset_id: many.id })).json() as { job_id: string; keys: number };
const pj = await jobDone(`/v1/jobs/${p.job_id}`);
const purgeMs = performance.now() - t0;
console.log(`purge of ${p.keys} keys (asset_id): ${purgeMs.toFixed(0)} ms from POST to the job's end, removed ${pj.result?.removed} (target < 1000 ms)`);

// 5. Pre-warm vs wget on the same URLs, each on a cold cache.
const master = await token(ladder.id);
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
await jobDone(`/v1/jobs/${(await (await api('POST', '/v1/purge', { asset_id: ladder.id })).json() as { job_id: string }).job_id}`);
const e0 = performance.now();
const pw = await (await api('POST', '/v1/prewarm', { asset_id: ladder.id })).json() as { id: string };
const pr = await jobDone(`/v1/prewarm/${pw.id}`);
const prewarmMs = performance.now() - e0;
const mb = pr.bytes / 1e6;
console.log(`pre-warm of ${RENDITIONS} renditions x ${SEGMENTS} segments of ${segKb} KB (${urls.length} URLs, ${mb.toFixed(0)} MB): ${prewarmMs.toFixed(0)} ms (${(mb * 8 / (prewarmMs / 1000)).toFixed(0)} Mbit/s), fetched ${pr.fetched}, stored ${pr.stored}, hit ${pr.hit}, failed ${pr.failed}`);
console.log(`wget -i of the same URLs (cold cache): ${wgetMs.toFixed(0)} ms; pre-warm / wget time ratio ${(prewarmMs / wgetMs).toFixed(2)}x (below 1: faster)`);

app.kill('SIGTERM');
await app.proc.exited;
rmSync(dir, { recursive: true, force: true });
