import { afterAll, expect, test } from 'bun:test';
import { closeSync, mkdtempSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fdCache, SENDFILE_MIN_BYTES, type FdCache } from '../../src/kernel/fs/fd-cache';
import { waitFor } from '../helpers/server';

const dir = mkdtempSync(join(tmpdir(), 'vs-fdcache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const a = join(dir, 'a.m4s');
const original = randomBytes(24 * 1024 * 1024);
writeFileSync(a, original);
const other = join(dir, 'other.m4s');
writeFileSync(other, Buffer.alloc(24 * 1024 * 1024, 0x58)); // 'X' everywhere: never part of `original`'s answer

/** A raw HTTP/1.1 GET whose reading can be paused (the TCP window then fills and the server's send stalls). */
function slowGet(port: number): { sock: Socket; got: () => Buffer; ended: Promise<void> } {
  const chunks: Buffer[] = [];
  const sock = connect(port, '127.0.0.1');
  sock.write('GET /a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  sock.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => { sock.on('close', () => resolve()); sock.on('error', () => resolve()); });
  return { sock, got: () => Buffer.concat(chunks), ended };
}

/** The body of a raw answer, checked to be a prefix of `original` (a cut answer is fine, other bytes are not). */
function bodyIsPrefix(raw: Buffer): number {
  const at = raw.indexOf('\r\n\r\n');
  expect(at).toBeGreaterThan(0);
  const body = raw.subarray(at + 4);
  expect(body.equals(original.subarray(0, body.length))).toBe(true);
  return body.length;
}

/** A server answering `GET /<name>` from the cache (whole file, as serveFile does), and a fetch of its bytes. */
function cacheServer(c: FdCache, idleTimeout = 10) {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout, fetch: (r) => { const p = join(dir, new URL(r.url).pathname.slice(1)); return new Response(c.body(p, statSync(p))); } });
  const get = async (name: string) => Buffer.from(await (await fetch(`http://127.0.0.1:${server.port}/${name}`)).arrayBuffer());
  return { server, get };
}

test('runtime: a descriptor is sent at its own offset from SENDFILE_MIN_BYTES up, and read from its position below (why small files go by path)', async () => {
  const at = join(dir, 'at.bin'), below = join(dir, 'below.bin');
  writeFileSync(at, randomBytes(SENDFILE_MIN_BYTES));
  writeFileSync(below, randomBytes(SENDFILE_MIN_BYTES - 1));
  const fdAt = openSync(at, 'r'), fdBelow = openSync(below, 'r');
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (r) => new Response(Bun.file(r.url.endsWith('/at') ? fdAt : fdBelow)) });
  const size = async (p: string) => { try { return (await (await fetch(`http://127.0.0.1:${server.port}/${p}`, { signal: AbortSignal.timeout(1500) })).arrayBuffer()).byteLength; } catch { return -1; } };
  try {
    for (let i = 0; i < 3; i++) expect(await size('at')).toBe(SENDFILE_MIN_BYTES);
    expect(await size('below')).toBe(SENDFILE_MIN_BYTES - 1);
    expect(await size('below')).not.toBe(SENDFILE_MIN_BYTES - 1); // the first answer moved the position to the end
  } finally { server.stop(true); closeSync(fdAt); closeSync(fdBelow); }
}, 20_000);

test('fdCache: whole answers reuse one descriptor while the file is the same; a replaced file gets a new one and the old turns into /dev/null', async () => {
  let t = 0;
  const c = fdCache({ idleTimeoutS: 1, now: () => t })!;
  expect(c).not.toBeNull();
  const { server, get } = cacheServer(c);
  try {
    const first = randomBytes(SENDFILE_MIN_BYTES + 5), second = randomBytes(SENDFILE_MIN_BYTES + 7);
    const p = join(dir, 'r.m4s');
    writeFileSync(p, first);
    for (let i = 0; i < 3; i++) expect((await get('r.m4s')).equals(first)).toBe(true);
    expect(c.counts()).toEqual({ open: 1, cooling: 0 });
    // Replaced (rename over it, as packagers do): new inode, new descriptor; the old one nullified, not yet closed.
    writeFileSync(p + '.tmp', second);
    renameSync(p + '.tmp', p);
    expect((await get('r.m4s')).equals(second)).toBe(true);
    expect(c.counts()).toEqual({ open: 1, cooling: 1 });
    // Small files are never kept (the runtime reads them from the descriptor's position).
    writeFileSync(join(dir, 'small.m4s'), 'tiny');
    for (let i = 0; i < 2; i++) expect((await get('small.m4s')).toString()).toBe('tiny');
    expect(c.counts().open).toBe(1);
    t += (2 * 1 + 8) * 1000; // the grace: twice the idle timeout plus the timer granularity
    c.sweep();
    expect(c.counts()).toEqual({ open: 1, cooling: 0 });
  } finally { server.stop(true); }
});

test('fdCache: a stat that no longer matches the file on disk is answered by path (nothing kept)', async () => {
  const c = fdCache({ idleTimeoutS: 1 })!;
  const p = join(dir, 's.m4s');
  writeFileSync(p, randomBytes(SENDFILE_MIN_BYTES));
  const st = statSync(p);
  const newer = randomBytes(SENDFILE_MIN_BYTES + 1);
  writeFileSync(p + '.tmp', newer);
  renameSync(p + '.tmp', p);
  expect(Buffer.from(await c.body(p, st).arrayBuffer()).equals(newer)).toBe(true);
  expect(c.counts().open).toBe(0);
});

test('fdCache: past its size, the least recently used descriptor is retired, never closed at once', () => {
  let t = 0;
  const c = fdCache({ idleTimeoutS: 1, max: 2, now: () => t })!;
  const files = ['1', '2', '3'].map((n) => { const p = join(dir, `lru${n}.m4s`); writeFileSync(p, randomBytes(SENDFILE_MIN_BYTES)); return p; });
  for (const p of files) c.body(p, statSync(p));
  expect(c.counts()).toEqual({ open: 2, cooling: 1 });
});

test('fdCache: an answer still being sent when its descriptor is retired and the number reused gets a cut answer, never another file\'s bytes', async () => {
  // A server with a 1 s idle timeout (grace 10 s). Two clients stop reading mid-answer; the file is replaced, so the
  // cache retires the descriptor they read from. One resumes during the grace (its next read fails: cut answer);
  // the other stays stalled past the grace, after which the number is closed and reused for another file.
  const c = fdCache({ idleTimeoutS: 1 })!;
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', idleTimeout: 1, fetch: () => new Response(c.body(a, statSync(a))) });
  const fdsHeld: number[] = [];
  try {
    const early = slowGet(server.port!), late = slowGet(server.port!);
    await waitFor('both answers started', () => early.got().length > 256 * 1024 && late.got().length > 256 * 1024, 10_000, 10);
    early.sock.pause(); late.sock.pause();
    // Replace the file: the next answer retires the kept descriptor (nullified in place).
    writeFileSync(a + '.tmp', randomBytes(1024));
    renameSync(a + '.tmp', a);
    expect((await fetch(`http://127.0.0.1:${server.port}/a`).then((r) => r.arrayBuffer())).byteLength).toBe(1024);
    expect(c.counts().cooling).toBe(1);
    early.sock.resume();
    await early.ended;
    const earlyLen = bodyIsPrefix(early.got());
    expect(earlyLen).toBeLessThan(original.length);
    // Past the grace the number is closed; open the other file until that number is taken again.
    await waitFor('grace over', () => { c.sweep(); return c.counts().cooling === 0; }, 30_000, 100);
    for (let i = 0; i < 16; i++) fdsHeld.push(openSync(other, 'r'));
    late.sock.resume();
    await late.ended;
    const lateLen = bodyIsPrefix(late.got());
    expect(lateLen).toBeLessThan(original.length);
  } finally {
    for (const fd of fdsHeld) closeSync(fd);
    server.stop(true);
  }
}, 60_000);

test('fdCache: by default it keeps a share of the open-file limit (1/16 kept, 1/8 retired), so a low limit is never exhausted', async () => {
  // A child whose hard limit is 256 (Bun raises the soft limit to it): 16 kept, 32 retired at most, then by path.
  const script = `
    const { fdCache } = require(${JSON.stringify(join(import.meta.dir, '../../src/kernel/fs/fd-cache.ts'))});
    const { openSync, ftruncateSync, closeSync, statSync } = require('node:fs');
    const c = fdCache({ idleTimeoutS: 1 });
    for (let i = 0; i < 80; i++) {
      const p = ${JSON.stringify(dir)} + '/lim' + i + '.m4s';
      const fd = openSync(p, 'w'); ftruncateSync(fd, ${SENDFILE_MIN_BYTES}); closeSync(fd);
      c.body(p, statSync(p));
    }
    console.log(JSON.stringify(c.counts()));`;
  const p = Bun.spawn(['sh', '-c', 'ulimit -Sn 256 && ulimit -Hn 256 && exec "$0" -e "$1"', process.execPath, script], { stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(JSON.parse(out)).toEqual({ open: 16, cooling: 32 });
});

test('fdCache: a descriptor idle past idleMs is retired (a deleted segment does not keep its space), then closed after the grace', async () => {
  let t = 0;
  const c = fdCache({ idleTimeoutS: 1, idleMs: 60_000, now: () => t })!;
  const gone = join(dir, 'gone.m4s'), kept = join(dir, 'kept.m4s');
  writeFileSync(gone, randomBytes(SENDFILE_MIN_BYTES));
  writeFileSync(kept, randomBytes(SENDFILE_MIN_BYTES));
  c.body(gone, statSync(gone));
  t = 30_000;
  c.body(kept, statSync(kept));
  rmSync(gone); // retention removes it; nobody asks for it again
  t = 61_000; // `gone` idle 61 s, `kept` 31 s
  c.sweep();
  expect(c.counts()).toEqual({ open: 1, cooling: 1 });
  t += (2 * 1 + 8) * 1000; // the grace: `gone`'s descriptor is closed, so its space is free
  c.sweep();
  expect(c.counts()).toEqual({ open: 1, cooling: 0 });
  t = 91_000; // `kept` idle 61 s: retired in turn
  c.sweep();
  expect(c.counts()).toEqual({ open: 0, cooling: 1 });
});
