import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { buildMmdb } from '../helpers/mmdb-writer';

const dir = mkdtempSync(join(tmpdir(), 'vs-geo-'));
let s: TestServer;
let slug: string;
beforeAll(async () => {
  // Real MaxMind-format files: loopback viewers are in Israel; 203.0.113.0/24 in France; 198.51.100.0/24 is AWS.
  writeFileSync(join(dir, 'country.mmdb'), buildMmdb('GeoLite2-Country', [['127.0.0.0/8', { country: { iso_code: 'IL' } }], ['203.0.113.0/24', { country: { iso_code: 'FR' } }]]));
  writeFileSync(join(dir, 'asn.mmdb'), buildMmdb('GeoLite2-ASN', [['198.51.100.0/24', { autonomous_system_number: 16509, autonomous_system_organization: 'AMAZON-02' }]]));
  s = await startTestServer({ workers: false, env: { VS_GEOIP_COUNTRY_DB: join(dir, 'country.mmdb'), VS_GEOIP_ASN_DB: join(dir, 'asn.mmdb') } });
  slug = ((await (await s.api('POST', '/v1/channels', { name: 'Geo News' })).json()) as { slug: string }).slug;
});
afterAll(async () => { await s.stop(); rmSync(dir, { recursive: true, force: true }); });

const session = () => fetch(`${s.url}/v1/playback/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tenant: 'default', channel: slug, page_origin: 'https://news.example.com' }) });

test('country and network rules use the configured MaxMind databases', async () => {
  expect((await session()).status).toBe(200);
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'geo', countries: { deny: ['il'] } })).json() as { id: string };
  await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'channel', target_id: slug });
  const denied = await session();
  expect(denied.status).toBe(403);
  expect(((await denied.json()) as { detail: string }).detail).toContain('IL');
  await s.api('PATCH', `/v1/playback/policies/${pol.id}`, { countries: { allow: ['IL'], deny: [] }, block_datacenters: true });
  expect((await session()).status).toBe(200);
  const tok = (b: object) => s.api('POST', '/v1/playback/tokens', { channel: slug, ...b });
  expect((await tok({ viewer_ip: '203.0.113.7' })).status).toBe(403); // France is not on the allow-list
  expect((await tok({ viewer_ip: '127.0.0.5' })).status).toBe(200);
  expect((await tok({ viewer_ip: '127.0.0.5', viewer_asn: 16509 })).status).toBe(403); // datacenter network
  expect((await tok({})).status).toBe(200); // no viewer named: the customer's backend decides
  await s.api('PATCH', `/v1/playback/policies/${pol.id}`, { countries: { allow: [], deny: [] }, block_datacenters: false, asn_deny: [64500] });
  expect((await tok({ viewer_asn: 64500 })).status).toBe(403);
  expect((await s.api('PATCH', `/v1/playback/policies/${pol.id}`, { countries: { allow: ['ISR'] } })).status).toBe(422);
});

test('player sessions are rate limited per viewer address when the policy says so', async () => {
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'rate', sessions_per_ip_per_min: 3 })).json() as { id: string };
  await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'channel', target_id: slug });
  const codes: number[] = [];
  for (let i = 0; i < 5; i++) codes.push((await session()).status);
  expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
  expect(codes.slice(3)).toEqual([429, 429]);
});
