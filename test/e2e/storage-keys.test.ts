/**
 * Storage keys (issue 47): Debian's AWS CLI puts files into the tenant's ingest area with a storage key (a single
 * PutObject and a multipart upload), the file registers as an asset and encodes; the wrong prefix, a bad signature,
 * a revoked key and a tampered payload are refused.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from 'bun';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeClip, settled } from './transcode-helpers';

let s: TestServer;
const dir = mkdtempSync(join(tmpdir(), 'vs-storage-keys-'));
const AWS = '/usr/bin/aws';

beforeAll(async () => {
  s = await startTestServer();
  // Path-style addressing: the bucket goes in the path after the endpoint's /s3.
  writeFileSync(join(dir, 'aws-config'), '[default]\nregion = us-east-1\ns3 =\n  addressing_style = path\n  multipart_threshold = 8MB\n  multipart_chunksize = 5MB\n');
});
afterAll(async () => { await s?.stop(); rmSync(dir, { recursive: true, force: true }); });

/** Runs the AWS CLI (asynchronously: the appliance answers it from this process). */
async function aws(key: { access_key_id: string; secret_access_key: string }, args: string[]) {
  const r = Bun.spawn([AWS, '--endpoint-url', `${s.url}/s3`, ...args], {
    stdout: 'pipe', stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: dir, AWS_CONFIG_FILE: join(dir, 'aws-config'), AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'),
      AWS_ACCESS_KEY_ID: key.access_key_id, AWS_SECRET_ACCESS_KEY: key.secret_access_key, AWS_EC2_METADATA_DISABLED: 'true', AWS_PAGER: '' },
  });
  const [out, err] = await Promise.all([new Response(r.stdout).text(), new Response(r.stderr).text()]);
  return { code: await r.exited, out: out + err };
}

test('the AWS CLI puts files with a storage key; the file registers; wrong prefix, bad signature, revoked key refused', async () => {
  const created = await s.api('POST', '/v1/storage-keys', { prefix: 'news', name: 'newsroom NAS' });
  expect(created.status).toBe(201);
  const key = await created.json() as { id: string; access_key_id: string; secret_access_key: string; bucket: string; writes_under: string };
  expect(key.writes_under).toBe('ingest/news/in/');
  const listed = await (await s.api('GET', '/v1/storage-keys')).json() as { items: Record<string, unknown>[] };
  expect(JSON.stringify(listed)).not.toContain(key.secret_access_key);

  // A real clip with a single PutObject, then registered and encoded.
  const clip = await makeClip(join(dir, 'clip one.mp4'), { seconds: 2 });
  const put = await aws(key, ['s3', 'cp', clip, `s3://${key.bucket}/ingest/news/in/clip one.mp4`]);
  expect(put.out).toContain('upload:');
  expect(put.code).toBe(0);
  const a = await s.api('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/news/in/clip one.mp4' }, title: 'from the NAS' });
  expect(a.status).toBe(201);
  const asset = await a.json() as { id: string };
  expect((await settled(s.ctx, asset.id)).status).toBe('ready');

  // A 12 MB file goes multipart (8 MB threshold, 5 MB parts) and arrives byte for byte.
  const big = join(dir, 'big.bin');
  writeFileSync(big, new Uint8Array(12 * 1024 * 1024).map((_, i) => (i * 31) & 255));
  const mp = await aws(key, ['s3', 'cp', big, `s3://${key.bucket}/ingest/news/in/big.bin`]);
  expect(mp.code).toBe(0);
  const tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
  expect(Buffer.compare(readFileSync(join(s.dataDir, 'media', tenant, 'ingest', 'news', 'in', 'big.bin')), readFileSync(big))).toBe(0);
  const ls = await aws(key, ['s3', 'ls', `s3://${key.bucket}/ingest/news/in/`]);
  expect(ls.code).toBe(0);
  expect(ls.out).toContain('big.bin');
  expect(ls.out).toContain('clip one.mp4');

  // Refusals: another prefix, another tenant's bucket, a wrong secret, a tampered body, a revoked key.
  const other = await aws(key, ['s3', 'cp', clip, `s3://${key.bucket}/ingest/sport/in/x.mp4`]);
  expect(other.code).not.toBe(0);
  expect(other.out).toContain('AccessDenied');
  const outside = await aws(key, ['s3', 'cp', clip, `s3://${key.bucket}/media/x.mp4`]);
  expect(outside.code).not.toBe(0);
  const wrong = await aws({ ...key, secret_access_key: 'x'.repeat(40) }, ['s3', 'cp', clip, `s3://${key.bucket}/ingest/news/in/y.mp4`]);
  expect(wrong.code).not.toBe(0);
  expect(wrong.out).toContain('SignatureDoesNotMatch');
  // Bun's S3 client signs the payload hash; a body changed in flight no longer matches it.
  const client = new S3Client({ endpoint: `${s.url}/s3`, bucket: key.bucket, accessKeyId: key.access_key_id, secretAccessKey: key.secret_access_key, region: 'us-east-1' });
  await client.write('ingest/news/in/bun.txt', 'hello');
  expect(readFileSync(join(s.dataDir, 'media', tenant, 'ingest', 'news', 'in', 'bun.txt'), 'utf8')).toBe('hello');
  const signed = client.presign('ingest/news/in/presigned.txt', { method: 'PUT' });
  expect((await fetch(signed, { method: 'PUT', body: 'x' })).status).toBe(403); // query-string signatures are not accepted
  expect((await s.api('DELETE', `/v1/storage-keys/${key.id}`)).status).toBe(204);
  const revoked = await aws(key, ['s3', 'cp', clip, `s3://${key.bucket}/ingest/news/in/z.mp4`]);
  expect(revoked.code).not.toBe(0);
  expect(revoked.out).toContain('InvalidAccessKeyId');
  // Management input: a hostile prefix 422, another tenant's key id 404, scope.
  expect((await s.api('POST', '/v1/storage-keys', { prefix: '../x' })).status).toBe(422);
  expect((await s.api('POST', '/v1/storage-keys', { prefix: 'ok', extra: 1 })).status).toBe(400);
  expect((await s.api('DELETE', `/v1/storage-keys/${crypto.randomUUID()}`)).status).toBe(404);
  const viewer = await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string };
  expect((await s.api('GET', '/v1/storage-keys', undefined, { key: viewer.key })).status).toBe(403);
}, 180_000);
