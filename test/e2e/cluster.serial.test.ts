import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3MediaStore } from '../../src/kernel/media-store';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { freePort, waitFor } from '../helpers/server';
import { LIBRIVOX } from './subtitles-helpers';
import { ff } from './transcode-helpers';
import { liveEnv, push, killPushers } from './live-helpers';
import { extractiveEngine } from '../../src/engines/article/extractive';
import { newsCues } from './articles-helpers';
import { cli, makeClip, natsServerBinary, spawnEdge, spawnWorker, startNats, startS3, uploadFile, type WorkerProc } from './cluster-helpers';
import { verifySignature } from '../../src/kernel/events/signing';

// Issue 49: control, two workers and an edge (`viewstream edge run`: nginx proxy_cache in front of the control) as
// separate processes on loopback ports, nats-server (JetStream) and an S3-protocol server (s3rver) started here.
const NATS = natsServerBinary();
const BUCKET = 'vs-media', KEY = 'S3RVER', SECRET = 'S3RVER';
const dir = mkdtempSync(join(tmpdir(), 'vs-cluster-'));
const data = join(dir, 'control');
let nats: Awaited<ReturnType<typeof startNats>> | null = null;
let s3: Awaited<ReturnType<typeof startS3>> | null = null;
let control: ServeProc | null = null;
let controlPort = 0;
let ownerKey = '';
let edge: WorkerProc | null = null;
let edgeUrl = '';
const workers: WorkerProc[] = [];
let store: S3MediaStore;
let firstAsset = '';
let env: Record<string, string> = {};

const j = (r: Response): Promise<any> => r.json();
/** Every process under `pid` (its children, their children, ...), from /proc. */
const descendants = (pid: number): number[] => {
  const kids = new Map<number, number[]>();
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const st = readFileSync(`/proc/${n}/stat`, 'utf8');
      const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(n)]);
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const walk = (p: number) => { for (const k of kids.get(p) ?? []) { out.push(k); walk(k); } };
  walk(pid);
  return out;
};
const readCmd = (pid: number): string => { try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { return ''; } };
const api = (p: string) => fetch(control!.url + p, { headers: { authorization: `Bearer ${ownerKey}` } });
const db = () => new Database(join(data, 'db', 'meta.sqlite'), { readonly: true });
const clusterRow = (assetId: string) => {
  const d = db();
  try {
    return d.query<{ job_id: string; gen: number; status: string; worker: string | null; progress: number | null }, [string]>(
      `SELECT c.* FROM cluster_jobs c JOIN jobs j ON j.id = c.job_id WHERE j.subject_id = ? AND j.type = 'asset.encode'`).get(assetId);
  } finally { d.close(); }
};
const ready = (id: string, ms = 240_000) => waitFor(`asset ${id} ready`, async () => {
  const a = await j(await api(`/v1/assets/${id}`));
  if (a.status === 'failed') throw Object.assign(new Error(`asset failed: ${a.error}`), { fatal: true });
  return a.status === 'ready' ? a : null;
}, ms, 250);

async function startControl(port = 0): Promise<ServeProc> {
  const p = await spawnServe(['bun', join(import.meta.dir, '../../src/main.ts'), 'serve', '--data', data, '--port', String(port), '--host', '127.0.0.1'], { ...env, VS_CDN_BASE_URL: edgeUrl }, 60_000);
  if (p.key) ownerKey = p.key;
  return p;
}

beforeAll(async () => {
  if (!NATS) return;
  nats = await startNats(NATS, dir);
  s3 = await startS3(dir, BUCKET);
  env = {
    VS_NATS_URL: nats.url, VS_CLUSTER_ACK_WAIT_MS: '4000', VS_MEDIA_STORE: `s3://${BUCKET}/box`, VS_MEDIA_STORE_ENDPOINT: s3.endpoint,
    VS_MEDIA_STORE_REGION: 'us-east-1', VS_MEDIA_STORE_ACCESS_KEY_ID: KEY, VS_MEDIA_STORE_SECRET_ACCESS_KEY: SECRET, VS_TRANSCODE_ENCODER: 'libx264',
    VS_PRIVATE_ALLOWLIST: '127.0.0.0/8', // the export test's receiver is on loopback
    ...(await liveEnv()),
  };
  store = new S3MediaStore({ bucket: BUCKET, prefix: 'box/', endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: KEY, secretAccessKey: SECRET });
  edgeUrl = `http://127.0.0.1:${await freePort()}`;
  control = await startControl();
  controlPort = Number(new URL(control.url).port);
  edge = spawnEdge(control.url, Number(new URL(edgeUrl).port), join(dir, 'edge'));
  await waitFor('edge up', async () => (await fetch(`${edgeUrl}/healthz`).catch(() => null))?.ok, 30_000, 100);
  for (const name of ['w1', 'w2']) {
    const t = JSON.parse(await cli(['admin', 'worker-token', 'create', '--name', name, '--json', '--data', data])) as { token: string };
    workers.push(spawnWorker(name, control.url, t.token, join(dir, name), { VS_TRANSCODE_ENCODER: 'libx264', VS_LOG_LEVEL: 'info' }));
  }
  await waitFor('workers joined', () => workers.every((w) => w.output().includes('joined')), 60_000, 100);
}, 180_000);

afterAll(async () => {
  await killPushers();
  if (process.env.VS_TEST_DEBUG) for (const w of workers) process.stderr.write(`--- ${w.name}\n${w.output()}\n`);
  if (process.env.VS_TEST_DEBUG && control) process.stderr.write(`--- control\n${control.output()}\n`);
  for (const w of workers) { try { w.proc.kill(9); } catch { /* gone */ } await w.proc.exited; }
  if (control) { control.kill('SIGKILL'); await control.proc.exited; }
  if (edge) { edge.proc.kill('SIGTERM'); await edge.proc.exited; }
  await nats?.stop();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test.skipIf(!NATS)('an upload transcodes on a worker, its output lives in the bucket, and it plays through the edge', async () => {
  const clip = join(dir, 'short.mp4');
  await makeClip(clip, 4, '320x180');
  const id = await uploadFile(control!.url, ownerKey, clip, 'short');
  const a = await ready(id);
  firstAsset = id;
  const row = clusterRow(id)!;
  expect(row.status).toBe('done');
  expect(['w1', 'w2']).toContain(row.worker!);
  const tenant = (await j(await api('/v1/me'))).current_tenant.id as string;
  const keys = (await store.list(`media/${tenant}/assets/${id}/`)).map((e) => e.key.slice(`media/${tenant}/assets/${id}/`.length));
  expect(keys).toContain('v1/master.m3u8');
  expect(keys.some((k) => k.endsWith('.m4s'))).toBe(true);
  // The renditions are not on the control's disk: delivery reads them from the bucket.
  expect(existsSync(join(data, 'media', tenant, 'assets', id, 'v1'))).toBe(false);
  // Through the edge node (its own nginx process with a cache): master, a media playlist, a segment by range; the second read is a cache hit.
  const hls = a.playback.hls as string;
  expect(hls.startsWith(edgeUrl)).toBe(true);
  const master = await (await fetch(hls)).text();
  expect(master).toContain('#EXTM3U');
  const media = new URL(master.split('\n').find((l) => l && !l.startsWith('#'))!, hls).href;
  const pl = await (await fetch(media)).text();
  const seg = new URL(pl.split('\n').find((l) => l && !l.startsWith('#'))!, media).href;
  const first = await fetch(seg);
  expect(first.headers.get('x-cache-status')).toBe('MISS');
  const whole = new Uint8Array(await first.arrayBuffer());
  const stored = new Uint8Array(await new Response(await store.read(keys.map((k) => `media/${tenant}/assets/${id}/${k}`).find((k) => seg.endsWith(k.split('/').slice(-1)[0]!))!)).arrayBuffer());
  expect(whole).toEqual(stored);
  const part = await fetch(seg, { headers: { range: 'bytes=10-109' } });
  expect(part.status).toBe(206);
  expect(new Uint8Array(await part.arrayBuffer())).toEqual(whole.subarray(10, 110));
  const again = await fetch(seg);
  expect(again.headers.get('x-cache-status')).toBe('HIT');
}, 300_000);

test.skipIf(!NATS)('kill -9 of the worker mid-encode: the other worker finishes it, no orphan files', async () => {
  const clip = join(dir, 'long.mp4');
  await makeClip(clip, 12, '640x360');
  const id = await uploadFile(control!.url, ownerKey, clip, 'long');
  const row = await waitFor('encode running on a worker', () => { const r = clusterRow(id); return r && r.status === 'running' && (r.progress ?? 0) > 3 ? r : null; }, 120_000, 100);
  const victim = workers.find((w) => w.name === row!.worker)!;
  const other = workers.find((w) => w.name !== row!.worker)!;
  victim.proc.kill(9);
  await victim.proc.exited;
  await ready(id);
  const end = clusterRow(id)!;
  expect(end.worker).toBe(other.name);
  expect(other.output()).toContain('job done');
  const tenant = (await j(await api('/v1/me'))).current_tenant.id as string;
  const keys = (await store.list(`media/${tenant}/assets/${id}/`)).map((e) => e.key.slice(`media/${tenant}/assets/${id}/`.length));
  // Only the source and the one finished version: nothing of the killed worker's upload, no work directories.
  expect(keys.filter((k) => !k.startsWith('v1/'))).toEqual(keys.filter((k) => k.startsWith('source')));
  const a = await j(await api(`/v1/assets/${id}`));
  const master = await store.read(`media/${tenant}/assets/${id}/v1/master.m3u8`);
  expect(master).not.toBeNull();
  expect(a.status).toBe('ready');
  // The surviving worker's scratch space is empty again; the killed one's is cleared when it starts again.
  const scratch = join(dir, other.name, 'work');
  expect(existsSync(scratch) ? readdirSync(scratch) : []).toEqual([]);
  // Restart the killed worker (the rest of the test needs two).
  const t = JSON.parse(await cli(['admin', 'worker-token', 'create', '--name', `${victim.name}b`, '--json', '--data', data])) as { token: string };
  const again = spawnWorker(`${victim.name}b`, control!.url, t.token, join(dir, victim.name), { VS_TRANSCODE_ENCODER: 'libx264' });
  workers.splice(workers.indexOf(victim), 1, again);
  await waitFor('worker back', () => again.output().includes('joined'), 60_000, 100);
  expect(readdirSync(join(dir, victim.name, 'work'))).toEqual([]);
}, 400_000);

test.skipIf(!NATS)('the control node restarted mid-job: nothing lost, the asset becomes ready once', async () => {
  const clip = join(dir, 'mid.mp4');
  await makeClip(clip, 8, '480x270');
  const id = await uploadFile(control!.url, ownerKey, clip, 'mid');
  await waitFor('encode running on a worker', () => { const r = clusterRow(id); return r && r.status === 'running' ? r : null; }, 120_000, 100);
  control!.kill('SIGKILL');
  await control!.proc.exited;
  control = await startControl(controlPort);
  const a = await ready(id);
  expect(a.status).toBe('ready');
  const row = clusterRow(id)!;
  expect(row.status).toBe('done');
  expect(row.gen).toBe(1); // not published again: the stream kept the job, and the result waited for the control node
  const d = db();
  try {
    const events = d.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM outbox WHERE type = 'asset.ready' AND payload LIKE ?`).get(`%${id}%`);
    expect(events?.n ?? 1).toBe(1);
  } catch { /* outbox layout differs: the ready check above stands */ } finally { d.close(); }
}, 400_000);

test.skipIf(!NATS)('a poster frame is drawn on a worker, from and into the bucket', async () => {
  expect(firstAsset).not.toBe('');
  const before = workers.map((w) => w.output().split('job done').length).reduce((x, y) => x + y, 0);
  const r = await fetch(`${control!.url}/v1/assets/${firstAsset}/poster`, { method: 'PUT', headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ time_s: 1.5 }) });
  expect(r.status).toBe(200);
  const a = await r.json();
  const poster = a.playback.poster as string;
  expect(poster).toMatch(/poster-[a-z0-9]+\.jpg/);
  const name = /poster-[a-z0-9]+/.exec(poster)![0];
  const tenant = (await j(await api('/v1/me'))).current_tenant.id as string;
  const keys = (await store.list(`media/${tenant}/assets/${firstAsset}/v1/`)).map((e) => e.key.split('/').pop());
  expect(keys).toContain(`${name}.jpg`);
  expect(keys).toContain(`${name}.webp`);
  expect(existsSync(join(data, 'media', tenant, 'assets', firstAsset, 'v1'))).toBe(false);
  // A worker drew it (an image job), and the image is delivered from the bucket.
  expect(workers.map((w) => w.output().split('job done').length).reduce((x, y) => x + y, 0)).toBeGreaterThan(before);
  expect(workers.some((w) => /job done.*"kind":"image"/.test(w.output()))).toBe(true);
  const img = await fetch(poster);
  expect(img.status).toBe(200);
  const bytes = new Uint8Array(await img.arrayBuffer());
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  // A time past the duration is refused before any job.
  const bad = await fetch(`${control!.url}/v1/assets/${firstAsset}/poster`, { method: 'PUT', headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ time_s: 999 }) });
  expect(bad.status).toBe(422);
}, 120_000);

test.skipIf(!NATS)('speech recognition runs on a worker with the language (lang:en); the control node stores the cues', async () => {
  // Five seconds of Debian's recorded speech (pocketsphinx-testdata) under a small picture: seconds of recognition.
  const clip = join(dir, 'speech.mp4');
  await ff(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10', '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0880.wav`,
    '-t', '5', '-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ar', '44100', clip]);
  const id = await uploadFile(control!.url, ownerKey, clip, 'speech');
  const r = await fetch(`${control!.url}/v1/assets/${id}/subtitles`, { method: 'POST', headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ language: 'en', kind: 'captions' }) });
  expect(r.status).toBe(201);
  const created = await r.json() as { id: string; job_id: string };
  const t = await waitFor('recognised', async () => {
    const x = await j(await api(`/v1/assets/${id}/subtitles/${created.id}`));
    if (x.status === 'failed') throw Object.assign(new Error(`recognition failed: ${x.error}`), { fatal: true });
    return x.status === 'ready' ? x : null;
  }, 300_000, 250);
  expect(t.engine).toBe('pocketsphinx');
  expect(t.cue_count).toBeGreaterThan(0);
  const d = db();
  try {
    const row = d.query<{ worker: string | null; status: string; subject: string }, [string]>('SELECT worker, status, subject FROM cluster_jobs WHERE job_id = ?').get(created.job_id);
    expect(row?.status).toBe('done');
    expect(row?.subject).toBe('vs.jobs.subtitle.lang-en');
    expect(workers.map((w) => w.name)).toContain(row!.worker!);
  } finally { d.close(); }
  expect(workers.some((w) => /"msg":"job done".*"kind":"subtitle"/.test(w.output()))).toBe(true);
  expect(workers.every((w) => /capabilities [^\n]*lang:en/.test(w.output()))).toBe(true);
}, 400_000);

test.skipIf(!NATS)('a frame-exact clip is cut on a worker: pieces through the bucket, the clip final and playable', async () => {
  const api2 = (m: string, p: string, body?: unknown) => fetch(control!.url + p, { method: m, headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const ch = await (await api2('POST', '/v1/channels', { name: 'Cluster clips', recording: { retention_hours: 24 } })).json() as { id: string };
  await api2('POST', `/v1/channels/${ch.id}/start`);
  const ing = await (await api2('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const pusher = push(ing.srt.primary.url, { seconds: 6 });
  type Seg = { start_ms: number; duration_ms: number };
  const segs = () => { const d = db(); try { return d.query<Seg, [string]>("SELECT start_ms, duration_ms FROM live_segments WHERE channel_id = ? AND rendition = 'src' ORDER BY start_ms").all(ch.id); } finally { d.close(); } };
  await waitFor('recorded segments', () => segs().length >= 2, 60_000, 200);
  await pusher.exited;
  await waitFor('recording settled', () => segs().length >= 3, 30_000, 200).catch(() => null);
  const rec = segs();
  const first = rec[0]!.start_ms, last = rec[rec.length - 1]!.start_ms + rec[rec.length - 1]!.duration_ms;
  const from = first + 1300, to = last - 1100;
  const fr = await (await api2('POST', '/v1/clips', { channel_id: ch.id, start_at: new Date(from).toISOString(), end_at: new Date(to).toISOString(), precision: 'frame' })).json() as { id: string; status: string };
  expect(fr.status).toBe('finalizing');
  const done = await waitFor('frame clip final', async () => { const c = await j(await api(`/v1/clips/${fr.id}`)); if (c.error) throw Object.assign(new Error(`clip failed: ${c.error}`), { fatal: true }); return c.status === 'final' ? c : null; }, 180_000, 250);
  const d = db();
  try {
    const row = d.query<{ worker: string | null; status: string; subject: string }, [string]>(
      `SELECT c.worker, c.status, c.subject FROM cluster_jobs c JOIN jobs j ON j.id = c.job_id WHERE j.subject_id = ? AND j.type = 'clip.finalize'`).get(fr.id);
    expect(row?.status).toBe('done');
    expect(row?.subject).toBe('vs.jobs.clip.any');
    expect(workers.map((w) => w.name)).toContain(row!.worker!);
  } finally { d.close(); }
  expect(workers.some((w) => /"msg":"job done".*"kind":"clip"/.test(w.output()))).toBe(true);
  // The transfer prefix goes once the clip is final. The clip's own files are in the bucket under its directory's
  // path (issue 49), none on the control node's disk; it plays from there, exact duration.
  await waitFor('transfer prefix removed', async () => (await store.list('cluster/')).every((e) => e.key.startsWith('cluster/export/')), 30_000, 100);
  const tenant = (() => { const d = db(); try { return d.query<{ tenant_id: string }, [string]>('SELECT tenant_id FROM clips WHERE id = ?').get(fr.id)!.tenant_id; } finally { d.close(); } })();
  const clipPrefix = `media/${tenant}/clips/${fr.id}/`;
  const inBucket = new Map((await store.list(clipPrefix)).map((e) => [e.key.slice(clipPrefix.length), e.size]));
  expect(inBucket.has('master.m3u8')).toBe(true);
  const clipsDir = join(data, 'media', tenant, 'clips');
  expect(existsSync(clipsDir) ? readdirSync(clipsDir).filter((n) => n.startsWith(fr.id)) : []).toEqual([]);
  const tok = await (await api2('POST', '/v1/playback/tokens', { clip: fr.id })).json() as { src: string };
  const master = await fetch(tok.src);
  expect(master.status).toBe(200);
  const variantUrl = new URL((await master.text()).split('\n').find((l) => l && !l.startsWith('#'))!, tok.src);
  const variant = await (await fetch(variantUrl)).text();
  const total = [...variant.matchAll(/#EXTINF:([\d.]+),/g)].reduce((a, m) => a + Number(m[1]) * 1000, 0);
  const recordedInside = rec.reduce((a, x) => a + Math.max(0, Math.min(to, x.start_ms + x.duration_ms) - Math.max(from, x.start_ms)), 0);
  expect(Math.abs(total - recordedInside)).toBeLessThan(50);
  // Every init and segment the variant names answers 200 with the bytes the bucket holds for it.
  const rendition = variantUrl.pathname.split('/').slice(-2)[0]!;
  const named = [...variant.matchAll(/URI="([^"]+)"/g)].map((m) => m[1]!).concat(variant.split('\n').filter((x) => x && !x.startsWith('#')));
  expect(named.some((l) => /\.mp4\?/.test(l)) && named.some((l) => /\.m4s\?/.test(l))).toBe(true);
  for (const l of named) {
    const r = await fetch(new URL(l, variantUrl));
    const body = await r.arrayBuffer();
    expect({ file: l, status: r.status, bytes: body.byteLength }).toEqual({ file: l, status: 200, bytes: inBucket.get(`${rendition}/${l.split('?')[0]}`)! });
  }
  const seg0 = named.find((l) => /\.m4s\?/.test(l))!;
  const part = await fetch(new URL(seg0, variantUrl), { headers: { range: 'bytes=100-199' } });
  expect({ status: part.status, range: part.headers.get('content-range'), bytes: (await part.arrayBuffer()).byteLength })
    .toEqual({ status: 206, range: `bytes 100-199/${inBucket.get(`${rendition}/${seg0.split('?')[0]}`)}`, bytes: 100 });
  expect(done.status).toBe('final');
  // Deleting the clip removes its objects.
  expect((await api2('DELETE', `/v1/clips/${fr.id}`)).status).toBe(204);
  expect(await store.list(clipPrefix)).toEqual([]);
  await api2('POST', `/v1/channels/${ch.id}/stop`);
}, 300_000);

test.skipIf(!NATS)("cancel stops the worker's encode: ffmpeg killed, scratch and output cleared, acknowledged", async () => {
  const clip = join(dir, 'cancel.mp4');
  await makeClip(clip, 12, '640x360');
  const id = await uploadFile(control!.url, ownerKey, clip, 'cancel');
  const row = await waitFor('encode running on a worker', () => { const r = clusterRow(id); return r && r.status === 'running' && (r.progress ?? 0) > 3 ? r : null; }, 120_000, 100);
  const w = workers.find((x) => x.name === row!.worker)!;
  const ffmpegOf = (pid: number) => descendants(pid).filter((p) => /ffmpeg/.test(readCmd(p)));
  expect(ffmpegOf(w.proc.pid).length).toBeGreaterThan(0);
  const c = await fetch(`${control!.url}/v1/jobs/${row!.job_id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${ownerKey}` } });
  expect(c.status).toBeLessThan(300);
  await waitFor('worker cancelled the job', () => w.output().includes('job cancelled'), 20_000, 100);
  await waitFor('its ffmpeg gone', () => ffmpegOf(w.proc.pid).length === 0, 10_000, 100);
  const scratch = join(dir, w.name, 'work');
  await waitFor('scratch empty', () => (existsSync(scratch) ? readdirSync(scratch) : []).length === 0, 10_000, 100);
  const tenant = (await j(await api('/v1/me'))).current_tenant.id as string;
  const keys = (await store.list(`media/${tenant}/assets/${id}/`)).map((e) => e.key.slice(`media/${tenant}/assets/${id}/`.length));
  expect(keys.filter((k) => k.startsWith('v'))).toEqual([]);
  await waitFor('job cancelled', async () => (await j(await api(`/v1/jobs/${row!.job_id}`))).status === 'cancelled', 20_000, 200);
  const end = clusterRow(id)!;
  expect(end.status).toBe('failed');
  expect(w.output()).not.toContain(`"job":"${row!.job_id}","kind":"transcode","ms"`);
  // The worker takes the next job: it did not stop with the cancel.
  expect(w.proc.exitCode).toBeNull();
}, 300_000);

test.skipIf(!NATS)('an article draft is made on a worker (vs.jobs.article.any) and stored by the control node as the local engine makes it', async () => {
  const api2 = (m: string, p: string, body?: unknown) => fetch(control!.url + p, { method: m, headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  // The least an article needs: a programme that has ended and a ready subtitle track over it (an uploaded WebVTT file).
  const ch = await (await api2('POST', '/v1/channels', { name: 'Cluster articles', timezone: 'UTC' })).json() as { id: string };
  const start = Date.now() - 20 * 60_000, end = start + 80_000;
  const pr = await api2('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Evening News', description: 'The day\'s news', start_at: new Date(start).toISOString(), end_at: new Date(end).toISOString() });
  expect(pr.status).toBeLessThan(300);
  const programme = (await pr.json() as { id: string }).id;
  const cues = newsCues();
  const ts = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  const vtt = `WEBVTT\n\n${cues.map((c) => `${ts(c.startMs)} --> ${ts(c.endMs)}\n${c.text}\n`).join('\n')}`;
  expect((await api2('POST', `/v1/channels/${ch.id}/subtitles`, { language: 'en', programme_id: programme, content: vtt })).status).toBe(201);
  const asked = await api2('POST', `/v1/programmes/${programme}/article`, {});
  expect(asked.status).toBe(202);
  const jobId = (await asked.json() as { job_id: string }).job_id;
  const art = (await waitFor('the draft', async () => {
    const g = await j(await api(`/v1/programmes/${programme}/article`));
    if (g.job.status === 'failed') throw Object.assign(new Error(`article job failed: ${g.job.error}`), { fatal: true });
    return g.job.status === 'succeeded' && g.artifact ? g.artifact : null;
  }, 60_000, 100))!;
  const d = db();
  let worker = '';
  try {
    const row = d.query<{ worker: string | null; status: string; subject: string }, [string]>('SELECT worker, status, subject FROM cluster_jobs WHERE job_id = ?').get(jobId);
    expect(row?.status).toBe('done');
    expect(row?.subject).toBe('vs.jobs.article.any');
    expect(workers.map((w) => w.name)).toContain(row!.worker!);
    worker = row!.worker!;
  } finally { d.close(); }
  // The worker logs `job done` after its result is published: the control node may have stored the draft first.
  const doneLine = new RegExp(`"msg":"job done".*"job":"${jobId}","kind":"article"`);
  await waitFor('the worker logged job done', () => doneLine.test(workers.find((w) => w.name === worker)!.output()), 10_000, 50);
  expect((await j(await api(`/v1/jobs/${jobId}`))).result).toMatchObject({ worker, engine: 'extractive', artifact_id: art.id, cues: cues.length });
  // The same draft the extractive engine makes in this process from the same transcript; stored as the local job stores it.
  const local = await extractiveEngine().draft({ title: 'Evening News', description: 'The day\'s news', language: 'en', durationMs: end - start, cues: cues.map((c, i) => ({ id: i + 1, ...c })) });
  expect(art.body).toEqual(local.body);
  expect(art.warnings).toEqual(local.warnings);
  expect([art.engine, art.model, art.language, art.status, art.source.kind]).toEqual(['extractive', null, 'en', 'draft', 'channel_track']);
}, 120_000);

test.skipIf(!NATS)('worker tokens: a revoked token cannot join', async () => {
  const t = JSON.parse(await cli(['admin', 'worker-token', 'create', '--name', 'w9', '--json', '--data', data])) as { token: string; id: string };
  expect((await fetch(`${control!.url}/cluster/join`, { headers: { authorization: `Bearer ${t.token}` } })).status).toBe(200);
  expect(JSON.parse(await cli(['admin', 'worker-token', 'revoke', 'w9', '--json', '--data', data])).revoked).toBe(1);
  expect((await fetch(`${control!.url}/cluster/join`, { headers: { authorization: `Bearer ${t.token}` } })).status).toBe(401);
  expect((await fetch(`${control!.url}/cluster/join`)).status).toBe(401);
  const list = JSON.parse(await cli(['admin', 'worker-token', 'list', '--json', '--data', data])) as { name: string; revoked_at: number | null }[];
  expect(list.find((x) => x.name === 'w9')?.revoked_at).toBeGreaterThan(0);
});

test.skipIf(!NATS)('an export batch is sent by a worker (vs.jobs.export.any): signed as on one box, delivered in the control node\'s log, not sent again after a control restart', async () => {
  // Before: the control node sent every batch itself (no cluster_jobs record, no worker job), and a batch in flight
  // when it was killed was sent again after its restart.
  const api2 = (m: string, p: string, body?: unknown) => fetch(control!.url + p, { method: m, headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  let secret = '';
  const got: { batch: string; verified: boolean; policies: string[] }[] = [];
  // Holds the next request until released (set for the restart case below).
  let gate: { held: boolean; wait: Promise<void>; release(): void } | null = null;
  const rx = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const body = new Uint8Array(await req.arrayBuffer());
      const lines = new TextDecoder().decode(body).trim().split('\n').map((l) => JSON.parse(l) as { schema: string; data: { policy: string } });
      got.push({ batch: req.headers.get('x-vs-batch') ?? '', verified: verifySignature(secret, req.headers.get('x-vs-timestamp'), req.headers.get('x-vs-signature'), body, Date.now()) === null, policies: lines.map((l) => l.data.policy) });
      const g = gate;
      if (g && !g.held) { g.held = true; await g.wait; }
      return new Response(null, { status: 204 });
    },
  });
  try {
    const d = await (await api2('POST', '/v1/event-destinations', { name: 'cluster', kind: 'https', https: { url: `http://127.0.0.1:${rx.port}/in` }, events: { platform: ['policy.changed'] }, batch: { max_events: 3, max_age_s: 0.2 } })).json() as { id: string; secret: string };
    secret = d.secret;
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await (await api2('POST', '/v1/playback/policies', { name: `exported ${i}` })).json() as { id: string }).id);
    await waitFor('the events received', () => made.every((id) => got.some((g) => g.policies.includes(id))), 60_000, 100);
    expect(got.every((g) => g.verified)).toBe(true);
    expect([...new Set(got.flatMap((g) => g.policies))]).toEqual(made);
    const batches = [...new Set(got.map((g) => g.batch))];
    // The control node applied each outcome: the batches delivered in its log, with the events counted.
    const log = (await waitFor('batches delivered', async () => {
      const l = (await j(await api(`/v1/event-destinations/${d.id}/deliveries`))).items as { id: string; status: string; events: number; attempts: number }[];
      return batches.every((b) => l.some((x) => x.id === b && x.status === 'delivered')) ? l : null;
    }, 30_000, 100))!;
    expect(log.filter((x) => batches.includes(x.id)).reduce((n, x) => n + x.events, 0)).toBe(3);
    // Each batch went through a worker: an export job per attempt, ended by a worker of this cluster.
    const dbc = db();
    try {
      const rows = dbc.query<{ job_id: string; worker: string | null; status: string; subject: string }, []>(`SELECT job_id, worker, status, subject FROM cluster_jobs WHERE job_id LIKE 'export-%'`).all();
      for (const b of batches) {
        const row = rows.find((r) => r.job_id.startsWith(`export-${b}-`));
        expect(row?.status).toBe('done');
        expect(row?.subject).toBe('vs.jobs.export.any');
        expect(workers.map((w) => w.name)).toContain(row!.worker!);
      }
    } finally { dbc.close(); }
    expect(workers.some((w) => /"msg":"job done".*"kind":"export"/.test(w.output()))).toBe(true);
    // The batch bytes handed to the worker are gone from the store once the outcome is in.
    await waitFor('transfer prefix empty', async () => (await store.list('cluster/export/')).length === 0, 10_000, 100);

    // The control node killed while a worker sends a batch: the worker's outcome waits in the results stream, and the
    // restarted control node applies it instead of sending the batch again.
    let release = () => {};
    gate = { held: false, wait: new Promise<void>((r) => { release = r; }), release: () => release() };
    const late = (await (await api2('POST', '/v1/playback/policies', { name: 'exported late' })).json() as { id: string }).id;
    await waitFor('a batch held by the receiver', () => gate!.held, 30_000, 50);
    const held = got[got.length - 1]!.batch;
    control!.kill('SIGKILL');
    await control!.proc.exited;
    gate.release();
    control = await startControl(controlPort);
    await waitFor('the held batch delivered after the restart', async () => {
      const l = (await j(await api(`/v1/event-destinations/${d.id}/deliveries`))).items as { id: string; status: string }[];
      return l.some((x) => x.id === held && x.status === 'delivered');
    }, 60_000, 100);
    expect(got.flatMap((g) => g.policies)).toContain(late);
    const ids = got.map((g) => g.batch);
    expect(ids.filter((b) => b === held).length).toBe(1);
    expect(new Set(ids).size).toBe(ids.length);
    await waitFor('transfer prefix empty again', async () => (await store.list('cluster/export/')).length === 0, 10_000, 100);
  } finally { gate?.release(); rx.stop(true); }
}, 120_000);

test.if(!NATS)('cluster tests skipped: nats-server is not installed (apt-get install nats-server)', () => { mkdirSync(dir, { recursive: true }); });
