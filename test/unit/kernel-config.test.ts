import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, withAddresses } from '../../src/kernel/config/load';

/** A temp dir for config files, removed after the file's tests. */
const made: string[] = [];
const tmp = (): string => { const d = mkdtempSync(join(tmpdir(), 'vs-cfg-')); made.push(d); return d; };
afterAll(() => { for (const d of made) rmSync(d, { recursive: true, force: true }); });

test('defaults, then YAML, then VS_* env, then flags; frozen', () => {
  const d = loadConfig({}, {});
  expect(d.port).toBe(8080);
  expect(d.rtmpPort).toBe(1935);
  expect(d.srtPorts).toEqual({ start: 9000, end: 9199 });
  expect(d.dataDir).toEndWith('/data');
  expect(Object.isFrozen(d)).toBe(true);
  const f = join(tmp(), 'c.yml');
  writeFileSync(f, 'port: 9090\nrtmp_port: 2935\nsrt_ports: 7000-7009\nrate_limit: { per_second: 5 }\n');
  const c = loadConfig({ config: f }, { VS_PORT: '9191', VS_PRIVATE_ALLOWLIST: '127.0.0.1/32, 10.0.0.0/8', VS_BASE_URL: 'https://video.example.com/' });
  expect(c.port).toBe(9191);
  expect(c.rtmpPort).toBe(2935);
  expect(c.srtPorts).toEqual({ start: 7000, end: 7009 });
  expect(c.rateLimit).toEqual({ perSecond: 5, burst: 100 });
  expect(c.privateAllowlist).toEqual(['127.0.0.1/32', '10.0.0.0/8']);
  expect(loadConfig({ port: 1234 }, { VS_PORT: '9191' }).port).toBe(1234);
  const a = withAddresses(c, 9191);
  expect(a.baseUrl).toBe('https://video.example.com');
  expect(a.cdnBaseUrl).toBe('https://video.example.com');
  expect(withAddresses(loadConfig({ host: '0.0.0.0' }, {}), 4321).baseUrl).toBe('http://127.0.0.1:4321');
});

test('invalid configuration is refused with a clear message', () => {
  expect(() => loadConfig({}, { VS_PORT: 'eighty' })).toThrow('VS_PORT must be an integer');
  expect(() => loadConfig({}, { VS_SRT_PORTS: '9000' })).toThrow('START-END');
  expect(() => loadConfig({}, { VS_SRT_PORTS: '9100-9000' })).toThrow('END before START');
  expect(() => loadConfig({}, { VS_BASE_URL: 'ftp://x' })).toThrow('base_url');
  const f = join(tmp(), 'c.yml');
  writeFileSync(f, 'colour: blue\n');
  expect(() => loadConfig({ config: f }, {})).toThrow('unknown config key');
  expect(() => loadConfig({ config: '/nonexistent.yml' }, {})).toThrow('not found');
});

test('s3 bucket: YAML section, VS_S3_* override field by field, absent by default', () => {
  expect(loadConfig({}, {}).s3).toBeNull();
  const f = join(tmp(), 'c.yml');
  writeFileSync(f, 's3:\n  endpoint: http://minio.lan:9000/\n  bucket: media-in\n  region: eu-west-1\n  access_key_id: AKIAEXAMPLE\n  secret_access_key: yaml-secret\n');
  expect(loadConfig({ config: f }, {}).s3).toEqual({ endpoint: 'http://minio.lan:9000', bucket: 'media-in', region: 'eu-west-1', accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'yaml-secret' });
  const c = loadConfig({ config: f }, { VS_S3_SECRET_ACCESS_KEY: 'env-secret', VS_S3_BUCKET: 'other-bucket' });
  expect(c.s3).toMatchObject({ bucket: 'other-bucket', secretAccessKey: 'env-secret', accessKeyId: 'AKIAEXAMPLE', endpoint: 'http://minio.lan:9000' });
  const e = loadConfig({}, { VS_S3_ENDPOINT: 'https://s3.example.com', VS_S3_BUCKET: 'b-1', VS_S3_ACCESS_KEY_ID: 'k', VS_S3_SECRET_ACCESS_KEY: 's' });
  expect(e.s3).toEqual({ endpoint: 'https://s3.example.com', bucket: 'b-1', region: null, accessKeyId: 'k', secretAccessKey: 's' });
  expect(Object.isFrozen(e.s3)).toBe(true);
});

test('s3 bucket: incomplete or malformed settings are refused', () => {
  expect(() => loadConfig({}, { VS_S3_ENDPOINT: 'http://minio:9000' })).toThrow('s3.bucket');
  expect(() => loadConfig({}, { VS_S3_BUCKET: 'media' })).toThrow('access_key_id');
  expect(() => loadConfig({}, { VS_S3_BUCKET: 'media', VS_S3_ACCESS_KEY_ID: 'k', VS_S3_SECRET_ACCESS_KEY: 's', VS_S3_ENDPOINT: 'minio:9000' })).toThrow('s3.endpoint');
  expect(() => loadConfig({}, { VS_S3_BUCKET: 'Bad_Bucket', VS_S3_ACCESS_KEY_ID: 'k', VS_S3_SECRET_ACCESS_KEY: 's' })).toThrow('bucket name');
  const dir = tmp();
  writeFileSync(join(dir, 'a.yml'), 's3: { bucket: media, colour: blue }\n');
  expect(() => loadConfig({ config: join(dir, 'a.yml') }, {})).toThrow('unknown config key "s3.colour"');
  writeFileSync(join(dir, 'b.yml'), 's3: media\n');
  expect(() => loadConfig({ config: join(dir, 'b.yml') }, {})).toThrow('s3 must be a mapping');
});

test('analytics.threads: 0 (default) gives DuckDB one thread fewer than the cores, at least one; a count is taken as is; the store runs with it', async () => {
  const { statsThreads, openStats } = await import('../../src/kernel/stats');
  expect(loadConfig({}, {}).analytics.threads).toBe(0);
  expect([statsThreads(0, 1), statsThreads(0, 2), statsThreads(0, 8), statsThreads(3, 2)]).toEqual([1, 1, 7, 3]);
  const f = join(tmp(), 'c.yml');
  writeFileSync(f, 'analytics: { threads: 3 }\n');
  expect(loadConfig({ config: f }, {}).analytics.threads).toBe(3);
  writeFileSync(f, 'analytics: { threads: -1 }\n');
  expect(() => loadConfig({ config: f }, {})).toThrow('threads');
  const st = await openStats(':memory:', { threads: 1 });
  try { expect((await st.all<{ t: number }>("SELECT current_setting('threads')::INT AS t"))[0].t).toBe(1); } finally { await st.close(); }
});
