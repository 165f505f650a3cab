import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/kernel/config/load';

const dir = mkdtempSync(join(tmpdir(), 'vs-cfg-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (yaml: string) => { const f = join(dir, 'c.yml'); writeFileSync(f, yaml); return () => loadConfig({ config: f }, {}); };

test('the config file is checked against its TypeBox schema: wrong types and unknown keys name the key and the file', () => {
  const f = join(dir, 'c.yml');
  expect(load('port: eighty\n')).toThrow(`config file ${f}: key "port": expected integer, got "eighty"`);
  expect(load('port: 70000\n')).toThrow('key "port"');
  expect(load('log_level: loud\n')).toThrow('key "log_level": expected "debug" or "info" or "warn" or "error", got "loud"');
  expect(load('private_allowlist: 10.0.0.0/8\n')).toThrow('key "private_allowlist": expected array');
  expect(load('geoip: { country_db: 5 }\n')).toThrow('key "geoip.country_db": expected string or null, got 5');
  expect(load('rate_limit: { per_second: 5, burts: 3 }\n')).toThrow('key "rate_limit.burts"');
  expect(load('json_body_limit: 0\n')).toThrow('key "json_body_limit"');
  expect(load('colour: blue\n')).toThrow(`config file ${f}: unknown config key "colour"`);
  expect(load('s3: { bucket: media, colour: blue }\n')).toThrow(`config file ${f}: unknown config key "s3.colour"`);
});

test('the documented example and valid files still load', () => {
  expect(load('base_url: ""\nffmpeg_path: null\nrate_limit: { per_second: 5 }\nprivate_allowlist: [127.0.0.1/32]\n')().rateLimit).toEqual({ perSecond: 5, burst: 100 });
  const example = loadConfig({ config: join(import.meta.dir, '../../config/viewstream.example.yml') }, {});
  expect(example.port).toBe(8080);
});
