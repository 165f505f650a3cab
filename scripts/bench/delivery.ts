#!/usr/bin/env bun
/**
 * Delivery benchmark: a 2 MB segment through a tokenised path (/t/<token>/m/...) at 64 connections, against nginx
 * (Debian package) serving the same file from the same disk on loopback, in the same run (alternating rounds,
 * medians). The appliance runs with --workers serving processes (VS_DELIVERY_WORKERS, default 2: main + 1 delivery
 * worker) and with its native delivery front (VS_DELIVERY_FRONT_PORT: nginx asks the appliance for every request and
 * sends the files it names); the same token URL is measured through the front and on the appliance's own port; nginx
 * alone with 1 and with 2 workers. Issue 21 target: >= 1.0x nginx with 2 workers, p99 within 1.2x of its.
 * The front runs with its grants (the default): after the appliance served the token one file of the output, nginx
 * sends its files on its own; the rounds after the main ones restart the appliance with VS_DELIVERY_FRONT_GRANTS=off
 * (every request asked over the private socket, the design before grants) beside nginx with 2 workers again.
 * Prints the stall monitor of every appliance process (VS_STALL_FILE). Also in the same rounds: the runtime's floor,
 * bare Bun.serve processes (as many as the appliance's) answering `new Response(Bun.file(path))` on one shared port,
 * and nginx with 2 workers and `tcp_nopush off`: nginx corks its header with the file's first bytes (TCP_CORK), which
 * Bun.serve cannot do (it sends the header segment alone, with TCP_NODELAY, then sendfile); on loopback, where wrk's
 * receive path is the bottleneck, that segment pattern alone moves nginx by ~30 %. The no-cork nginx is the
 * like-for-like reference for the server's own work. Also: the same bare processes answering the bytes from memory (header and
 * body in one sendmsg, what the cork achieves, at the price of a copy of every answer).
 * With --origin-log: the same segment with the statistics origin log on vs off (VS_ORIGIN_LOG, appliance restarted
 * between rounds: on, off, on, ...), on the appliance's own port and through its front, beside nginx with 2 workers;
 * ratio of medians (issue 16 target >= 0.95).
 * Goal 1 is also measured in paired runs (--pairs, default 7): nginx with 2 workers, the front, nginx, the front, ...,
 * nginx; each front run against the mean of the nginx runs just before and after it (what drifts on a shared box
 * between runs cancels out); the median of those ratios, with their range.
 * Then the front again with a fixed per-connection send buffer (--sndbuf, VS_DELIVERY_FRONT_SNDBUF; default 256k), paired
 * against nginx(2 workers) the same way.
 * Usage: bun scripts/bench/delivery.ts [--seconds 6] [--rounds 3] [--pairs 7] [--workers 2] [--sndbuf 256k] [--origin-log]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSeconds, median, firstStart, startAppliance, wrk, type WrkResult } from './lib';
import { stallFileLines } from './stall';
import { measured } from './cpu';
import { renderFrontConf } from '../../src/delivery-front/nginx-conf';
import { ACCEL_WHOLE } from '../../src/kernel/http/accel';
import { freePort } from '../../src/kernel/net/ports';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '6' }, rounds: { type: 'string', default: '3' }, pairs: { type: 'string', default: '7' }, 'origin-log': { type: 'boolean', default: false }, workers: { type: 'string', default: '2' }, sndbuf: { type: 'string', default: '256k' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds), workers = values.workers;
if (!Bun.which('nginx') && !Bun.which('/usr/sbin/nginx')) throw new Error('nginx not found: apt-get install nginx-light');
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-dlv-'));
const data = join(dir, 'data');
const cfg = join(dir, 'bench.yml');
writeFileSync(cfg, 'rate_limit: { per_second: 100000000, burst: 100000000 }\nlog_level: warn\n');
const stallFile = join(dir, 'stalls', 'appliance');
mkdirSync(join(dir, 'stalls'));
// The appliance also runs its native delivery front (nginx, VS_DELIVERY_FRONT_PORT): playback URLs point at it.
const env = { VS_CONFIG: cfg, VS_DELIVERY_WORKERS: workers, VS_STALL_FILE: stallFile, VS_DELIVERY_FRONT_PORT: '0' };

// 1. First start creates the schema and the owner key; stop; add a ready asset whose output holds a 2 MB segment.
const { key, db, tenant } = await firstStart(data, { VS_CONFIG: cfg });
let app: Awaited<ReturnType<typeof startAppliance>>;
const asset = Bun.randomUUIDv7();
const rel = `media/${tenant}/assets/${asset}/v1`;
mkdirSync(join(data, rel), { recursive: true });
writeFileSync(join(data, rel, 'seg_00001.m4s'), randomBytes(2 * 1024 * 1024));
writeFileSync(join(data, rel, 'master.m3u8'), '#EXTM3U\n');
const files = { hls: 'master.m3u8', dash: 'manifest.mpd', poster: 'poster.jpg', sprite: 'sprite.jpg', thumbs_vtt: 'thumbs.vtt', download: 'download.mp4' };
db.query(`INSERT INTO assets (id, tenant_id, title, status, source, output, created_at, updated_at) VALUES (?, ?, 'bench', 'ready', '{"kind":"upload"}', ?, ?, ?)`)
  .run(asset, tenant, JSON.stringify({ dir: rel, version: 1, files }), Date.now(), Date.now());
db.close();

// 2. Restart, sign a token, derive the segment's tokenised URL.
app = await startAppliance(data, env);
const tok = await (await fetch(`${app.url}/v1/playback/tokens`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ asset, ttl_s: 3600 }) })).json() as { src: string };
// The same tokenised URL through the front (as issued) and on the appliance's own port (Bun.serve, main + workers).
const frontUrl = new URL('seg_00001.m4s', tok.src).toString();
const segUrl = frontUrl.replace(/^http:\/\/[^/]+/, app.url);
if (segUrl === frontUrl) throw new Error('playback URLs do not point at the delivery front');
for (const u of [segUrl, frontUrl]) {
  const check = await fetch(u);
  if (check.status !== 200 || (await check.arrayBuffer()).byteLength !== 2 * 1024 * 1024) throw new Error(`token path did not serve the segment: ${check.status} (${u})`);
}

// 3. nginx on the same file (its workers run as another user: make the tree readable).
Bun.spawnSync(['chmod', '-R', 'a+rX', dir]);
const startNginx = async (workers: number, nopush = true, attempt = 0, logged = false): Promise<{ p: ReturnType<typeof Bun.spawn>; url: string }> => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const name = `nginx-${workers}${nopush ? '' : '-nocork'}${logged ? '-log' : ''}`;
  const conf = join(dir, `${name}.conf`);
  // logged: a JSON line per request to a buffered file, as the front logs what it sends on its own (its origin log).
  const log = logged
    ? `log_format j escape=json '{"t":$msec,"m":"$request_method","s":$status,"l":"$sent_http_content_length","u":"$uri","ip":"$remote_addr","ua":"$http_user_agent","ref":"$http_referer"}'; access_log ${dir}/${name}.log j buffer=64k flush=250ms;`
    : 'access_log off;';
  writeFileSync(conf, `worker_processes ${workers};\npid ${dir}/${name}.pid;\nerror_log ${dir}/nginx-error.log;\ndaemon off;\nevents { worker_connections 1024; }\nhttp { ${log} sendfile on; tcp_nopush ${nopush ? 'on' : 'off'}; keepalive_requests 100000;\n  types { video/iso.segment m4s; }\n  server { listen 127.0.0.1:${port}; root ${data}; } }\n`);
  const p = Bun.spawn(['nginx', '-c', conf, '-p', dir], { stdout: 'ignore', stderr: 'pipe' });
  let ok = false;
  for (let i = 0; i < 100 && !ok && p.exitCode === null; i++) { try { ok = (await fetch(`http://127.0.0.1:${port}/${rel}/seg_00001.m4s`)).ok; } catch { /* not yet */ } if (!ok) await Bun.sleep(50); }
  if (!ok) {
    p.kill('SIGTERM');
    await p.exited;
    // A random port may be taken (bind fails): try another one a few times.
    if (attempt < 5) return startNginx(workers, nopush, attempt + 1, logged);
    app.kill();
    throw new Error('nginx did not serve the segment');
  }
  return { p, url: `http://127.0.0.1:${port}/${rel}/seg_00001.m4s` };
};
const n1 = await startNginx(1);
const n2 = await startNginx(2);
// nginx's tcp_nopush (TCP_CORK around the header write and sendfile) puts the header and the first file bytes in one
// full segment; Bun.serve sends its header segment alone (TCP_NODELAY, no cork) before sendfile. The same nginx with
// tcp_nopush off is the like-for-like reference for a server that cannot cork (same syscalls as Bun's file answer).
const n2nc = await startNginx(2, false);
// The runtime's floor: bare Bun.serve processes on one port (SO_REUSEPORT), each answering the file with Bun.file.
// With BODY=memory the same processes answer the file's bytes held in memory instead: Bun then writes the header and
// the body with one sendmsg (no separate header segment, as nginx's cork gives), at the cost of copying the body.
const bareSrc = join(dir, 'bare.ts');
writeFileSync(bareSrc, `const path = ${JSON.stringify(join(data, rel, 'seg_00001.m4s'))};
const bytes = process.env.BODY === 'memory' ? new Uint8Array(await Bun.file(path).arrayBuffer()) : null;
const h = { 'content-type': 'video/iso.segment' };
const s = Bun.serve({ port: Number(process.env.PORT), hostname: '127.0.0.1', reusePort: true, fetch: () => new Response(bytes ?? Bun.file(path), { headers: h }) });
console.log('listening on ' + s.port);`);
const startBare = async (body: 'file' | 'memory') => {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const ps = Array.from({ length: Number(workers) }, () => Bun.spawn(['bun', bareSrc], { env: { ...process.env, PORT: String(port), BODY: body }, stdout: 'ignore', stderr: 'ignore' }));
    for (let i = 0; i < 100; i++) { try { if ((await fetch(`http://127.0.0.1:${port}/`)).ok) return { ps, url: `http://127.0.0.1:${port}/seg_00001.m4s` }; } catch { /* not yet */ } await Bun.sleep(50); }
    for (const p of ps) p.kill(9);
  }
  throw new Error('bare Bun.serve did not start');
};
const bareProcs = await startBare('file');
// The front design's floor: the appliance's own generated nginx configuration in front of a bare Bun.serve authoriser
// (no token check, gate or origin log) that names the segment for every request. What the front costs over nginx
// alone, apart from the appliance's own per-request work.
const floorDir = join(dir, 'floor');
mkdirSync(floorDir);
const floorSock = join(floorDir, 'authoriser.sock');
const authSrc = join(floorDir, 'authoriser.ts');
writeFileSync(authSrc, `const h = { 'x-accel-redirect': ${JSON.stringify(ACCEL_WHOLE + rel + '/seg_00001.m4s')}, 'content-length': '0', 'content-type': 'video/iso.segment', 'cache-control': 'public, max-age=31536000, immutable', etag: '"bench"', 'access-control-allow-origin': '*' };
Bun.serve({ unix: process.env.SOCK, fetch: (r) => { r.headers.get('host'); return new Response(null, { headers: h }); } });
console.log('ready');`);
const authoriser = Bun.spawn(['bun', authSrc], { env: { ...process.env, SOCK: floorSock }, stdout: 'pipe', stderr: 'ignore' });
for (let i = 0; i < 100 && !existsSync(floorSock); i++) await Bun.sleep(50);
const floorPort = await freePort('127.0.0.1');
writeFileSync(join(floorDir, 'nginx.conf'), renderFrontConf({ host: '127.0.0.1', port: floorPort, workers: availableParallelism(), sock: floorSock, dataDir: data, runDir: floorDir, problemsBase: '/problems', user: process.getuid?.() === 0 ? 'root' : undefined }));
// Under SCHED_BATCH and in a session of its own (its own autogroup), as the appliance starts its front's nginx.
const floorNginx = Bun.spawn(['setsid', ...(Bun.which('chrt') ? ['chrt', '--batch', '0'] : []), 'nginx', '-e', 'stderr', '-p', floorDir, '-c', join(floorDir, 'nginx.conf')], { stdout: 'ignore', stderr: 'ignore' });
const floorUrl = `http://127.0.0.1:${floorPort}/t/floor/seg_00001.m4s`;
for (let i = 0; i < 100; i++) { try { if ((await fetch(floorUrl)).ok) break; } catch { /* not yet */ } await Bun.sleep(50); }
const bareMem = await startBare('memory');
try {
  const o = { connections: 64, seconds };
  for (const u of [segUrl, frontUrl, floorUrl, n1.url, n2.url, n2nc.url, bareProcs.url, bareMem.url]) await wrk(u, { ...o, seconds: 2 });
  type R = WrkResult & { cpuUs: number };
  const a: R[] = [], b: R[] = [], c: R[] = [], d: R[] = [], e: R[] = [], f: R[] = [], g: R[] = [], h: R[] = [];
  // How SO_REUSEPORT spread the appliance's connections (sampled mid-round) and its CPU between main and workers.
  const port = new URL(segUrl).port;
  const split: string[] = [];
  let mainCpu = 0, allCpu = 0;
  // The front's main-process share (CPU of the appliance process itself, not nginx's, per answered request).
  const frontMain: number[] = [];
  // The appliance's own CPU while nothing is requested (its timers and background work), in ms per second.
  await Bun.sleep(6000); // past the statistics flush of the warm-up's origin log rows (VS_STATS_FLUSH_MS, 5 s)
  const i0 = cpuSeconds(app.proc.pid);
  await Bun.sleep(3000);
  const idleMsPerS = ((cpuSeconds(app.proc.pid) - i0) * 1000) / 3;
  for (let i = 0; i < rounds; i++) {
    b.push(await measured(n1.url, n1.p.pid, o));
    const ss = Bun.spawn(['sh', '-c', `sleep ${Math.max(1, seconds / 2)}; ss -tnpH state established "( sport = :${port} )"`], { stdout: 'pipe' });
    const m0 = cpuSeconds(app.proc.pid);
    const r = await measured(segUrl, app.proc.pid, o);
    mainCpu += cpuSeconds(app.proc.pid) - m0; allCpu += r.cpuUs * r.rps * seconds / 1e6;
    a.push(r);
    const counts = new Map<string, number>();
    for (const m of (await new Response(ss.stdout).text()).matchAll(/pid=(\d+)/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
    split.push([...counts].map(([pid, n]) => `${Number(pid) === app.proc.pid ? 'main' : `w${pid}`} ${n}`).join(' / '));
    c.push(await measured(n2.url, n2.p.pid, o));
    // The front: nginx (a child of the appliance, so in its process tree) plus the appliance's decisions.
    const f0 = cpuSeconds(app.proc.pid);
    g.push(await measured(frontUrl, app.proc.pid, o));
    frontMain.push(((cpuSeconds(app.proc.pid) - f0) * 1e6) / Math.max(1, g[g.length - 1].rps * seconds));
    h.push(await measured(floorUrl, [floorNginx.pid, authoriser.pid], o));
    // The bare processes are siblings (no common parent of theirs): their CPU summed.
    d.push(await measured(bareProcs.url, bareProcs.ps.map((p) => p.pid), o));
    e.push(await measured(n2nc.url, n2nc.p.pid, o));
    f.push(await measured(bareMem.url, bareMem.ps.map((p) => p.pid), o));
  }
  const row = (name: string, r: WrkResult[]) => `${name.padEnd(30)} ${median(r.map((x) => x.rps)).toFixed(0).padStart(6)} req/s ${median(r.map((x) => x.mbps)).toFixed(0).padStart(6)} MB/s   p99 ${median(r.map((x) => x.p99ms)).toFixed(1)} ms   non-2xx ${r.reduce((s, x) => s + x.non2xx, 0)}   CPU ${median(r.map((x) => (x as R).cpuUs ?? NaN)).toFixed(0)} us/req`;
  console.log(`2 MB segment, 64 connections, ${rounds} x ${seconds} s rounds (median)`);
  console.log(row('nginx (1 worker)', b));
  console.log(row(`appliance front (nginx + main) /t/<token>/m/`, g));
  console.log(row(`appliance own port (${workers} Bun proc)`, a));
  console.log(row('nginx (2 workers, reference)', c));
  const rps = (r: WrkResult[]) => median(r.map((x) => x.rps)), p99 = (r: WrkResult[]) => median(r.map((x) => x.p99ms));
  console.log(`goal 1, appliance through its delivery front: ${(rps(g) / rps(c)).toFixed(2)}x nginx(2 workers) (target >= 1.0), p99 ${(p99(g) / p99(c)).toFixed(2)}x (target <= 1.2); ${(rps(g) / rps(b)).toFixed(2)}x nginx(1 worker); per round ${g.map((x, i) => (x.rps / c[i].rps).toFixed(2)).join(' ')}`);
  console.log(`front: appliance process (not nginx) CPU ${median(frontMain).toFixed(0)} us per request, of which its idle ${idleMsPerS.toFixed(1)} ms/s spread over the requests is ${(idleMsPerS * 1000 / rps(g)).toFixed(0)} us`);
  console.log(row('front design floor (nginx + bare authoriser)', h));
  console.log(`front design floor/nginx(2 workers) ${(rps(h) / rps(c)).toFixed(2)}, p99 ${(p99(h) / p99(c)).toFixed(2)}x; appliance front/floor ${(rps(g) / rps(h)).toFixed(2)}, CPU per request ${(median(g.map((x) => x.cpuUs)) / median(h.map((x) => x.cpuUs))).toFixed(2)}x the floor's`);
  console.log(`appliance on its own port (Bun.serve): ${(rps(a) / rps(b)).toFixed(2)}x nginx(1 worker), ${(rps(a) / rps(c)).toFixed(2)}x nginx(2 workers), p99 ${(p99(a) / p99(c)).toFixed(2)}x; front/own port ${(rps(g) / rps(a)).toFixed(2)}x`);
  console.log(row(`bare Bun.serve + Bun.file (${workers} proc)`, d));
  const cpu = (r: R[]) => median(r.map((x) => x.cpuUs));
  console.log(`runtime floor: bare Bun/nginx(2 workers) ${(median(d.map((x) => x.rps)) / median(c.map((x) => x.rps))).toFixed(2)}; appliance/bare Bun ${(median(a.map((x) => x.rps)) / median(d.map((x) => x.rps))).toFixed(2)}; CPU per request over nginx(2 workers): bare Bun ${(cpu(d) / cpu(c)).toFixed(2)}x, appliance ${(cpu(a) / cpu(c)).toFixed(2)}x, appliance front ${(cpu(g) / cpu(c)).toFixed(2)}x`);
  console.log(row('nginx (2 workers, no cork)', e));
  console.log(`without TCP_CORK (tcp_nopush off): nginx(2 workers, no cork)/nginx(2 workers) ${(median(e.map((x) => x.rps)) / median(c.map((x) => x.rps))).toFixed(2)}; appliance/nginx(2 workers, no cork) ${(median(a.map((x) => x.rps)) / median(e.map((x) => x.rps))).toFixed(2)}, p99 ${(median(a.map((x) => x.p99ms)) / median(e.map((x) => x.p99ms))).toFixed(2)}x; bare Bun/nginx(2 workers, no cork) ${(median(d.map((x) => x.rps)) / median(e.map((x) => x.rps))).toFixed(2)}`);
  console.log(row(`bare Bun.serve + bytes in memory (${workers} proc)`, f));
  console.log(`one write for header and body (in-memory bytes): bare Bun/nginx(2 workers) ${(median(f.map((x) => x.rps)) / median(c.map((x) => x.rps))).toFixed(2)}, p99 ${(median(f.map((x) => x.p99ms)) / median(c.map((x) => x.p99ms))).toFixed(2)}x, CPU per request ${(cpu(f) / cpu(d)).toFixed(2)}x the same server answering with Bun.file (sendfile)`);
  console.log(`per round appliance own port/nginx(2 workers): ${a.map((x, i) => (x.rps / c[i].rps).toFixed(2)).join(' ')}`);
  console.log(`appliance connections per process (SO_REUSEPORT, mid-round): ${split.join('; ')}; main process CPU share ${(100 * mainCpu / Math.max(1e-9, allCpu)).toFixed(0)}%`);
  for (const l of stallFileLines(stallFile)) console.log(l);
  /**
   * Paired runs against nginx(2 workers): nginx, `url`, nginx, `url`, ..., nginx; each run of `url` against the mean of
   * the nginx runs on either side (what drifts on a shared box between runs cancels out). The ratios and a summary.
   */
  const pairedAgainstNginx = async (url: string) => {
    const pairs = Number(values.pairs);
    const ng: R[] = [await measured(n2.url, n2.p.pid, o)], fr: R[] = [];
    for (let i = 0; i < pairs; i++) {
      fr.push(await measured(url, app.proc.pid, o));
      ng.push(await measured(n2.url, n2.p.pid, o));
    }
    const ratios = fr.map((f, i) => f.rps / ((ng[i].rps + ng[i + 1].rps) / 2));
    const p99s = fr.map((f, i) => f.p99ms / ((ng[i].p99ms + ng[i + 1].p99ms) / 2));
    const sorted = [...ratios].sort((x, y) => x - y);
    const summary = `median ${median(ratios).toFixed(3)}x (range ${sorted[0].toFixed(2)}-${sorted[sorted.length - 1].toFixed(2)}; ${ratios.filter((r) => r >= 1).length} of ${pairs} at or above 1.0), p99 median ${median(p99s).toFixed(2)}x; CPU per request front ${cpu(fr).toFixed(0)} us vs nginx ${cpu(ng).toFixed(0)} us`;
    return { fr, ratios, pairs, summary };
  };
  /** Restarts the appliance with `extra` beside the bench's environment; the segment's URL through its new front. */
  const restartWith = async (extra: Record<string, string>): Promise<string> => {
    app.kill('SIGTERM'); await app.proc.exited;
    app = await startAppliance(data, { ...env, ...extra });
    // Each start tightens the data dir again (0700): nginx's workers run as another user.
    Bun.spawnSync(['chmod', '-R', 'a+rX', dir]);
    const fb = /delivery front \(nginx\) on (http:\/\/\S+)/.exec(app.output())?.[1];
    if (!fb) throw new Error(`no delivery front in the startup lines: ${app.output()}`);
    return frontUrl.replace(/^http:\/\/[^/]+/, fb);
  };
  {
    // Goal 1 in paired runs: nginx, front, nginx, front, ..., nginx.
    const { ratios, pairs, summary } = await pairedAgainstNginx(frontUrl);
    console.log(`goal 1, paired (${pairs} front runs, each against the nginx(2 workers) runs on either side): ${summary}`);
    console.log(`  per pair: ${ratios.map((r) => r.toFixed(3)).join(' ')}`);
    // Like for like: nginx that also writes a JSON line per request (what the front does for the origin log; the
    // appliance then reads those lines into DuckDB, which is the front's remaining CPU over nginx's).
    const nl = await startNginx(2, true, 0, true);
    const logged: R[] = [], plain: R[] = [];
    for (let i = 0; i < rounds; i++) { plain.push(await measured(n2.url, n2.p.pid, o)); logged.push(await measured(nl.url, nl.p.pid, o)); }
    nl.p.kill('SIGTERM'); await nl.p.exited;
    console.log(row('nginx (2 workers, JSON access log)', logged));
    console.log(`nginx with a JSON access log/nginx(2 workers) ${(rps(logged) / rps(plain)).toFixed(2)}, CPU per request ${(cpu(logged) / cpu(plain)).toFixed(2)}x; the front's ratio above against it: ${(median(ratios) * rps(plain) / rps(logged)).toFixed(2)}x`);
  }
  {
    // The same front asking the appliance for every request (grants off: the design before grants), beside nginx.
    const fu = await restartWith({ VS_DELIVERY_FRONT_GRANTS: 'off' });
    await wrk(fu, { ...o, seconds: 2 });
    const asked: R[] = [], ng: R[] = [];
    for (let i = 0; i < rounds; i++) {
      ng.push(await measured(n2.url, n2.p.pid, o));
      asked.push(await measured(fu, app.proc.pid, o));
    }
    console.log(row('front, every request asked (grants off)', asked));
    console.log(row('nginx (2 workers, reference)', ng));
    console.log(`front without grants/nginx(2 workers) ${(rps(asked) / rps(ng)).toFixed(2)}, p99 ${(p99(asked) / p99(ng)).toFixed(2)}x, CPU per request ${(cpu(asked) / cpu(ng)).toFixed(2)}x; per round ${asked.map((x, i) => (x.rps / ng[i].rps).toFixed(2)).join(' ')}`);
  }
  {
    // The same front with a fixed per-connection send buffer (VS_DELIVERY_FRONT_SNDBUF), paired against nginx(2 workers)
    // as goal 1 above: the default (auto) leaves the size to the kernel's autotuning.
    const fu = await restartWith({ VS_DELIVERY_FRONT_SNDBUF: values.sndbuf! });
    await wrk(fu, { ...o, seconds: 2 });
    const { fr, pairs, summary } = await pairedAgainstNginx(fu);
    console.log(row(`front, VS_DELIVERY_FRONT_SNDBUF=${values.sndbuf}`, fr));
    console.log(`front with sndbuf=${values.sndbuf} against nginx(2 workers), paired (${pairs}): ${summary}`);
  }
  if (values['origin-log']) {
    // Origin request log on vs off: restart the appliance with VS_ORIGIN_LOG each round (one DuckDB writer at a time),
    // on its own port and through its front (whose port is new at each start), beside nginx with 2 workers (which
    // logs nothing: access_log off).
    const on: R[] = [], off: R[] = [], fon: R[] = [], foff: R[] = [], ng: R[] = [];
    for (let i = 0; i < rounds * 2; i++) {
      const logOn = i % 2 === 0;
      const fu = await restartWith({ VS_ORIGIN_LOG: logOn ? 'on' : 'off' });
      const u = segUrl.replace(/^http:\/\/[^/]+/, app.url);
      await wrk(u, { ...o, seconds: 2 });
      await wrk(fu, { ...o, seconds: 2 });
      (logOn ? on : off).push(await measured(u, app.proc.pid, o));
      (logOn ? fon : foff).push(await measured(fu, app.proc.pid, o));
      ng.push(await measured(n2.url, n2.p.pid, o));
    }
    console.log(row('origin log on', on));
    console.log(row('origin log off', off));
    console.log(`ratio origin log on/off: ${(median(on.map((x) => x.rps)) / median(off.map((x) => x.rps))).toFixed(3)} (target >= 0.95); CPU per request on/off ${(median(on.map((x) => x.cpuUs)) / median(off.map((x) => x.cpuUs))).toFixed(3)}`);
    console.log(row('front, origin log on', fon));
    console.log(row('front, origin log off', foff));
    console.log(row('nginx (2 workers, reference)', ng));
    console.log(`front/nginx(2 workers): origin log on ${(median(fon.map((x) => x.rps)) / median(ng.map((x) => x.rps))).toFixed(2)}, p99 ${(median(fon.map((x) => x.p99ms)) / median(ng.map((x) => x.p99ms))).toFixed(2)}x; origin log off ${(median(foff.map((x) => x.rps)) / median(ng.map((x) => x.rps))).toFixed(2)}, p99 ${(median(foff.map((x) => x.p99ms)) / median(ng.map((x) => x.p99ms))).toFixed(2)}x; front CPU per request on/off ${(median(fon.map((x) => x.cpuUs)) / median(foff.map((x) => x.cpuUs))).toFixed(3)}`);
  }
} finally {
  app.kill();
  n1.p.kill('SIGTERM'); n2.p.kill('SIGTERM'); n2nc.p.kill('SIGTERM'); floorNginx.kill('SIGTERM'); authoriser.kill();
  for (const p of [...bareProcs.ps, ...bareMem.ps]) p.kill(9);
  await Promise.all([n1.p.exited, n2.p.exited, n2nc.p.exited, floorNginx.exited, authoriser.exited]);
  rmSync(dir, { recursive: true, force: true });
}
