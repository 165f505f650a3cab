import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Elysia } from 'elysia';
import { notModified, serveFile, serveText } from '../../src/features/media-delivery/serve-file';
import { serveApp, type HttpServer } from '../../src/kernel/http/server';

let dir: string, srv: HttpServer, base: string;
const FILE_LEN = 200_000;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vs-serve-'));
  writeFileSync(join(dir, 'a.m4s'), new Uint8Array(FILE_LEN).fill(7));
  // GET-only routes (Elysia answers HEAD itself by measuring the GET body) and explicit HEAD routes.
  const app = new Elysia()
    .get('/implicit/a.m4s', ({ request }) => serveFile(request, join(dir, 'a.m4s'), 'public, max-age=31536000, immutable')!)
    .get('/implicit/t.m3u8', ({ request }) => serveText(request, '#EXTM3U\n#EXT-X-ENDLIST\n', 'application/vnd.apple.mpegurl', 'public, max-age=60'))
    .get('/explicit/a.m4s', ({ request }) => serveFile(request, join(dir, 'a.m4s'), 'public, max-age=31536000, immutable')!)
    .head('/explicit/a.m4s', ({ request }) => serveFile(request, join(dir, 'a.m4s'), 'public, max-age=31536000, immutable')!);
  // Through the kernel's server, as the service answers (it gives HEAD answers their final form).
  srv = serveApp((r) => app.handle(r), { port: 0, host: '127.0.0.1', maxBodyBytes: 1024 });
  base = `http://127.0.0.1:${srv.port}`;
});
afterAll(async () => { await srv.stop(0); rmSync(dir, { recursive: true, force: true }); });

const SAME = ['content-length', 'content-type', 'etag', 'last-modified', 'accept-ranges', 'cache-control', 'content-disposition', 'access-control-allow-origin'];
const pick = (r: Response) => Object.fromEntries(SAME.map((k) => [k, r.headers.get(k)]));

test('HEAD answers exactly the GET headers, with or without an explicit HEAD route', async () => {
  for (const p of ['/implicit/a.m4s', '/explicit/a.m4s', '/implicit/t.m3u8']) {
    const g = await fetch(base + p);
    const body = await g.arrayBuffer();
    const h = await fetch(base + p, { method: 'HEAD' });
    expect(h.status).toBe(200);
    expect(pick(h)).toEqual(pick(g));
    expect(Number(h.headers.get('content-length'))).toBe(body.byteLength);
    expect(h.headers.get('date')).not.toBeNull();
  }
  const r = await fetch(base + '/explicit/a.m4s', { method: 'HEAD', headers: { range: 'bytes=10-19' } });
  expect([r.status, r.headers.get('content-length'), r.headers.get('content-range')]).toEqual([206, '10', `bytes 10-19/${FILE_LEN}`]);
});

test('If-None-Match and If-Modified-Since answer 304; a changed validator answers 200', async () => {
  for (const p of ['/implicit/a.m4s', '/implicit/t.m3u8']) {
    const g = await fetch(base + p);
    await g.arrayBuffer();
    const etag = g.headers.get('etag')!;
    expect((await fetch(base + p, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(base + p, { headers: { 'if-none-match': `"x", W/${etag}` } })).status).toBe(304);
    const miss = await fetch(base + p, { headers: { 'if-none-match': '"other"' } });
    expect(miss.status).toBe(200);
    await miss.arrayBuffer();
  }
  const g = await fetch(base + '/implicit/a.m4s');
  await g.arrayBuffer();
  const lm = g.headers.get('last-modified')!;
  expect((await fetch(base + '/implicit/a.m4s', { headers: { 'if-modified-since': lm } })).status).toBe(304);
  const old = await fetch(base + '/implicit/a.m4s', { headers: { 'if-modified-since': new Date(Date.parse(lm) - 60_000).toUTCString() } });
  expect(old.status).toBe(200);
  await old.arrayBuffer();
});

test('notModified: If-None-Match wins over If-Modified-Since; unparsable dates never match', () => {
  const h = (o: Record<string, string>) => new Headers(o);
  expect(notModified(h({ 'if-none-match': '"a"', 'if-modified-since': new Date(Date.now() + 1e6).toUTCString() }), '"b"', 0)).toBe(false);
  expect(notModified(h({ 'if-none-match': '*' }), '"b"', 0)).toBe(true);
  expect(notModified(h({ 'if-modified-since': 'yesterday' }), '"b"', 0)).toBe(false);
  expect(notModified(h({ 'if-modified-since': new Date(5000).toUTCString() }), '"b"', 5999)).toBe(true);
});
