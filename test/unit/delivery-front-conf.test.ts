import { ALIGN, FIXED, cacheAlignMaps, padLength } from '../../src/delivery-front/cache-align';
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../../src/kernel/net/ports';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderFrontConf, safeConfPath, type FrontConf } from '../../src/delivery-front/nginx-conf';
import { grantedDir, grantRel } from '../../src/delivery-front/grants';
import { FRONT_GRANTS_ENV, FRONT_PORT_ENV, FRONT_SNDBUF_ENV, frontGrantsFromEnv, frontPortFromEnv, frontSndbufFromEnv } from '../../src/delivery-front/front';

const BASE: FrontConf = {
  host: '127.0.0.1', port: 8081, workers: 4, sock: '/run/vs/front.sock', dataDir: '/var/lib/vs/data', runDir: '/run/vs',
  problemsBase: 'https://viewstream.dev/problems',
};
const conf = (over: Partial<FrontConf> = {}) => renderFrontConf({ ...BASE, ...over });

/** The text nginx reads from a quoted token: `\"`, `\'` and `\\` lose their backslash; `\t`, `\r`, `\n` become controls. */
function nginxUnquote(s: string): string {
  return s.replace(/\\(["'\\trn])/g, (_, c: string) => ({ t: '\t', r: '\r', n: '\n' } as Record<string, string>)[c] ?? c);
}

/** Every `return NNN '...'` of the configuration: its status and its body as nginx would send it. */
function returnBodies(text: string): { status: number; body: string }[] {
  return [...text.matchAll(/return (\d{3}) '((?:[^'\\]|\\.)*)'/g)].map((m) => ({ status: Number(m[1]), body: nginxUnquote(m[2]) }));
}

describe('safeConfPath', () => {
  test('accepts ordinary absolute paths, spaces included', () => {
    for (const p of ['/', '/var/lib/vs/data', '/tmp/vs-front-abc/app.sock', '/srv/my media/data', '/opt/a-b_c.d/e+f@g:h', '/data/caf\u00e9'])
      expect(safeConfPath(p)).toBe(true);
  });

  test('rejects relative paths and paths nginx would not read verbatim inside quotes', () => {
    const bad = ['', 'data', './data', 'var/lib', ' /data', '/a"b', '/a\\b', '/a$b', '/$data', '/a;b', '/a{b', '/a}b', '/a\nb', '/a\0b', '/a\rb', '/a\tb', '/a\x7fb'];
    for (const p of bad) expect(safeConfPath(p)).toBe(false);
  });

  test('renderFrontConf throws for an unusable data dir, socket or run dir', () => {
    for (const p of ['relative/dir', '/a"b', '/a\\b', '/a$b', '/a;b', '/a{b', '/a}b', '/a\nb', '/a\0b']) {
      expect(() => conf({ dataDir: p })).toThrow(/not usable/);
      expect(() => conf({ sock: p })).toThrow(/not usable/);
      expect(() => conf({ runDir: p })).toThrow(/not usable/);
    }
    expect(() => conf({ dataDir: '/srv/my media/data' })).not.toThrow();
  });
});

describe('renderFrontConf: the rendered text', () => {
  test('regular expressions compiled (pcre_jit); granted answers get the start\'s request id prefix, never $request_id', () => {
    const grants = { dir: '/run/vs/grants', spool: '/run/vs/granted.log' };
    const text = conf({ grants, ridPrefix: 'req_Ab3-_x9Z' });
    expect(text).toContain('pcre_jit on;');
    expect(text).toContain('add_header X-Request-Id "req_Ab3-_x9Z-$pid-$connection-$connection_requests";');
    expect(text).not.toContain('$request_id');
    for (const bad of ['Ab3', 'req_', 'req_a"b', 'req_a;b', 'req_$pid', `req_${'x'.repeat(25)}`]) expect(() => conf({ grants, ridPrefix: bad })).toThrow(/request id prefix/);
  });

  test('worker processes', () => {
    expect(conf({ workers: 4 })).toContain('worker_processes 4;');
    expect(conf({ workers: 1 })).toContain('worker_processes 1;');
    expect(conf({ workers: 0 })).toContain('worker_processes 1;');
    expect(conf({ workers: 2.7 })).toContain('worker_processes 2;');
  });

  test('listen line for each kind of host', () => {
    expect(conf({ host: '127.0.0.1', port: 8081 })).toContain('listen 127.0.0.1:8081 reuseport;');
    expect(conf({ host: '0.0.0.0', port: 8081 })).toContain('listen 8081 reuseport;');
    expect(conf({ host: '::', port: 8081 })).toContain('listen [::]:8081 ipv6only=off reuseport;');
    expect(conf({ host: '::1', port: 8081 })).toContain('listen [::1]:8081 reuseport;');
    expect(conf({ host: '::1', port: 8081 })).not.toContain('ipv6only');
    expect(conf({ host: '127.0.0.1', port: 8081 }).match(/^\s*listen /gm)).toHaveLength(1);
  });

  test('user root only when asked', () => {
    expect(conf({ user: 'root' })).toMatch(/^user root;$/m);
    expect(conf()).not.toMatch(/^\s*user /m);
    expect(conf({ user: undefined })).not.toMatch(/^\s*user /m);
  });

  test('the internal file locations: whole file with ranges off, range location with ranges on', () => {
    const t = conf();
    const whole = t.split('\n').find((l) => l.includes('location ^~ /_vs_whole/'));
    const range = t.split('\n').find((l) => l.includes('location ^~ /_vs_range/'));
    expect(whole).toBeDefined();
    expect(range).toBeDefined();
    expect(whole).toContain('internal;');
    expect(whole).toContain('max_ranges 0;');
    expect(whole).toContain(`alias "${BASE.dataDir}/";`);
    expect(range).toContain('internal;');
    expect(range).not.toContain('max_ranges');
    expect(range).toContain(`alias "${BASE.dataDir}/";`);
  });

  test('sendfile, tcp_nopush and the upstream socket', () => {
    const t = conf();
    expect(t).toContain('sendfile on;');
    expect(t).toContain('tcp_nopush on;');
    expect(t).toContain(`server "unix:${BASE.sock}";`);
    expect(conf({ sock: '/tmp/with space/s.sock' })).toContain('server "unix:/tmp/with space/s.sock";');
  });

  test('every problem body nginx returns is problem+json of its own status', () => {
    for (const problemsBase of [BASE.problemsBase, "https://example.test/it's/problems", 'https://example.test/"q"\\b/problems']) {
      const bodies = returnBodies(conf({ problemsBase }));
      expect(bodies.map((b) => b.status).sort()).toEqual([400, 404, 502]);
      for (const { status, body } of bodies) {
        const j = JSON.parse(body) as { type: unknown; status: unknown; title: unknown };
        expect(typeof j.type).toBe('string');
        expect((j.type as string).startsWith(problemsBase + '/')).toBe(true);
        expect(typeof j.status).toBe('number');
        expect(j.status).toBe(status);
        expect(typeof j.title).toBe('string');
        expect((j.title as string).length).toBeGreaterThan(0);
      }
    }
  });
});


test('real nginx accepts the rendered configuration (nginx -t)', async () => {
  const nginx = Bun.which('nginx') ?? '/usr/sbin/nginx';
  if (!existsSync(nginx)) throw new Error(`nginx not found (${nginx}): the delivery front needs it; install it (Debian: apt-get install nginx-light)`);
  const dir = mkdtempSync(join(tmpdir(), 'vs-front-conf-'));
  try {
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const port = await freePort('127.0.0.1');
    expect(port).toBeGreaterThan(0);
    for (const [grants, sndbuf] of [[undefined, undefined], [{ dir: join(dir, 'grants'), spool: join(dir, 'granted.log') }, '256k']] as const) {
      const text = renderFrontConf({
        host: '127.0.0.1', port, workers: 2, sock: join(dir, 'app.sock'), dataDir, runDir: dir,
        problemsBase: BASE.problemsBase, user: process.getuid?.() === 0 ? 'root' : undefined, grants, sndbuf,
      });
      const file = join(dir, 'nginx.conf');
      writeFileSync(file, text);
      const r = Bun.spawnSync([nginx, '-t', '-q', '-e', 'stderr', '-p', dir, '-c', file], { stdout: 'pipe', stderr: 'pipe' });
      const out = `${r.stdout.toString()}${r.stderr.toString()}`;
      expect({ grants: !!grants, exitCode: r.exitCode, out }).toEqual({ grants: !!grants, exitCode: 0, out: '' });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('frontPortFromEnv', () => {
  const port = (v: string | undefined) => frontPortFromEnv({ [FRONT_PORT_ENV]: v });

  test('the variable name', () => {
    expect(FRONT_PORT_ENV).toBe('VS_DELIVERY_FRONT_PORT');
  });

  test('unset or empty: no front', () => {
    expect(frontPortFromEnv({})).toBeNull();
    expect(port(undefined)).toBeNull();
    expect(port('')).toBeNull();
    expect(port('   ')).toBeNull();
  });

  test('a port from 0 to 65535, surrounding spaces allowed', () => {
    expect(port('0')).toBe(0);
    expect(port('8081')).toBe(8081);
    expect(port(' 8081 ')).toBe(8081);
    expect(port('65535')).toBe(65535);
  });

  test('anything else throws, naming the variable', () => {
    for (const v of ['65536', '-1', '80a', '1e3', '0x50', '8081.5', 'abc', '99999999999999999999']) {
      let err: unknown = null;
      try { port(v); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toContain('VS_DELIVERY_FRONT_PORT');
    }
  });
});

describe('the granted location', () => {
  const g = { dir: '/run/vs/grants', spool: '/run/vs/granted.log' };
  test('only with grants: a regex location that checks the grant file and sends from the output directory', () => {
    expect(conf()).not.toContain('vs_granted');
    const t = conf({ grants: g });
    expect(t).toContain(`if (!-f "${g.dir}/a$vs_c1/b$vs_c2/c$vs_c3/$vs_ten.$vs_ast.$vs_ver") { return 418; }`);
    // Checked, then moved to the internal location that sends from the output directory through the open file cache.
    expect(t).toContain('rewrite ^ /_vs_granted/$vs_ten/assets/$vs_ast/$vs_ver/$vs_file last;');
    expect(t).toMatch(new RegExp(`location \\^~ /_vs_granted/ \\{\\s*internal;[^}]*alias "${BASE.dataDir}/media/";\\s*open_file_cache max=\\d+ inactive=30s;`));
    // The grant check's location has no open file cache (a removed grant refuses the next request).
    expect(/location ~ "[^"]+" \{[^}]*\}[^}]*\}[^}]*\}[^}]*\}/.exec(t)![0]).not.toContain('open_file_cache');
    // The appliance is asked for what the viewer sent, not the internal path.
    // ... once its raw path is exactly the URI the granted location matched (saved before the rewrite changes $uri).
    expect(t).toMatch(/location @vs_ask \{ if \(\$vs_raw_path != \$vs_matched\) \{ return 400; \} proxy_pass http:\/\/vs_appliance\$request_uri;/);
    expect(t).toMatch(/location ~ "[^"]+" \{\s*#[^\n]*\n\s*set \$vs_matched \$uri;/);
    expect(t).toContain('if ($request_uri != $uri) { return 418; }');
    expect(t).toContain('error_page 301 302 403 404 405 416 418 500 502 503 504 = @vs_ask; recursive_error_pages on;');
    expect(t).toMatch(/location @vs_ask \{.* recursive_error_pages on; error_page 400 \/_vs_problem\/400; error_page 500 502 503 504 \/_vs_problem\/502; \}$/m);
    expect(t).toContain(`access_log "${g.spool}" vs_granted`);
    // Nothing else is logged: the spool holds granted answers only.
    expect(t).toContain('access_log off;');
  });
  test('the location pattern takes exactly the paths grantRel names and never a playlist, key, download or dot file', () => {
    const re = new RegExp(/location ~ "([^"]+)"/.exec(conf({ grants: g }))![1].replace(/\(\?<(\w+)>/g, '(?<$1>'));
    const u = '0a1b2c3d-0000-4000-8000-00000000000a';
    for (const len of [40, 199, 200, 201, 350, 400, 401, 600]) {
      const tok = 'v1.' + 'x'.repeat(len - 3);
      const m = re.exec(`/t/${tok}/m/${u}/assets/${u}/v3/seg_1.m4s`);
      expect(m).not.toBeNull();
      expect(`a${m!.groups!.vs_c1}/b${m!.groups!.vs_c2}/c${m!.groups!.vs_c3}/${m!.groups!.vs_ten}.${m!.groups!.vs_ast}.${m!.groups!.vs_ver}`).toBe(grantRel(tok, u, u, 'v3')!);
    }
    expect(re.exec(`/t/v1.${'x'.repeat(600)}/m/${u}/assets/${u}/v3/seg_1.m4s`)).toBeNull();
    expect(grantRel(`v1.${'x'.repeat(600)}`, u, u, 'v3')).toBeNull();
    for (const f of ['master.m3u8', 'manifest.mpd', 'download.mp4', 'k.key', 'thumbs.vtt', '.seg.m4s', 'a..m4s', 'x/y.m4s', 'seg.M4S']) {
      expect({ f, m: re.test(`/t/v1.abc.def/m/${u}/assets/${u}/v1/${f}`) }).toEqual({ f, m: false });
    }
    for (const f of ['seg_00001.m4s', 'init.mp4', 'video_720p_0001.m4s', 'audio.m4a', 'poster.jpg', 'sprite.webp']) {
      expect({ f, m: re.test(`/t/v1.abc.def/m/${u}/assets/${u}/v1/${f}`) }).toEqual({ f, m: true });
    }
    expect(re.test(`/t/v1.abc.def/m/${u}/assets/${u}/preview/seg.m4s`)).toBe(false);
    // The token's pieces are atomic (a lookahead captures, a backreference consumes): a /t/ path that is not a granted
    // file (live playlists and segments) fails after one greedy split, not after every split of its token (~3.4 ms of
    // nginx CPU per request with plain quantifiers; scripts/bench/edge.ts --parts live).
    const piece = (n: string, min: number) => `(?=(?<${n}>[A-Za-z0-9._-]{${min},200}))\\k<${n}>`;
    expect(/location ~ "([^"]+)"/.exec(conf({ grants: g }))![1].startsWith(`^/t/${piece('vs_c1', 1)}${piece('vs_c2', 0)}${piece('vs_c3', 0)}/m/`)).toBe(true);
    expect(re.test(`/t/v1.abc.def/m/${u.toUpperCase()}/assets/${u}/v1/seg.m4s`)).toBe(false);
  });
  test('grantedDir is where the location sends from', () => {
    expect(grantedDir('t', 'a', 'v2')).toBe('media/t/assets/a/v2');
  });
});

describe('the forwarding rule (issue 41): only exactly what a location matched reaches the appliance', () => {
  /** The raw-path map's two patterns, as nginx reads them (unquoted), as JavaScript regular expressions. */
  const mapOf = (t: string) => {
    const m = /map \$request_uri \$vs_raw_path \{ "~([^"]+)" "!"; "~([^"]+)" \$vs_raw; \}/.exec(t);
    expect(m).not.toBeNull();
    return { refuse: new RegExp(nginxUnquote(m![1])), path: new RegExp(nginxUnquote(m![2]).replace(/\(\?<(\w+)>/g, '(?<$1>')) };
  };
  test('every delivery location refuses (400) a raw path that is not its matched URI, before it proxies', () => {
    for (const t of [conf(), conf({ grants: { dir: '/run/vs/grants', spool: '/run/vs/granted.log' } })]) {
      for (const p of ['/t/', '/m/', '/live/']) expect(t).toContain(`location ${p} { if ($vs_raw_path != $uri) { return 400; } proxy_pass http://vs_appliance;`);
      expect(t.match(/map \$request_uri \$vs_raw_path/g)).toHaveLength(1);
      // Nothing else is proxied: the only proxy_pass lines are the delivery locations' (and the Sites Delivery API's) and (with grants) @vs_ask's.
      expect(t).toContain('location /s/v1/ { if ($vs_raw_path != $uri) { return 400; } proxy_pass http://vs_appliance;');
      const proxied = t.split('\n').filter((l) => l.includes('proxy_pass'));
      expect(proxied.every((l) => /location (\/t\/|\/m\/|\/live\/|\/s\/v1\/|@vs_ask) \{ if \(\$vs_raw_path != \$(uri|vs_matched)\) \{ return 400; \}/.test(l))).toBe(true);
      // Its own refusals are problem details that are never stored.
      for (const code of [400, 404, 502]) expect(t).toMatch(new RegExp(`location = /_vs_problem/${code} \\{ internal; default_type application/problem\\+json; add_header Cache-Control no-store always; return ${code} `));
    }
  });
  test('the raw path: up to the query; a backslash or # in it never equals a URI', () => {
    const { refuse, path } = mapOf(conf());
    const raw = (u: string) => (refuse.test(u) ? '!' : path.exec(u)!.groups!.vs_raw);
    expect(raw('/m/a/b.m4s')).toBe('/m/a/b.m4s');
    expect(raw('/m/a/b.m4s?x=\\..#')).toBe('/m/a/b.m4s');
    expect(raw('/m/a/b.m4s?')).toBe('/m/a/b.m4s');
    expect(raw('/t/tok/m/a%2e%2e/b')).toBe('/t/tok/m/a%2e%2e/b');
    for (const u of ['/m/x\\..\\..\\v1\\me', '/live/x\\', '/t/a#/../b', '/m/\\?q']) expect({ u, raw: raw(u) }).toEqual({ u, raw: '!' });
  });
});

describe('frontGrantsFromEnv', () => {
  test('on unless off; anything else is refused', () => {
    expect(frontGrantsFromEnv({})).toBe(true);
    expect(frontGrantsFromEnv({ [FRONT_GRANTS_ENV]: 'on' })).toBe(true);
    expect(frontGrantsFromEnv({ [FRONT_GRANTS_ENV]: ' OFF ' })).toBe(false);
    expect(() => frontGrantsFromEnv({ [FRONT_GRANTS_ENV]: 'no' })).toThrow(FRONT_GRANTS_ENV);
  });
});

describe('frontSndbufFromEnv', () => {
  test('auto or unset: null (the kernel autotunes); a size from 16k to 64m as nginx writes it; anything else refused', () => {
    expect(frontSndbufFromEnv({})).toBeNull();
    expect(frontSndbufFromEnv({ [FRONT_SNDBUF_ENV]: ' Auto ' })).toBeNull();
    expect(frontSndbufFromEnv({ [FRONT_SNDBUF_ENV]: '256k' })).toBe('256k');
    expect(frontSndbufFromEnv({ [FRONT_SNDBUF_ENV]: '1M' })).toBe('1m');
    expect(frontSndbufFromEnv({ [FRONT_SNDBUF_ENV]: '65536' })).toBe('65536');
    for (const bad of ['15k', '65m', '0', '-1k', '1g', '256 k', '256kb', '1e6', '0x4000', 'k', '256k;', '256k sndbuf=1m'])
      expect(() => frontSndbufFromEnv({ [FRONT_SNDBUF_ENV]: bad })).toThrow(FRONT_SNDBUF_ENV);
  });

  test('renderFrontConf puts it on the listen socket and refuses a size nginx would not read', () => {
    expect(conf({ sndbuf: '256k' })).toContain('listen 127.0.0.1:8081 reuseport sndbuf=256k;');
    expect(conf()).toContain('listen 127.0.0.1:8081 reuseport;');
    for (const bad of ['256k; user root', '', 'big']) expect(() => conf({ sndbuf: bad })).toThrow(/send buffer/);
  });
});

describe('cache-file alignment (cache-align.ts)', () => {
  test('the padding puts the body at a page boundary for every measured length, 1..4096 bytes, and the maps carry it', () => {
    for (let len = 1; len <= 1500; len++) {
      const pad = padLength(len);
      expect(pad).toBeGreaterThanOrEqual(1);
      expect(pad).toBeLessThanOrEqual(ALIGN);
      expect((FIXED + len + pad) % ALIGN).toBe(0);
    }
    // The three maps' values for one length add up to its padding (the origin sends $vs_pad_h twice).
    const maps = cacheAlignMaps();
    const len = 148, want = padLength(len);
    const code = new RegExp(`"~\\^\\.\\{${len}\\}\\$" ([0-9a-g]{3});`).exec(maps)![1]!;
    const valueOf = (name: string, re: (d: string) => string) => {
      const block = new RegExp(`map \\$vs_padn \\$${name} \\{([^}]*)\\}`).exec(maps)![1]!;
      const row = new RegExp(`"~${re(code)}" "(x*)";`).exec(block);
      return row ? row[1]!.length : -1;
    };
    const h = valueOf('vs_pad_h', (c) => `\\^${c[0]}`), m = valueOf('vs_pad_m', (c) => `\\^\\.${c[1]}`), l = valueOf('vs_pad_l', (c) => `\\^\\.\\.${c[2]}`);
    expect(2 * h + m + l).toBe(want);
    // No configuration token reaches nginx's 4 kB limit.
    expect(Math.max(...maps.split('\n').map((x) => x.length))).toBeLessThan(4000);
  });
});
