import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { LocalMediaStore, S3MediaStore, type MediaStore } from '../../src/kernel/media-store';
import { mediaStoreConfig } from '../../src/kernel/media-store/config';
import { migrateMedia } from '../../src/kernel/media-store/migrate';
import { startSigV4Proxy } from './s3-sigv4';
import { storedFiles } from '../../src/features/media-delivery/serve-stored';
import { storeSpool } from '../../src/features/media-delivery/store-spool';

// The same contract against local disk and a real S3-protocol server (s3rver) behind a SigV4-verifying proxy.
const KEY = 'S3RVER', SECRET = 'S3RVER', REGION = 'eu-west-1', BUCKET = 'media-store';
const dir = mkdtempSync(join(tmpdir(), 'vs-ms-'));
let s3: { run(): Promise<{ port: number }>; close(): Promise<void> };
let proxy: ReturnType<typeof startSigV4Proxy>;
const stores: Record<string, MediaStore> = {};

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3.run();
  proxy = startSigV4Proxy(`http://127.0.0.1:${port}`, KEY, SECRET, REGION);
  stores.local = new LocalMediaStore(join(dir, 'data'));
  stores.s3 = new S3MediaStore({ bucket: BUCKET, prefix: 'box1/', endpoint: proxy.url, region: REGION, accessKeyId: KEY, secretAccessKey: SECRET });
});
afterAll(async () => { proxy?.stop(); await s3?.close(); rmSync(dir, { recursive: true, force: true }); });

const text = async (s: ReadableStream<Uint8Array> | null) => (s ? await new Response(s).text() : null);

for (const kind of ['local', 's3'] as const) {
  describe(`${kind} media store`, () => {
    test('put, stat, whole and ranged reads, file round trip', async () => {
      const st = stores[kind]!;
      await st.put('media/t1/assets/a1/v1/index.m3u8', '#EXTM3U\n');
      const big = new Uint8Array(300_000).map((_, i) => (i * 7) & 255);
      const src = join(dir, `${kind}-src.bin`);
      writeFileSync(src, big);
      await st.putFile('media/t1/assets/a1/v1/720p/seg-1.m4s', src);
      expect((await st.stat('media/t1/assets/a1/v1/720p/seg-1.m4s'))?.size).toBe(big.length);
      expect(await st.stat('media/t1/assets/a1/v1/missing.m4s')).toBeNull();
      expect(await text(await st.read('media/t1/assets/a1/v1/index.m3u8'))).toBe('#EXTM3U\n');
      const part = new Uint8Array(await new Response(await st.read('media/t1/assets/a1/v1/720p/seg-1.m4s', { start: 1000, end: 1999 })).arrayBuffer());
      expect(part).toEqual(big.subarray(1000, 2000));
      expect(await st.read('media/t1/nothing')).toBeNull();
      const back = join(dir, `${kind}-back`, 'seg.m4s');
      expect(await st.getFile('media/t1/assets/a1/v1/720p/seg-1.m4s', back)).toBe(true);
      expect(new Uint8Array(readFileSync(back))).toEqual(big);
      expect(await st.getFile('media/t1/nothing', join(dir, 'x'))).toBe(false);
    });

    test('list by prefix, delete one, delete a prefix', async () => {
      const st = stores[kind]!;
      await st.put('media/t1/assets/a2/v1/a.txt', 'a');
      await st.put('media/t1/assets/a2/v1/sub/b.txt', 'bb');
      await st.put('media/t1/assets/a20/c.txt', 'c');
      expect(await st.list('media/t1/assets/a2/')).toEqual([{ key: 'media/t1/assets/a2/v1/a.txt', size: 1 }, { key: 'media/t1/assets/a2/v1/sub/b.txt', size: 2 }]);
      await st.delete('media/t1/assets/a2/v1/a.txt');
      await st.delete('media/t1/assets/a2/v1/a.txt');
      expect((await st.list('media/t1/assets/a2/')).map((e) => e.key)).toEqual(['media/t1/assets/a2/v1/sub/b.txt']);
      expect(await st.deletePrefix('media/t1/assets/a2/')).toBe(1);
      expect(await st.list('media/t1/assets/a2/')).toEqual([]);
      expect((await st.list('media/t1/assets/a20/')).length).toBe(1);
    });

    test('keys that escape are refused', async () => {
      const st = stores[kind]!;
      for (const k of ['../x', '/abs', 'a//b', 'a/./b', 'a\\b']) await expect(st.put(k, 'x')).rejects.toThrow('invalid media store key');
      await expect(st.deletePrefix('')).rejects.toThrow();
    });
  });
}

test('the s3 store signs every request and keeps its keys under its prefix', () => {
  expect(proxy.log.refused).toBe(0);
  expect(proxy.log.paths.some((p) => p.includes(`/${BUCKET}/box1/media/t1/assets/a1/v1/index.m3u8`))).toBe(true);
});

test('VS_MEDIA_STORE: local by default, s3://bucket/prefix with keys, bad values refused', () => {
  expect(mediaStoreConfig({}, null)).toEqual({ kind: 'local' });
  const c = mediaStoreConfig({ VS_MEDIA_STORE: 's3://media/box1/', VS_MEDIA_STORE_ENDPOINT: 'http://127.0.0.1:9000/', VS_MEDIA_STORE_ACCESS_KEY_ID: 'k', VS_MEDIA_STORE_SECRET_ACCESS_KEY: 's' }, null);
  expect(c).toEqual({ kind: 's3', bucket: 'media', prefix: 'box1/', endpoint: 'http://127.0.0.1:9000', region: null, accessKeyId: 'k', secretAccessKey: 's' });
  expect(() => mediaStoreConfig({ VS_MEDIA_STORE: 'ftp://x' }, null)).toThrow('VS_MEDIA_STORE');
  expect(() => mediaStoreConfig({ VS_MEDIA_STORE: 's3://media' }, null)).toThrow('ACCESS_KEY_ID');
  expect(mediaStoreConfig({ VS_MEDIA_STORE: 's3://media' }, { endpoint: null, region: 'r', accessKeyId: 'a', secretAccessKey: 'b' })).toMatchObject({ prefix: '', region: 'r', accessKeyId: 'a' });
});

test('migrate: the media of a box copied to the bucket with checksums verified; work files skipped; a second run copies nothing', async () => {
  const box = new LocalMediaStore(join(dir, 'box'));
  await box.put('media/t1/assets/a9/source.mp4', 'source bytes');
  await box.put('media/t1/assets/a9/v1/master.m3u8', '#EXTM3U\n');
  await box.put('media/t1/assets/a9/.work-j-1/x.m4s', 'partial');
  await box.put('media/t1/assets/a9/preview/p.m3u8', 'growing');
  const to = new S3MediaStore({ bucket: BUCKET, prefix: 'migrated/', endpoint: proxy.url, region: REGION, accessKeyId: KEY, secretAccessKey: SECRET });
  await to.put('media/t1/assets/a9/v1/master.m3u8', 'stale different bytes');
  const r = await migrateMedia(box, to);
  expect({ copied: r.copied, present: r.present, skipped: r.skipped, failed: r.failed }).toEqual({ copied: 2, present: 0, skipped: 2, failed: [] });
  expect(await text(await to.read('media/t1/assets/a9/v1/master.m3u8'))).toBe('#EXTM3U\n');
  expect((await to.list('media/')).map((e) => e.key)).toEqual(['media/t1/assets/a9/source.mp4', 'media/t1/assets/a9/v1/master.m3u8']);
  const again = await migrateMedia(box, to);
  expect({ copied: again.copied, present: again.present }).toEqual({ copied: 0, present: 2 });
});

test('delivery from the bucket: answers stream from a local copy with exact lengths; a large object is read by the range asked', async () => {
  // Counts what reaches the real S3 store (a pass-through, not a stand-in).
  const s3 = stores.s3!, calls: string[] = [];
  const counted: MediaStore = Object.assign(Object.create(s3) as MediaStore, {
    getFile: (k: string, p: string) => { calls.push(`getFile ${k}`); return s3.getFile(k, p); },
    read: (k: string, r?: { start: number; end: number }) => { calls.push(`read ${k}${r ? ` ${r.start}-${r.end}` : ''}`); return s3.read(k, r); },
  });
  const seg = new Uint8Array(2_000_000).map((_, i) => (i * 13) & 255), dl = new Uint8Array(3_000_000).map((_, i) => (i * 5) & 255);
  await s3.put('media/t1/assets/a5/v1/seg-1.m4s', seg);
  await s3.put('media/t1/assets/a5/v1/download.mp4', dl);
  const files = storedFiles(counted, { spool: { dir: join(dir, 'spool') }, spoolMaxObject: 2_500_000 });
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: async (req) => (await files.serve(req, new URL(req.url).pathname.slice(1), 'public, max-age=31536000, immutable')) ?? new Response(null, { status: 404 }) });
  try {
    const get = async (key: string, h: Record<string, string> = {}) => {
      const r = await fetch(`http://127.0.0.1:${server.port}/${key}`, { headers: h });
      return { status: r.status, length: r.headers.get('content-length'), te: r.headers.get('transfer-encoding'), range: r.headers.get('content-range'), body: new Uint8Array(await r.arrayBuffer()) };
    };
    const a = await get('media/t1/assets/a5/v1/seg-1.m4s');
    expect({ status: a.status, length: a.length, te: a.te }).toEqual({ status: 200, length: String(seg.length), te: null });
    expect(a.body).toEqual(seg);
    const b = await get('media/t1/assets/a5/v1/seg-1.m4s', { range: 'bytes=1000-1999' });
    expect({ status: b.status, length: b.length, range: b.range }).toEqual({ status: 206, length: '1000', range: `bytes 1000-1999/${seg.length}` });
    expect(b.body).toEqual(seg.subarray(1000, 2000));
    // A revalidation with another validator gets the object with its length (an edge caches it with one); a match, 304.
    const v = await get('media/t1/assets/a5/v1/seg-1.m4s', { 'if-none-match': '"stale"' });
    expect({ status: v.status, length: v.length, te: v.te }).toEqual({ status: 200, length: String(seg.length), te: null });
    const etag = (await fetch(`http://127.0.0.1:${server.port}/media/t1/assets/a5/v1/seg-1.m4s`, { method: 'HEAD' })).headers.get('etag')!;
    expect((await get('media/t1/assets/a5/v1/seg-1.m4s', { 'if-none-match': etag })).status).toBe(304);
    // One copy from the bucket for all these answers; the copy is on local disk, not in memory.
    expect(calls).toEqual(['getFile media/t1/assets/a5/v1/seg-1.m4s']);
    expect(files.spool.counts()).toEqual({ files: 1, bytes: seg.length, held: 0 });
    calls.length = 0;
    const c = await get('media/t1/assets/a5/v1/download.mp4', { range: 'bytes=100-299' });
    expect({ status: c.status, length: c.length, range: c.range }).toEqual({ status: 206, length: '200', range: `bytes 100-299/${dl.length}` });
    expect(c.body).toEqual(dl.subarray(100, 300));
    expect(calls).toEqual(['read media/t1/assets/a5/v1/download.mp4 100-299']);
    const h = await fetch(`http://127.0.0.1:${server.port}/media/t1/assets/a5/v1/download.mp4`, { method: 'HEAD' });
    expect(h.status).toBe(200);
    expect(calls.length).toBe(1); // HEAD: the stat alone, no bytes
    expect((await get('media/t1/assets/a5/v1/none.m4s')).status).toBe(404);
  } finally { server.stop(true); }
});

test('the spool: a held copy outlives the budget and the grace until released; a copy removed behind its back is fetched again', async () => {
  // Before: a copy fetched for a reader that opened it later (a clip cut between encodes) could be evicted past 1 GiB
  // in between, and a copy gone from disk was still handed out (the answer: 404).
  const s3 = stores.s3!, clock = { t: 1_000_000 };
  const bodies = { a: new Uint8Array(600).fill(1), b: new Uint8Array(600).fill(2), c: new Uint8Array(600).fill(3) };
  for (const [n, b] of Object.entries(bodies)) await s3.put(`media/t1/spool/${n}.m4s`, b);
  const st = async (n: string) => (await s3.stat(`media/t1/spool/${n}.m4s`))!;
  const spool = storeSpool(s3, { dir: join(dir, 'spool-hold'), maxBytes: 1000, graceMs: 10_000, now: () => clock.t });
  const held = (await spool.hold('media/t1/spool/a.m4s', await st('a')))!;
  clock.t += 60_000; // far past the grace: only the hold keeps it
  expect(await spool.file('media/t1/spool/b.m4s', await st('b'))).not.toBeNull(); // 1,200 bytes kept, over the 1,000 budget
  expect(spool.counts()).toEqual({ files: 2, bytes: 1200, held: 1 });
  expect(new Uint8Array(readFileSync(held.path))).toEqual(bodies.a);
  held.release();
  held.release(); // a second release changes nothing
  clock.t += 60_000;
  const c = (await spool.file('media/t1/spool/c.m4s', await st('c')))!;
  expect(existsSync(held.path)).toBe(false); // released and unused past the grace: evicted with b
  expect(spool.counts()).toEqual({ files: 1, bytes: 600, held: 0 });
  rmSync(c);
  const again = (await spool.file('media/t1/spool/c.m4s', await st('c')))!;
  expect(new Uint8Array(readFileSync(again))).toEqual(bodies.c);
  expect(spool.counts()).toEqual({ files: 1, bytes: 600, held: 0 });
});
