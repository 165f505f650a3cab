#!/usr/bin/env bun
/**
 * Cluster benchmark (issue 49). Two figures, each against a baseline measured in the same run:
 *  1. Batch time-to-ready of N uploads (default 10 × 60 s, `--uploads N --seconds S`) transcoded by ONE worker pinned
 *     to one core vs TWO workers pinned to one core each (`taskset`, standing in for two machines): ratio two/one
 *     (target ≤ 0.6).
 *  2. Segment delivery through an edge node (`viewstream edge run`) from the S3 store vs from local disk, once cached:
 *     requests per second of the same segment, ratio s3/local (target ≥ 0.9).
 * Needs nats-server, nginx, ffmpeg and taskset. Usage: bun scripts/bench/cluster.ts [--uploads 10] [--seconds 60]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnServe, type ServeProc } from '../../test/helpers/proc';
import { freePort, waitFor } from '../../test/helpers/server';
import { cli, makeClip, natsServerBinary, spawnEdge, spawnWorker, startNats, startS3, uploadFile, type WorkerProc } from '../../test/e2e/cluster-helpers';

const { values } = parseArgs({ options: { uploads: { type: 'string', default: '10' }, seconds: { type: 'string', default: '60' } } });
const N = Number(values.uploads), SECONDS = Number(values.seconds);
const NATS = natsServerBinary();
if (!NATS) { console.error('nats-server is not installed'); process.exit(2); }
const root = mkdtempSync(join(tmpdir(), 'vs-bench-cluster-'));
const main = join(import.meta.dir, '../../src/main.ts');

/** One cluster: nats, bucket, control (S3 store or local), an edge; `workers` pinned one per core from core 0. */
async function cluster(name: string, store: 's3' | 'local', workers: number) {
  const dir = join(root, name);
  const nats = await startNats(NATS!, dir);
  const s3 = await startS3(dir, 'bench');
  const edgePort = await freePort();
  const env: Record<string, string> = { VS_NATS_URL: nats.url, VS_TRANSCODE_ENCODER: 'libx264', VS_CDN_BASE_URL: `http://127.0.0.1:${edgePort}` };
  if (store === 's3') Object.assign(env, { VS_MEDIA_STORE: 's3://bench/b', VS_MEDIA_STORE_ENDPOINT: s3.endpoint, VS_MEDIA_STORE_ACCESS_KEY_ID: 'S3RVER', VS_MEDIA_STORE_SECRET_ACCESS_KEY: 'S3RVER', VS_MEDIA_STORE_REGION: 'us-east-1' });
  const control: ServeProc = await spawnServe(['bun', main, 'serve', '--data', join(dir, 'control'), '--port', '0', '--host', '127.0.0.1'], env, 60_000);
  const edge = spawnEdge(control.url, edgePort, join(dir, 'edge'));
  const ws: WorkerProc[] = [];
  for (let i = 0; i < workers; i++) {
    const t = JSON.parse(await cli(['admin', 'worker-token', 'create', '--name', `w${i}`, '--json', '--data', join(dir, 'control')])) as { token: string };
    ws.push(spawnWorker(`w${i}`, control.url, t.token, join(dir, `w${i}`), { VS_TRANSCODE_ENCODER: 'libx264', VS_LOG_LEVEL: 'warn' }, String(i)));
  }
  await waitFor('workers joined', () => ws.every((w) => w.output().includes('joined')), 60_000, 100);
  return {
    control, key: control.key!,
    async stop() { for (const w of ws) { w.proc.kill(9); await w.proc.exited; } control.kill('SIGKILL'); await control.proc.exited; edge.proc.kill('SIGTERM'); await edge.proc.exited; await nats.stop(); await s3.stop(); },
  };
}

const assetOf = async (c: { control: ServeProc; key: string }, id: string) => (await fetch(`${c.control.url}/v1/assets/${id}`, { headers: { authorization: `Bearer ${c.key}` } })).json() as Promise<{ status: string; playback: { hls: string } }>;

/** Uploads N clips at once and waits until all are ready; returns seconds from the first upload to the last ready. */
async function batch(c: { control: ServeProc; key: string }, clip: string): Promise<number> {
  const t0 = performance.now();
  const ids = await Promise.all(Array.from({ length: N }, (_, i) => uploadFile(c.control.url, c.key, clip, `bench ${i}`)));
  await waitFor('batch ready', async () => (await Promise.all(ids.map((id) => assetOf(c, id)))).every((a) => { if (a.status === 'failed') throw new Error('failed'); return a.status === 'ready'; }), 3_600_000, 500);
  return (performance.now() - t0) / 1000;
}

/** Requests per second of one segment through the edge (cached after the first request), `ms` long, 8 at a time. */
async function segmentRate(c: { control: ServeProc; key: string }, id: string, ms = 5000): Promise<number> {
  const hls = (await assetOf(c, id)).playback.hls;
  const master = await (await fetch(hls)).text();
  const media = new URL(master.split('\n').find((l) => l && !l.startsWith('#'))!, hls).href;
  const seg = new URL((await (await fetch(media)).text()).split('\n').find((l) => l && !l.startsWith('#'))!, media).href;
  await (await fetch(seg)).arrayBuffer();
  let n = 0;
  const end = performance.now() + ms;
  await Promise.all(Array.from({ length: 8 }, async () => { while (performance.now() < end) { await (await fetch(seg)).arrayBuffer(); n++; } }));
  return n / (ms / 1000);
}

try {
  const clip = join(root, 'clip.mp4');
  await makeClip(clip, SECONDS, '1280x720');
  const one = await cluster('one', 's3', 1);
  const tOne = await batch(one, clip);
  const s3Id = await uploadFile(one.control.url, one.key, clip, 'seg');
  await waitFor('ready', async () => (await assetOf(one, s3Id)).status === 'ready', 3_600_000, 500);
  const rateS3 = await segmentRate(one, s3Id);
  await one.stop();
  const two = await cluster('two', 's3', 2);
  const tTwo = await batch(two, clip);
  await two.stop();
  const local = await cluster('local', 'local', 1);
  const localId = await uploadFile(local.control.url, local.key, clip, 'seg');
  await waitFor('ready', async () => (await assetOf(local, localId)).status === 'ready', 3_600_000, 500);
  const rateLocal = await segmentRate(local, localId);
  await local.stop();
  console.log(`batch of ${N} × ${SECONDS} s uploads: one worker ${tOne.toFixed(1)} s, two workers ${tTwo.toFixed(1)} s, ratio ${(tTwo / tOne).toFixed(2)} (target ≤ 0.6)`);
  console.log(`cached segment through the edge: S3 store ${rateS3.toFixed(0)}/s, local disk ${rateLocal.toFixed(0)}/s, ratio ${(rateS3 / rateLocal).toFixed(2)} (target ≥ 0.9)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
