import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { LocalMediaStore, S3MediaStore, type MediaStore } from '../../src/kernel/media-store';
import { mediaStoreConfig } from '../../src/kernel/media-store/config';
import { migrateMedia } from '../../src/kernel/media-store/migrate';
import { startSigV4Proxy } from './s3-sigv4';

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
