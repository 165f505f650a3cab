import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { spawnServe } from '../helpers/proc';
import { until } from './uploads-helpers';

const dir = mkdtempSync(join(tmpdir(), 'vs-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args: string[]) => Bun.spawnSync(['bun', 'src/main.ts', ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, VS_DATA_DIR: join(dir, 'data') } });

test('tenant create and key create print JSON; the key works against serve', async () => {
  const t = cli('tenant', 'create', '--name', 'Kan News', '--json');
  expect(t.exitCode).toBe(0);
  const tenant = JSON.parse(t.stdout.toString());
  expect(Object.keys(tenant).sort()).toEqual(['id', 'slug']);
  expect(tenant.slug).toBe('kan-news');
  expect(cli('tenant', 'create', '--name', 'Kan News', '--json').exitCode).toBe(1); // slug taken -> conflict
  const cdn = JSON.parse(cli('tenant', 'create', '--name', 'Edge Only', '--slug', 'edge', '--cdn-only', '--json').stdout.toString());
  expect(cdn.slug).toBe('edge');
  const k = cli('key', 'create', '--tenant', 'kan-news', '--role', 'editor', '--name', 'cms', '--json');
  expect(k.exitCode).toBe(0);
  const key = JSON.parse(k.stdout.toString());
  expect(Object.keys(key).sort()).toEqual(['id', 'key', 'scopes']);
  expect(key.scopes).toContain('assets:write');
  expect(key.scopes).not.toContain('assets:publish');
  const sc = JSON.parse(cli('key', 'create', '--tenant', 'kan-news', '--scopes', 'assets:read,stats:read', '--json').stdout.toString());
  expect(sc.scopes).toEqual(['assets:read', 'stats:read']);
  expect(cli('key', 'create', '--tenant', 'kan-news', '--role', 'emperor').exitCode).toBe(2);
  expect(cli('key', 'create', '--tenant', 'nope', '--role', 'viewer').exitCode).toBe(1);
  expect(cli('key', 'create', '--tenant', 'kan-news', '--scopes', 'bad:scope').exitCode).toBe(1);
  expect(cli('frobnicate').exitCode).toBe(2);
  expect(cli('serve', '--no-such-flag').exitCode).toBe(2);

  // Not an empty data dir any more: serve creates no default tenant and prints no key.
  const s = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1'], { VS_DATA_DIR: join(dir, 'data') });
  try {
    expect(s.key).toBeNull();
    const me = await (await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${key.key}` } })).json() as { current_tenant: { slug: string }; scopes: string[] };
    expect(me.current_tenant.slug).toBe('kan-news');
    expect(me.scopes).toEqual(key.scopes);
  } finally { s.kill(); await s.proc.exited; }
  expect(existsSync(join(dir, 'data', 'db', 'meta.sqlite'))).toBe(true);
  expect(existsSync(join(dir, 'data', 'db', 'stats.duckdb'))).toBe(true);
}, 60_000);

test('SIGTERM: in-flight requests finish, new connections are refused, exit 0', async () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-sig-'));
  // Info level: the server logs "shutting down" as it stops listening, the condition waited for below.
  const s = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', d], { VS_LOG_LEVEL: 'info' });
  const port = Number(new URL(s.url).port);
  const sock = connect(port, '127.0.0.1');
  try {
    let got = '';
    sock.on('data', (b) => { got += b.toString('latin1'); });
    await new Promise<void>((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject); });
    // A request whose body arrives slowly is in flight when SIGTERM lands. `Expect: 100-continue`: the server
    // answers 100 once its handler reads the body, so the request has provably reached the handler.
    const body = '{"role":"viewer"}';
    sock.write(`POST /v1/api-keys HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${s.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
    await until('100 Continue from the handler', () => /^HTTP\/1\.1 100/.test(got));
    sock.write(body.slice(0, 8));
    s.kill('SIGTERM');
    await until('the server to start shutting down', () => s.output().includes('shutting down'));
    sock.write(body.slice(8));
    await until('the answer to the in-flight request', () => /\r\n\r\nHTTP\/1\.1 [2-5]\d\d [^\r]*\r\n[\s\S]*\r\n\r\n/.test(got));
    expect(got).toMatch(/\r\n\r\nHTTP\/1\.1 201 /);
    expect(await s.proc.exited).toBe(0);
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  } finally { sock.destroy(); s.kill(); rmSync(d, { recursive: true, force: true }); }
}, 60_000);
