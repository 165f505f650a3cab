import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from 'bun';
import S3rver from 's3rver';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { JobQueue } from '../../src/jobs/queue';
import { assetJobHandlers } from '../../src/features/assets/jobs';
import { failAssetOfJob } from '../../src/features/assets/lifecycle';
import { bytes, sha256 } from './uploads-helpers';
import { startSigV4Proxy } from './s3-sigv4';

// A real S3-compatible server (s3rver, npm) behind a proxy that verifies every request's SigV4 signature.
const KEY = 'S3RVER', SECRET = 'S3RVER' /* s3rver's built-in account */, REGION = 'eu-west-1', BUCKET = 'media-in';
const j = (r: Response): Promise<any> => r.json();
const dir = mkdtempSync(join(tmpdir(), 'vs-s3-'));
let s3: { run(): Promise<{ port: number }>; close(): Promise<void> };
let proxy: ReturnType<typeof startSigV4Proxy>;
let s: TestServer;
let queue: JobQueue;
let tenantId = '';
const clip = bytes(3 * 1024 * 1024 + 17, 11);

beforeAll(async () => {
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3.run();
  proxy = startSigV4Proxy(`http://127.0.0.1:${port}`, KEY, SECRET, REGION);
  s = await startTestServer({ workers: false, env: { VS_S3_ENDPOINT: proxy.url, VS_S3_BUCKET: BUCKET, VS_S3_REGION: REGION, VS_S3_ACCESS_KEY_ID: KEY, VS_S3_SECRET_ACCESS_KEY: SECRET } });
  tenantId = (await j(await s.api('GET', '/v1/me'))).current_tenant.id;
  // The customer's drop: written straight into the bucket under the tenant's prefix.
  const direct = new S3Client({ endpoint: `http://127.0.0.1:${port}`, bucket: BUCKET, region: REGION, accessKeyId: KEY, secretAccessKey: SECRET });
  await direct.write(`${tenantId}/ingest/news/in/clip.mp4`, clip);
  await direct.write(`other-tenant/ingest/news/in/theirs.mp4`, 'not yours');
  await direct.write(`${tenantId}/ingest/news/out/a.mp4`, 'outside in/');
  queue = new JobQueue(s.ctx, { handlers: assetJobHandlers, pollMs: 50, onFinalFailure: failAssetOfJob });
  queue.start();
});
afterAll(async () => { await queue?.stop(); await s?.stop(); proxy?.stop(); await s3?.close(); rmSync(dir, { recursive: true, force: true }); });

const asset = (id: string) => s.ctx.db.query<{ status: string; error: string | null; source_path: string | null }, [string]>('SELECT status, error, source_path FROM assets WHERE id = ?').get(id)!;
const jobs = (id: string) => s.ctx.db.query<{ type: string; status: string }, [string]>('SELECT type, status FROM jobs WHERE subject_id = ? ORDER BY seq').all(id);

test('an s3 source in the configured bucket is copied by asset.fetch (signed requests), then asset.process is queued', async () => {
  const r = await s.api('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/news/in/clip.mp4' }, title: 'from bucket' });
  expect(r.status).toBe(201);
  const a = await j(r);
  expect(a.status).toBe('registered');
  await waitFor('source copied', () => asset(a.id).source_path, 20_000);
  const row = asset(a.id);
  expect(row.source_path).toEndWith('/source.mp4');
  expect(await sha256(join(s.dataDir, row.source_path!))).toBe(await sha256(clip));
  expect(existsSync(join(s.dataDir, row.source_path!, '..', 'source.partial'))).toBe(false);
  expect(jobs(a.id).map((x) => [x.type, x.status])).toEqual([['asset.fetch', 'succeeded'], ['asset.process', 'queued']]);
  expect(proxy.log.refused).toBe(0);
  expect(proxy.log.paths).toContain(`GET /${BUCKET}/${tenantId}/ingest/news/in/clip.mp4`);
});

test('missing objects, other tenants\' objects, keys outside in/ and traversal are refused at creation (422)', async () => {
  const before = proxy.log.paths.length;
  for (const key of ['ingest/news/in/missing.mp4', '../other-tenant/ingest/news/in/theirs.mp4', 'ingest/news/out/a.mp4',
    'ingest/news/in/%2e%2e/%2e%2e/%2e%2e/other-tenant/ingest/news/in/theirs.mp4', '/other-tenant/ingest/news/in/theirs.mp4', 'ingest/news/in/a\u0000.mp4']) {
    const r = await s.api('POST', '/v1/assets', { source: { kind: 's3', key } });
    expect({ key, status: r.status }).toEqual({ key, status: 422 });
  }
  // Only the well-formed missing key reached the bucket (and only inside this tenant's prefix).
  expect(proxy.log.paths.slice(before).every((p) => p.includes(`/${BUCKET}/${tenantId}/ingest/news/in/`))).toBe(true);
});

test('a wrong secret is refused by the signature check: creation answers 503, nothing is stored', async () => {
  const bad = await startTestServer({ workers: false, env: { VS_S3_ENDPOINT: proxy.url, VS_S3_BUCKET: BUCKET, VS_S3_REGION: REGION, VS_S3_ACCESS_KEY_ID: KEY, VS_S3_SECRET_ACCESS_KEY: 'wrong-secret' } });
  try {
    const refused = proxy.log.refused;
    const r = await bad.api('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/news/in/clip.mp4' } });
    expect(r.status).toBe(503);
    expect(proxy.log.refused).toBeGreaterThan(refused);
    expect(bad.ctx.db.query('SELECT COUNT(*) AS n FROM assets').get()).toEqual({ n: 0 });
  } finally { await bad.stop(); }
});

test('an object deleted after creation fails the asset without retrying', async () => {
  const direct = new S3Client({ endpoint: proxy.url, bucket: BUCKET, region: REGION, accessKeyId: KEY, secretAccessKey: SECRET });
  await direct.write(`${tenantId}/ingest/news/in/short-lived.mp4`, 'soon gone');
  await queue.stop();
  const a = await j(await s.api('POST', '/v1/assets', { source: { kind: 's3', key: 'ingest/news/in/short-lived.mp4' } }));
  await direct.delete(`${tenantId}/ingest/news/in/short-lived.mp4`);
  queue = new JobQueue(s.ctx, { handlers: assetJobHandlers, pollMs: 50, onFinalFailure: failAssetOfJob });
  queue.start();
  await waitFor('asset failed', () => asset(a.id).status === 'failed', 20_000);
  expect(asset(a.id).error).toContain('NoSuchKey');
  expect(asset(a.id).source_path).toBeNull();
});
