/**
 * The `live` part of scripts/bench/edge.ts (issue 46): live playlists through the edge, cached (the gate decides,
 * nginx answers from its ~1 s copy) vs uncached (`VS_EDGE_CACHE=off`: the appliance writes every answer), two
 * appliances with the front on their public port, each with a real live channel (SRT push, 320x180), measured in the
 * same run:
 * a. N viewers (each with its own token) polling the variant playlist every `everyMs`: answers/s and playlists the
 *    appliance wrote per second (edge: MISS + EXPIRED + STALE answers, each one fill; uncached: every answer);
 * b. capacity: wrk (64 connections, one token) on the variant playlist, alternating rounds: answers/s, p99 and CPU
 *    per answer (the appliance's own process + the front's nginx; the ingest ffmpeg excluded).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuSeconds, firstStart, median, startAppliance, wrk, type WrkResult } from './lib';
import { treeCpu } from './cpu';
import { liveEnv, push } from '../../test/e2e/live-helpers';

/** What the live part needs from edge.ts. */
export interface LiveBench { dir: string; cfg: string; seconds: number; rounds: number; viewers: number; everyMs: number; load: () => string }

/** An appliance with the front on its public port and a live channel being pushed; resolves once its playlist plays. */
async function liveAppliance(o: LiveBench, name: string, env: Record<string, string>) {
  const data = join(o.dir, name);
  const { key, db } = await firstStart(data, { VS_CONFIG: o.cfg });
  db.close();
  const app = await startAppliance(data, { VS_CONFIG: o.cfg, VS_DELIVERY_FRONT: 'auto', ...(await liveEnv(4)), ...env });
  const api = (method: string, path: string, body?: unknown) => fetch(`${app.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const ch = await (await api('POST', '/v1/channels', { name: `Bench ${name}`, recording: { retention_hours: 1 } })).json() as { id: string; slug: string };
  await api('POST', `/v1/channels/${ch.id}/start`);
  const ing = await (await api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const pusher = push(ing.srt.primary.url, { seconds: 3600 });
  const token = async () => (await (await api('POST', '/v1/playback/tokens', { channel: ch.slug, ttl_s: 3600 })).json() as { src: string }).src;
  const first = await token();
  let rendition = '';
  for (const until = Date.now() + 90_000; !rendition; await Bun.sleep(200)) {
    if (Date.now() > until) throw new Error(`${name}: no live playlist within 90 s: ${pusher.stderr()}`);
    const m = await fetch(first);
    const uri = m.status === 200 ? (await m.text()).split('\n').find((l) => l && !l.startsWith('#')) : undefined;
    if (uri && (await fetch(new URL(uri, first))).status === 200) rendition = uri;
  }
  const variantOf = (src: string) => new URL(rendition, src).toString();
  const kids = (pid: number): number[] => { try { return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number)); } catch { return []; } };
  const tree = (pid: number): number[] => [pid, ...kids(pid).flatMap(tree)];
  const ngx = tree(app.proc.pid).find((p) => { try { return /-c \S*nginx\.conf/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8')); } catch { return false; } }) ?? 0;
  return {
    app, token, variantOf, ngx,
    async stop() { pusher.kill(); app.kill('SIGTERM'); await app.proc.exited; },
  };
}
type Live = Awaited<ReturnType<typeof liveAppliance>>;

/** `urls.length` viewers polling their URL every `everyMs` for `ms`: answers and their X-Cache-Status counts. */
async function poll(urls: string[], ms: number, everyMs: number) {
  const counts: Record<string, number> = {};
  let n = 0, bad = 0;
  const t0 = performance.now(), end = t0 + ms, wall0 = Date.now();
  await Promise.all(urls.map(async (u, i) => {
    await Bun.sleep((i * everyMs) / urls.length); // spread over the period, as independent players are
    while (performance.now() < end) {
      const t = performance.now();
      const r = await fetch(u);
      await r.arrayBuffer();
      n++;
      if (r.status !== 200) bad++;
      const st = r.headers.get('x-cache-status') ?? 'none';
      counts[st] = (counts[st] ?? 0) + 1;
      const wait = everyMs - (performance.now() - t);
      if (wait > 0) await Bun.sleep(wait);
    }
  }));
  // Wall-clock seconds the run touched (nginx keeps a live playlist to the end of the second it was written in).
  return { n, bad, counts, s: (performance.now() - t0) / 1000, wallSeconds: Math.floor(Date.now() / 1000) - Math.floor(wall0 / 1000) + 1 };
}

/** Runs the live part and prints its figures. */
export async function benchLivePlaylists(o: LiveBench): Promise<void> {
  const lives: Live[] = [];
  try {
    const edge = await liveAppliance(o, 'live-edge', {});
    lives.push(edge);
    const plain = await liveAppliance(o, 'live-plain', { VS_EDGE_CACHE: 'off' });
    lives.push(plain);
    const probe = await fetch(edge.variantOf(await edge.token()));
    await probe.arrayBuffer();
    if (!/^(MISS|HIT|EXPIRED|STALE|UPDATING)$/.test(probe.headers.get('x-cache-status') ?? '')) throw new Error(`live playlist not through the edge cache: ${probe.status} ${probe.headers.get('x-cache-status')}`);

    // a. Polling viewers, each with its own token (a session each), the edge then the uncached front.
    const ms = Math.max(4000, o.seconds * 2000);
    const urls = async (l: Live) => Promise.all(Array.from({ length: o.viewers }, async () => l.variantOf(await l.token())));
    const [eu, pu] = [await urls(edge), await urls(plain)];
    const pe = await poll(eu, ms, o.everyMs), pp = await poll(pu, ms, o.everyMs);
    const fills = (pe.counts.MISS ?? 0) + (pe.counts.EXPIRED ?? 0) + (pe.counts.STALE ?? 0);
    const fmt = (c: Record<string, number>) => Object.entries(c).map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(`6. live playlists: ${o.viewers} viewers (own tokens) polling one rendition's playlist every ${o.everyMs} ms for ${(ms / 1000).toFixed(0)} s (${o.load()})`);
    console.log(`   edge (cached):   ${(pe.n / pe.s).toFixed(0)} answers/s, playlists written by the appliance ${(fills / pe.s).toFixed(2)}/s: ${fills} in ${pe.wallSeconds} wall-clock seconds touched (target <= 1 per rendition per max-age 1 s); ${fmt(pe.counts)}; non-200 ${pe.bad}`);
    console.log(`   front uncached:  ${(pp.n / pp.s).toFixed(0)} answers/s, playlists written by the appliance ${(pp.n / pp.s).toFixed(2)}/s (every answer); non-200 ${pp.bad}`);
    console.log(`   playlists written: ${(fills / pe.s / (pp.n / pp.s)).toFixed(3)}x of uncached; every answer is still the gate's decision in the appliance (token, policy, blackout), ${(pe.n / pe.s).toFixed(0)}/s, answered by a small redirect`);

    // b. Capacity, alternating rounds: wrk on one token's variant playlist.
    const conn = { connections: 64, seconds: o.seconds };
    const ea = edge.variantOf(await edge.token()), pa = plain.variantOf(await plain.token());
    const cpu = (l: Live) => cpuSeconds(l.app.proc.pid) + treeCpu(l.ngx);
    const run = async (l: Live, url: string) => {
      const c0 = cpu(l), a0 = cpuSeconds(l.app.proc.pid);
      const r = await wrk(url, conn);
      const n = Math.max(1, r.rps * o.seconds);
      return { ...r, cpuUs: ((cpu(l) - c0) * 1e6) / n, appUs: ((cpuSeconds(l.app.proc.pid) - a0) * 1e6) / n };
    };
    await wrk(ea, { ...conn, seconds: 1 }); await wrk(pa, { ...conn, seconds: 1 });
    type Rr = WrkResult & { cpuUs: number; appUs: number };
    const er: Rr[] = [], pr: Rr[] = [];
    for (let i = 0; i < o.rounds; i++) { pr.push(await run(plain, pa)); er.push(await run(edge, ea)); }
    const m = (xs: Rr[], f: (x: Rr) => number) => median(xs.map(f));
    console.log(`7. live playlist capacity: wrk 64 connections on one rendition's playlist, ${o.rounds} alternating rounds x ${o.seconds} s, medians (${o.load()})`);
    console.log(`   front uncached  ${m(pr, (x) => x.rps).toFixed(0).padStart(6)} answers/s  p99 ${m(pr, (x) => x.p99ms).toFixed(1)} ms  CPU ${m(pr, (x) => x.cpuUs).toFixed(0)} us/answer (appliance ${m(pr, (x) => x.appUs).toFixed(0)})  non-2xx ${pr.reduce((s, x) => s + x.non2xx, 0)}`);
    console.log(`   edge (cached)   ${m(er, (x) => x.rps).toFixed(0).padStart(6)} answers/s  p99 ${m(er, (x) => x.p99ms).toFixed(1)} ms  CPU ${m(er, (x) => x.cpuUs).toFixed(0)} us/answer (appliance ${m(er, (x) => x.appUs).toFixed(0)})  non-2xx ${er.reduce((s, x) => s + x.non2xx, 0)}`);
    console.log(`   ratio ${(m(er, (x) => x.rps) / m(pr, (x) => x.rps)).toFixed(2)}x answers/s  p99 ${(m(er, (x) => x.p99ms) / m(pr, (x) => x.p99ms)).toFixed(2)}x  CPU per answer ${(m(er, (x) => x.cpuUs) / m(pr, (x) => x.cpuUs)).toFixed(2)}x (appliance ${(m(er, (x) => x.appUs) / m(pr, (x) => x.appUs)).toFixed(2)}x); per round ${er.map((x, i) => (x.rps / pr[i]!.rps).toFixed(2)).join(' ')}`);
  } finally {
    for (const l of lives.reverse()) await l.stop().catch(() => {});
  }
}
