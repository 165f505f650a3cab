import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import S3rver from 's3rver';
import { waitFor } from '../helpers/server';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { killPushers, liveEnv, push } from './live-helpers';
import { cli, startS3 } from './cluster-helpers';
import { playThrough } from './catchup-helpers';
import { S3MediaStore } from '../../src/kernel/media-store';
import { SegmentIndex } from '../../src/live/segment-index';
import { retentionPass } from '../../src/live/retention';
import { HourMover } from '../../src/live/hour-mover';
import { createLogger } from '../../src/kernel/log';
import type { LiveChannel } from '../../src/live/model';
import { reconcileChannel } from '../../src/live/reconcile';
import { ChannelStore } from '../../src/features/channels/store';

// Recording hours in an S3 bucket (s3rver): a closed hour moves (copy, verify, then delete local; a kill -9 half-way
// is resumed), catch-up plays it back through the store, the index is rebuilt from the bucket listing (command and
// start-up), retention deletes it in the bucket. VS_REC_IDLE_CLOSE_MS closes an hour a few seconds after its last segment.
const dir = mkdtempSync(join(tmpdir(), 'vs-rec-bucket-'));
const data = join(dir, 'data');
const BUCKET = 'rec-bucket', KEY = 'S3RVER', SECRET = 'S3RVER';
let srv: ServeProc | null = null;
let s3: Awaited<ReturnType<typeof startS3>> | null = null;
afterAll(async () => { srv?.kill(); await killPushers(); await s3?.stop(); rmSync(dir, { recursive: true, force: true }); });

type Row = Record<string, unknown>;
type Seg = { start_ms: number; bytes: number; path: string; init_ms: number };

test('closed recording hours move to the bucket (kill -9 mid-move resumes), play from it, reindex from its listing, retention deletes them there', async () => {
  s3 = await startS3(dir, BUCKET);
  const storeEnv = { VS_MEDIA_STORE: `s3://${BUCKET}/box`, VS_MEDIA_STORE_ENDPOINT: s3.endpoint, VS_MEDIA_STORE_REGION: 'us-east-1', VS_MEDIA_STORE_ACCESS_KEY_ID: KEY, VS_MEDIA_STORE_SECRET_ACCESS_KEY: SECRET };
  const env = { ...(await liveEnv()), ...storeEnv, VS_DATA_DIR: data, VS_REC_IDLE_CLOSE_MS: '3000' };
  const store = new S3MediaStore({ bucket: BUCKET, prefix: 'box/', endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: KEY, secretAccessKey: SECRET });
  const serve = (extra: Record<string, string> = {}) => spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1'], { ...env, ...extra });

  // 1. Record a few seconds; each copy of the move then waits 1.2 s, so the server can be killed half-way.
  srv = await serve({ VS_REC_MOVE_STEP_MS: '1200' });
  const key = srv.key!;
  const api = (m: string, p: string, b?: unknown) => fetch(srv!.url + p, { method: m, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
  const ch = await (await api('POST', '/v1/channels', { name: 'Bucket rec', recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
  await api('POST', `/v1/channels/${ch.id}/start`);
  const ing = await (await api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const db = new Database(join(data, 'db', 'meta.sqlite'));
  db.exec('PRAGMA busy_timeout = 15000');
  const segs = () => db.query<Seg, [string]>("SELECT start_ms, bytes, path, init_ms FROM live_segments WHERE channel_id = ? AND rendition = 'src' ORDER BY start_ms").all(ch.id);
  const moves = () => db.query<{ hour_ms: number; state: string }, [string]>('SELECT hour_ms, state FROM live_hour_moves WHERE channel_id = ? ORDER BY hour_ms').all(ch.id);
  const pusher = push(ing.srt.primary.url, { seconds: 6 });
  await waitFor('3 segments recorded', () => segs().length >= 3, 40_000);
  await pusher.exited;
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(700); return segs().length === n; }, 20_000);
  const rec = segs();
  const hourDirOf = (s: Seg) => join(data, 'rec', s.path.slice(0, s.path.lastIndexOf('/')));
  const localSegs = () => [...new Set(rec.map(hourDirOf))].flatMap((d) => (existsSync(d) ? readdirSync(d).filter((n) => n.endsWith('.m4s')) : []));
  const bucketSegs = async () => (await store.list(`rec/${rec[0].path.split('/').slice(0, 2).join('/')}/`)).filter((e) => e.key.endsWith('.m4s'));

  // 2. kill -9 once the move has copied some but not all: nothing is lost (every local file still there), state `moving`.
  await waitFor('a move half-way', async () => moves().some((m) => m.state === 'moving') && (await bucketSegs()).length >= 1, 40_000, 100);
  srv.kill('SIGKILL');
  await srv.proc.exited;
  const halfway = (await bucketSegs()).length;
  expect(halfway).toBeLessThan(rec.length);
  // (A push across an hour boundary has two hours: the earlier one may have finished moving.)
  const moving = new Set(moves().filter((m) => m.state === 'moving').map((m) => m.hour_ms));
  expect(moving.size).toBeGreaterThan(0);
  const inMoving = rec.filter((s) => moving.has(Math.floor(s.start_ms / 3_600_000) * 3_600_000));
  expect(inMoving.every((s) => existsSync(join(data, 'rec', s.path)))).toBe(true);

  // 3. Restart: the move resumes; the closed hour's files are then only in the bucket, sizes as indexed.
  srv = await serve();
  await waitFor('move finished', async () => moves().length > 0 && moves().every((m) => m.state === 'moved') && localSegs().length === 0, 40_000, 100);
  const listed = await bucketSegs();
  expect(listed.map((e) => e.key).sort()).toEqual(rec.map((s) => `rec/${s.path}`).sort());
  expect(Object.fromEntries(listed.map((e) => [e.key.slice(4), e.size]))).toEqual(Object.fromEntries(rec.map((s) => [s.path, s.bytes])));
  expect((await store.list(`rec/${rec[0].path.split('/').slice(0, 3).join('/')}/init/`)).length).toBeGreaterThan(0);

  // 4. The index rows of the bucket hour, deleted, come back the same from `viewstream recordings reindex`.
  const snapshot = () => ({
    hours: db.query<Row, [string]>('SELECT * FROM live_hours WHERE channel_id = ? ORDER BY rendition, hour_ms').all(ch.id),
    segments: db.query<Row, [string]>('SELECT * FROM live_segments WHERE channel_id = ? ORDER BY rendition, start_ms').all(ch.id),
  });
  const before = snapshot();
  expect(before.segments.length).toBe(rec.length);
  const wipe = () => { for (const t of ['live_segments', 'live_hour_lists', 'live_hours']) db.query(`DELETE FROM ${t} WHERE channel_id = ?`).run(ch.id); };
  wipe();
  expect(snapshot().segments.length).toBe(0);
  const out = JSON.parse(await cli(['recordings', 'reindex', '--channel', ch.id, '--json', '--data', data], storeEnv)) as { channels: { hours: number; segments: number }[] };
  expect(out.channels[0]!.segments).toBe(rec.length);
  expect(snapshot()).toEqual(before);

  // 5. Rows missing at start-up are rebuilt from the listing too; catch-up then plays the bucket hour (ffmpeg decodes a segment).
  srv.kill('SIGKILL');
  await srv.proc.exited;
  wipe();
  srv = await serve();
  await waitFor('index rebuilt at start', () => snapshot().segments.length === rec.length, 30_000, 100);
  expect(snapshot()).toEqual(before);
  const last = rec[rec.length - 1]!;
  const src = `${srv.url}/m/catchup/${ch.slug}/${rec[0].start_ms}/${last.start_ms + 1000}/master.m3u8?c=default`;
  const play = await playThrough(src);
  expect(play.codes.every((c) => c === 200)).toBe(true);
  expect(play.segments).toBeGreaterThanOrEqual(rec.length - 1);
  const base = src.replace('master.m3u8?c=default', 'src/');
  const init = new Uint8Array(await (await fetch(`${base}init/${rec[1].init_ms}.mp4?c=default`)).arrayBuffer());
  const seg = new Uint8Array(await (await fetch(`${base}seg/${rec[1].start_ms}.m4s?c=default`)).arrayBuffer());
  expect(seg.byteLength).toBe(rec[1].bytes);
  const joined = join(dir, 'joined.mp4');
  await Bun.write(joined, Buffer.concat([init, seg]));
  const probe = Bun.spawn(['ffprobe', '-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', joined], { stdout: 'pipe', stderr: 'pipe' });
  const [frames, code] = await Promise.all([new Response(probe.stdout).text(), probe.exited]);
  expect(code).toBe(0);
  expect(Number(frames.trim())).toBeGreaterThan(10);
  // A frame-precision clip cut from the bucket hour (its pieces read through the store) turns final.
  const api2 = (m: string, p: string, b?: unknown) => fetch(srv!.url + p, { method: m, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
  const clip = await (await api2('POST', '/v1/clips', { channel_id: ch.id, start_at: new Date(rec[0].start_ms + 500).toISOString(), end_at: new Date(last.start_ms + 500).toISOString(), precision: 'frame' })).json() as { id: string; status: string };
  expect(clip.status).toBe('finalizing');
  const cut = await waitFor('frame clip cut', async () => { const c = await (await api2('GET', `/v1/clips/${clip.id}`)).json() as { status: string }; return c.status !== 'finalizing' && c; }, 60_000, 200) as { status: string };
  expect(cut.status).toBe('final');
  expect(localSegs().length).toBe(0); // read through the store, not brought back into the recording tree
  // Cut on the control node, its final files are in the bucket under the clip directory's path, none on disk.
  const tenant = rec[0].path.split('/')[0]!;
  const clipKeys = (await store.list(`media/${tenant}/clips/${clip.id}/`)).map((e) => e.key.slice(`media/${tenant}/clips/${clip.id}/`.length));
  expect(clipKeys).toContain('master.m3u8');
  expect(clipKeys).toContain('src/index.m3u8');
  expect(clipKeys.filter((k) => /^src\/\d+\.m4s$/.test(k)).length).toBeGreaterThan(0);
  expect(readdirSync(join(data, 'media', tenant, 'clips')).filter((n) => n.startsWith(clip.id))).toEqual([]);
  // Deleted while the bucket is down: 204, its objects recorded for removal; the next start removes them.
  const s3Port = Number(new URL(s3.endpoint).port), endpoint = s3.endpoint;
  await s3.stop();
  expect((await api2('DELETE', `/v1/clips/${clip.id}`)).status).toBe(204);
  expect(db.query('SELECT clip_id FROM clip_file_deletes').all()).toEqual([{ clip_id: clip.id }]);
  srv.kill('SIGKILL');
  await srv.proc.exited;
  const back = new S3rver({ port: s3Port, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  await back.run();
  s3 = { endpoint, stop: () => back.close() };
  expect(clipKeys.length).toBeGreaterThan(0);
  expect((await store.list(`media/${tenant}/clips/${clip.id}/`)).length).toBe(clipKeys.length); // still there
  srv = await serve();
  await waitFor('deleted clip objects removed at start', async () => (await store.list(`media/${tenant}/clips/${clip.id}/`)).length === 0 && db.query('SELECT 1 FROM clip_file_deletes').all().length === 0, 30_000, 100);
  srv.kill('SIGKILL');
  await srv.proc.exited;
  srv = null;

  // 6. A move cancelled while a copy is in flight leaves nothing behind: this hour's files as another channel's two
  // rendition-hours on disk, moved one copy every 0.5 s; the channel deleted once the first copy landed. (Before: the
  // second hour, listed before the delete, was moved anyway — its objects and a `moved` record stayed for good.)
  const index = new SegmentIndex(db, data);
  const other = { id: crypto.randomUUID(), tenant_id: tenant, segment_s: 2 };
  const srcPrefix = `rec/${tenant}/${ch.id}/src/`;
  for (const e of await store.list(srcPrefix)) {
    for (const r of ['r1', 'r2']) expect(await store.getFile(e.key, join(data, 'rec', tenant, other.id, r, e.key.slice(srcPrefix.length)))).toBe(true);
  }
  reconcileChannel(index, data, other);
  expect(index.store.hours(other.id, 'r2').length).toBe(index.store.hours(ch.id, 'src').length);
  const otherKeys = async () => (await store.list(`rec/${tenant}/${other.id}/`)).map((e) => e.key);
  const slow = new HourMover(index, store, { idleCloseMs: 0, stepMs: 500, now: Date.now, log: createLogger('error') });
  const cancelledMove = slow.pass([other]);
  await waitFor('first copy of the move', async () => (await otherKeys()).length > 0, 30_000, 50);
  new ChannelStore(db).delete(other.id);
  await cancelledMove;
  await slow.pass([]); // the sweep
  expect(await otherKeys()).toEqual([]);
  expect(db.query('SELECT state FROM live_hour_moves WHERE channel_id = ?').all(other.id)).toEqual([]);

  // 7. Retention past the hour: its index rows go, the record turns `deleting`, the sweep removes its objects.
  const chRow = db.query<LiveChannel, [string]>('SELECT * FROM channels WHERE id = ?').get(ch.id)!;
  expect(retentionPass(index, [chRow], Date.now() + 25 * 3_600_000, { lowDisk: () => false })).toBe(rec.length);
  expect(moves().every((m) => m.state === 'deleting')).toBe(true);
  const mover = new HourMover(index, store, { idleCloseMs: null, stepMs: 0, now: Date.now, log: createLogger('error') });
  expect((await mover.sweep()).deleted).toBe(rec.length);
  expect(await bucketSegs()).toEqual([]);
  expect(moves()).toEqual([]);
  db.close();
}, 240_000);
