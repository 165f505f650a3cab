import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/kernel/net/ports';
import { renderFrontConf } from '../../src/delivery-front/nginx-conf';
import { cacheKeyOf, patternRegex, type DistConf } from '../../src/delivery-front/distribution-conf';
import { cdnHitOf } from '../../src/delivery-front/distribution-reload';
import { checkCacheRules, checkHostnames, checkMethods, checkOriginShape } from '../../src/features/edge/distributions-check';
import { AppError } from '../../src/kernel/errors';

// Issue 46, CDN distributions: the pure checks of what an API caller gives, the server blocks rendered from it (and
// that real nginx accepts them), and the usage log's reading.
const T = '0190a000-0000-7000-8000-000000000001';
const rules = { ttl_overrides: [], default_ttl_s: 0, query_string: 'include' as const, query_allow: [] };
const dist = (over: Partial<DistConf> = {}): DistConf => ({
  id: '0190a000-0000-7000-8000-0000000000d1', tenant: T, hostnames: ['media.example.com'], enabled: true,
  origin: { kind: 'url', scheme: 'http', host: 'origin.example.com', port: 8080, authority: 'origin.example.com:8080', path: '/base/', addresses: ['203.0.113.5', '2001:db8::5'] },
  rules, methods: ['GET', 'HEAD'], tls: null, ...over,
});
const code = (fn: () => unknown) => { try { fn(); return 'ok'; } catch (e) { return e instanceof AppError ? `${e.status}` : String(e); } };

describe('checks', () => {
  test('hostnames: lower-cased DNS names; wildcards, IPs, ports, localhost, .invalid and duplicates refused (422); the own address 409', () => {
    expect(checkHostnames(['Media.Example.COM.', 'b.example.com'], [])).toEqual(['media.example.com', 'b.example.com']);
    for (const h of ['*.example.com', 'a b.com', '10.0.0.1', 'localhost', 'x.localhost', 'a.com:80', 'nodot', 'a.com/x', 'a;b.com', 'a"b.com', 'vsgen-1.invalid', `${'a'.repeat(64)}.com`, '-a.com'])
      expect([h, code(() => checkHostnames([h], []))]).toEqual([h, '422']);
    expect(code(() => checkHostnames(['a.com', 'A.com'], []))).toBe('422');
    expect(code(() => checkHostnames(['vs.example.com'], ['vs.example.com']))).toBe('409');
  });

  test('origin shape: http(s) only, no credentials, query or fragment; IP literals and localhost judged without DNS', () => {
    expect(checkOriginShape('https://origin.example.com/static', []).pathname).toBe('/static');
    for (const u of ['ftp://a.com/', 'http://u:p@a.com/', 'http://a.com/?x=1', 'http://a.com/#f', 'http://127.0.0.1/', 'http://[::1]/', 'http://10.0.0.1/', 'http://localhost/', 'http://0x7f000001/', 'not a url'])
      expect([u, code(() => checkOriginShape(u, []))]).toEqual([u, '422']);
    expect(code(() => checkOriginShape('http://127.0.0.1:9/', ['127.0.0.1/32']))).toBe('ok');
  });

  test('cache rules and methods: defaults, safe patterns, allow_list needs names; GET required, HEAD goes with it', () => {
    expect(checkCacheRules(undefined)).toEqual(rules);
    expect(code(() => checkCacheRules({ ttl_overrides: [{ path: '/a";b', ttl_s: 1 }] }))).toBe('422');
    expect(code(() => checkCacheRules({ ttl_overrides: [{ path: 'a', ttl_s: 1 }] }))).toBe('422');
    expect(code(() => checkCacheRules({ query_string: 'allow_list' }))).toBe('422');
    expect(code(() => checkCacheRules({ query_allow: ['v'] }))).toBe('422');
    expect(checkMethods(['POST', 'GET'])).toEqual(['GET', 'HEAD', 'POST']);
    expect(code(() => checkMethods(['HEAD']))).toBe('422');
  });
});

describe('rendering', () => {
  test('path patterns become anchored regular expressions; cache keys follow the query rule', () => {
    expect(patternRegex('/live/*.m3u8')).toBe('^/live/.*[.]m3u8$');
    expect(patternRegex('/a+b')).toBe('^/a[+]b$');
    expect(() => patternRegex('/a"b')).toThrow();
    const id = 'x';
    expect(cacheKeyOf(id, rules)).toBe('d|x|$uri$is_args$args');
    expect(cacheKeyOf(id, { ...rules, query_string: 'ignore' })).toBe('d|x|$uri');
    expect(cacheKeyOf(id, { ...rules, query_string: 'allow_list', query_allow: ['v', 'lang'] })).toBe('d|x|$uri?v=${arg_v}&lang=${arg_lang}');
    expect(() => cacheKeyOf(id, { ...rules, query_string: 'allow_list', query_allow: ['a}b'] })).toThrow();
  });

  test('the server block pins the checked addresses, keeps the origin host and base path, and refuses hostile names', () => {
    const text = renderFrontConf({
      host: '0.0.0.0', port: 8081, workers: 2, sock: '/run/vs/s', dataDir: '/d', runDir: '/run/vs', problemsBase: 'https://p',
      distributions: { list: [dist()], log: '/run/vs/cdn.log', deliverySock: '/run/vs/dist.sock', caBundle: null, generation: 3, tlsPort: null },
    });
    expect(text).toContain('upstream vs_d_0 { server 203.0.113.5:8080; server [2001:db8::5]:8080; keepalive 8; }');
    expect(text).toContain('server_name media.example.com;');
    expect(text).toContain('set $vs_opath "/base$request_uri";');
    expect(text).toContain('proxy_set_header Host "origin.example.com:8080";');
    expect(text).toContain('server_name vsgen-3.invalid;');
    const bad = (d: DistConf) => () => renderFrontConf({
      host: '127.0.0.1', port: 1, workers: 1, sock: '/s', dataDir: '/d', runDir: '/r', problemsBase: 'https://p',
      distributions: { list: [d], log: '/r/l', deliverySock: '/r/d', caBundle: null, generation: 1, tlsPort: null },
    });
    expect(bad(dist({ hostnames: ['a.com;b'] }))).toThrow();
    expect(bad(dist({ id: 'x"y' }))).toThrow();
    expect(bad(dist({ tls: { certificate: '/a"b', key: '/k' } }))).toThrow();
  });

  test('real nginx accepts every kind of distribution (url http/https with rules, delivery, disabled, unresolved, TLS)', async () => {
    const nginx = Bun.which('nginx') ?? '/usr/sbin/nginx';
    if (!existsSync(nginx)) throw new Error('nginx not found: the delivery front needs it (Debian: apt-get install nginx-light)');
    const dir = mkdtempSync(join(tmpdir(), 'vs-dist-conf-'));
    try {
      mkdirSync(join(dir, 'data'));
      const cert = join(dir, 'c.pem'), key = join(dir, 'k.pem');
      const p = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=t.example.com', '-keyout', key, '-out', cert], { stderr: 'pipe' });
      expect(p.exitCode).toBe(0);
      const d = (n: number, over: Partial<DistConf>) => dist({ id: `0190a000-0000-7000-8000-00000000000${n}`, hostnames: [`d${n}.example.com`], ...over });
      const list: DistConf[] = [
        d(1, { rules: { ttl_overrides: [{ path: '/live/*.m3u8', ttl_s: 2 }, { path: '/never/*', ttl_s: 0 }], default_ttl_s: 60, query_string: 'allow_list', query_allow: ['v', 'lang'] }, methods: ['GET', 'HEAD', 'POST'] }),
        d(2, { origin: { kind: 'url', scheme: 'https', host: 'o.example.com', port: 443, authority: 'o.example.com', path: '/', addresses: ['203.0.113.9'] }, tls: { certificate: cert, key } }),
        d(3, { origin: { kind: 'delivery' } }),
        d(4, { enabled: false }),
        d(5, { origin: { kind: 'unresolved', why: 'x' } }),
      ];
      const port = await freePort('127.0.0.1'), tlsPort = await freePort('127.0.0.1');
      const text = renderFrontConf({
        host: '127.0.0.1', port, workers: 1, sock: join(dir, 'app.sock'), dataDir: join(dir, 'data'), runDir: dir, problemsBase: 'https://p',
        user: process.getuid?.() === 0 ? 'root' : undefined,
        cache: { dir: join(dir, 'cache'), maxSize: '1g', log: join(dir, 'fill.log') }, originSock: join(dir, 'origin.sock'),
        distributions: { list, log: join(dir, 'cdn.log'), deliverySock: join(dir, 'dist.sock'), caBundle: existsSync('/etc/ssl/certs/ca-certificates.crt') ? '/etc/ssl/certs/ca-certificates.crt' : null, generation: 1, tlsPort },
      });
      const file = join(dir, 'nginx.conf');
      writeFileSync(file, text);
      const r = Bun.spawnSync([nginx, '-t', '-q', '-e', 'stderr', '-p', dir, '-c', file], { stdout: 'pipe', stderr: 'pipe' });
      expect({ exitCode: r.exitCode, out: `${r.stdout}${r.stderr}` }).toEqual({ exitCode: 0, out: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('usage log lines: the edge\'s cache status, else the front\'s (delivery origins); lines without a distribution skipped', () => {
  expect(cdnHitOf({ t: 1700000000.123, d: 'd1', ten: T, m: 'GET', s: 200, b: 10, c: 'HIT', ic: '' })).toEqual({ ts: 1700000000123, tenantId: T, distributionId: 'd1', method: 'GET', status: 200, bytes: 10, cache: 'HIT' });
  expect(cdnHitOf({ t: 1, d: 'd1', ten: T, m: 'GET', s: 200, b: 10, c: '', ic: 'MISS' })?.cache).toBe('MISS');
  expect(cdnHitOf({ t: 1, d: 'd1', ten: T, m: 'GET', s: 405, b: 10, c: '-', ic: '-' })?.cache).toBe('-');
  expect(cdnHitOf({ t: 1, d: '', ten: '', m: 'GET', s: 204, b: 0, c: '', ic: '' })).toBeNull();
});
