import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ACCEL_RANGE, ACCEL_WHOLE, accelAnswer, markFileAnswer } from '../../src/kernel/http/accel';

const ROOT = '/d/data';
const URL_ = 'http://front.test/t/tok/a.m4s';

const HEADERS: Record<string, string> = {
  'content-type': 'video/iso.segment',
  etag: '"abc-123"',
  'cache-control': 'public, max-age=31536000, immutable',
  'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT',
  'access-control-allow-origin': '*',
  'accept-ranges': 'bytes',
};

/** A file answer as serveFile builds it (a body and its length), optionally marked with `path`. */
function answer(status: number, path: string | null, extra: Record<string, string> = {}): Response {
  const body = status === 304 ? null : new Uint8Array(10).fill(7);
  const res = new Response(body, { status, headers: { ...HEADERS, 'content-length': body ? '10' : '0', ...extra } });
  return path === null ? res : markFileAnswer(res, path);
}

const get = (headers: Record<string, string> = {}) => new Request(URL_, { headers });

describe('accelAnswer: marked answers handed to the front', () => {
  test('a 200 GET of a file under root becomes an empty 200 with X-Accel-Redirect to the whole-file location', async () => {
    const orig = answer(200, `${ROOT}/media/asset1/v0/seg_00001.m4s`, { 'content-range': 'bytes 0-9/10' });
    const out = accelAnswer(get(), orig, ROOT);
    expect(out).not.toBeNull();
    const r = out!;
    expect(r).not.toBe(orig);
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    expect((await r.arrayBuffer()).byteLength).toBe(0);
    expect(r.headers.get('content-length')).toBe('0');
    expect(r.headers.get('x-accel-redirect')).toBe(`${ACCEL_WHOLE}media/asset1/v0/seg_00001.m4s`);
    expect(ACCEL_WHOLE).toBe('/_vs_whole/');
    for (const [k, v] of Object.entries(HEADERS)) expect(r.headers.get(k)).toBe(v);
    expect(r.headers.has('content-range')).toBe(false);
  });

  test('a file directly in root is carried as its bare name', () => {
    const r = accelAnswer(get(), answer(200, `${ROOT}/a.m4s`), ROOT);
    expect(r?.headers.get('x-accel-redirect')).toBe(`${ACCEL_WHOLE}a.m4s`);
  });

  test('a marked 206 answer goes to the range location (status 200, nginx applies the Range itself)', () => {
    const orig = answer(206, `${ROOT}/media/a.m4s`, { 'content-range': 'bytes 0-9/100' });
    const r = accelAnswer(get({ range: 'bytes=0-9' }), orig, ROOT);
    expect(r).not.toBeNull();
    expect(r!.status).toBe(200);
    expect(r!.body).toBeNull();
    expect(r!.headers.get('x-accel-redirect')).toBe(`${ACCEL_RANGE}media/a.m4s`);
    expect(ACCEL_RANGE).toBe('/_vs_range/');
    expect(r!.headers.get('content-length')).toBe('0');
    expect(r!.headers.has('content-range')).toBe(false);
    expect(r!.headers.get('etag')).toBe(HEADERS.etag);
  });
});

describe('accelAnswer: answers left as they are (null)', () => {
  const good = `${ROOT}/media/a.m4s`;

  test('an unmarked answer', () => {
    expect(accelAnswer(get(), answer(200, null), ROOT)).toBeNull();
  });

  test('HEAD (and other methods than GET)', () => {
    expect(accelAnswer(new Request(URL_, { method: 'HEAD' }), answer(200, good), ROOT)).toBeNull();
    expect(accelAnswer(new Request(URL_, { method: 'POST', body: 'x' }), answer(200, good), ROOT)).toBeNull();
  });

  test('statuses other than 200/206: 304, 416, 404', () => {
    for (const s of [304, 416, 404]) expect(accelAnswer(get(), answer(s, good), ROOT)).toBeNull();
  });

  test('a request carrying If-Range', () => {
    expect(accelAnswer(get({ range: 'bytes=0-9', 'if-range': '"abc-123"' }), answer(206, good), ROOT)).toBeNull();
    expect(accelAnswer(get({ 'if-range': 'Mon, 01 Jan 2024 00:00:00 GMT' }), answer(200, good), ROOT)).toBeNull();
  });

  test('a path outside root, including a sibling directory whose name starts with root\'s name', () => {
    for (const p of ['/d/data2/x.m4s', '/d/datax.m4s', '/d/other/x.m4s', '/etc/passwd', 'd/data/x.m4s', ROOT, `${ROOT}/`])
      expect(accelAnswer(get(), answer(200, p), ROOT)).toBeNull();
  });

  test('a root-prefixed path with a dot segment', () => {
    for (const p of [`${ROOT}/../etc/passwd`, `${ROOT}/media/../../etc/passwd`, `${ROOT}/a/..`, `${ROOT}/./a.m4s`, `${ROOT}/a/./b`])
      expect(accelAnswer(get(), answer(200, p), ROOT)).toBeNull();
  });

  test('names the location could not carry verbatim', () => {
    const bad = [
      'a b.m4s', 'a%2e.m4s', '%2e%2e/x', 'a?.m4s', 'a#.m4s', 'a;.m4s', 'é.m4s', 'caf\u00e9/a.m4s', 'a\n.m4s', 'a\r\nx: y',
      'a\\b.m4s', 'a\0b', '.hidden', 'media/.hidden/a.m4s', 'a//b', 'a/', '/a',
    ];
    for (const rel of bad) expect(accelAnswer(get(), answer(200, `${ROOT}/${rel}`), ROOT)).toBeNull();
  });

  test('an answer left as it is keeps its own headers', () => {
    const orig = answer(200, `${ROOT}/a b.m4s`, { 'content-range': 'bytes 0-9/10' });
    expect(accelAnswer(get(), orig, ROOT)).toBeNull();
    expect(orig.headers.get('content-length')).toBe('10');
    expect(orig.headers.get('content-range')).toBe('bytes 0-9/10');
    expect(orig.headers.has('x-accel-redirect')).toBe(false);
  });
});

const TARGET = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

test('property: a redirect target is always the relative path itself, verbatim and safe', () => {
  // Arbitrary unicode segments, mixed with safe names and dot/empty segments so both outcomes occur.
  const segment = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.stringMatching(/^[A-Za-z0-9._-]{1,8}$/),
    fc.constantFrom('..', '.', '', '.hidden', 'a.m4s'),
  );
  let redirected = 0;
  fc.assert(
    fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean(), (segs, ranged) => {
      const rel = segs.join('/');
      const r = accelAnswer(get(), answer(ranged ? 206 : 200, `${ROOT}/${rel}`), ROOT);
      if (r === null) {
        expect(TARGET.test(rel)).toBe(false);
        return;
      }
      redirected++;
      const target = r.headers.get('x-accel-redirect')!;
      const prefix = ranged ? ACCEL_RANGE : ACCEL_WHOLE;
      expect(target.startsWith(prefix)).toBe(true);
      const after = target.slice(prefix.length);
      expect(after).toMatch(TARGET);
      expect(after).toBe(rel);
      expect(after.startsWith('/')).toBe(false);
      // No dot segment at all ('..' or '.'); a name may still contain dots inside it (a..b).
      for (const s of after.split('/')) expect(s.startsWith('.')).toBe(false);
    }),
    { numRuns: 300 },
  );
  expect(redirected).toBeGreaterThan(0);
});
