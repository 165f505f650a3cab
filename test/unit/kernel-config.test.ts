import { expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, withAddresses } from '../../src/kernel/config/load';

test('defaults, then YAML, then VS_* env, then flags; frozen', () => {
  const d = loadConfig({}, {});
  expect(d.port).toBe(8080);
  expect(d.rtmpPort).toBe(1935);
  expect(d.srtPorts).toEqual({ start: 9000, end: 9199 });
  expect(d.dataDir).toEndWith('/data');
  expect(Object.isFrozen(d)).toBe(true);
  const f = join(mkdtempSync(join(tmpdir(), 'vs-cfg-')), 'c.yml');
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
  const f = join(mkdtempSync(join(tmpdir(), 'vs-cfg-')), 'c.yml');
  writeFileSync(f, 'colour: blue\n');
  expect(() => loadConfig({ config: f }, {})).toThrow('unknown config key');
  expect(() => loadConfig({ config: '/nonexistent.yml' }, {})).toThrow('not found');
});
