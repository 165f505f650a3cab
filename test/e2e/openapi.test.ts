import { afterAll, beforeAll, expect, test } from 'bun:test';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false }); });
afterAll(async () => { await s.stop(); });

type Doc = { openapi: string; info: { version: string; 'x-language': string }; paths: Record<string, Record<string, { summary: string; security?: unknown; 'x-required-scope'?: string; description?: string }>>; components: { securitySchemes: Record<string, { type: string; scheme: string }> } };

test('/docs redirects to the interactive reference', async () => {
  const r = await fetch(`${s.url}/docs`, { redirect: 'manual' });
  expect(r.status).toBe(301);
  expect(r.headers.get('location')).toBe('/docs/');
  const page = await fetch(`${s.url}/docs/`);
  expect(page.headers.get('content-type')).toContain('text/html');
  const html = await page.text();
  expect(html).toContain('/openapi.json');
  // The renderer is served by this server (offline LAN): no script from another host.
  expect(html).toContain('<script src="/docs/assets/scalar.js"></script>');
  expect(html).not.toMatch(/<script[^>]+src="https?:/);
  const js = await fetch(`${s.url}/docs/assets/scalar.js`);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toContain('javascript');
  expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  const he = await fetch(`${s.url}/docs/he`, { redirect: 'manual' });
  expect(he.status).toBe(301);
  expect(he.headers.get('location')).toBe('/docs/he/');
  const hePage = await (await fetch(`${s.url}/docs/he/`)).text();
  expect(hePage).toContain('dir="rtl"');
  expect(hePage).toContain('/openapi.he.json');
});

test('OpenAPI 3.1 documents in JSON, YAML and Hebrew, public and cacheable', async () => {
  const j = await fetch(`${s.url}/openapi.json`);
  expect(j.headers.get('access-control-allow-origin')).toBe('*');
  expect(j.headers.get('cache-control')).toBe('public, max-age=300');
  const doc = await j.json() as Doc;
  expect(doc.openapi).toStartWith('3.1');
  expect(doc.info.version).toBe('0.2.0');
  expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey']);
  expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  const me = doc.paths['/v1/me'].get;
  expect(me.summary).toBe('Who am I');
  const create = doc.paths['/v1/api-keys'].post;
  expect(create['x-required-scope']).toBe('keys:manage');
  expect(create.description).toContain('Required scope: `keys:manage`');
  // internal and delivery routes are not in the public document
  for (const p of Object.keys(doc.paths)) expect(p.startsWith('/v1') || p === '/healthz' || p === '/mcp').toBe(true);
  for (const item of Object.values(doc.paths)) for (const op of Object.values(item)) expect(op.summary).toBeTruthy();

  const y = parse(await (await fetch(`${s.url}/openapi.yaml`)).text()) as Doc;
  expect(y.paths['/v1/me'].get.summary).toBe('Who am I');
  const he = await (await fetch(`${s.url}/openapi.he.json`)).json() as Doc;
  expect(he.info['x-language']).toBe('he');
  expect(he.paths['/v1/me'].get.summary).toBe('מי אני');
  const heY = parse(await (await fetch(`${s.url}/openapi.he.yaml`)).text()) as Doc;
  expect(heY.info['x-language']).toBe('he');
  const sites = await fetch(`${s.url}/openapi/sites-delivery.json`);
  expect(sites.status).toBe(200);
  expect((await fetch(`${s.url}/openapi/unknown.json`)).status).toBe(404);
});
