import { afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FrontGrants, grantRel } from '../../src/delivery-front/grants';
import { splitSpool } from '../../src/delivery-front/spool';
import type { Grant } from '../../src/features/playback/gate';

const T = '0a1b2c3d-0000-4000-8000-00000000000a', A = '0a1b2c3d-0000-4000-8000-00000000000b';
let dirs: string[] = [];
afterEach(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); dirs = []; });
const store = (now: { t: number }, o: { max?: number } = {}) => {
  const d = mkdtempSync(join(tmpdir(), 'vs-grants-'));
  dirs.push(d);
  return new FrontGrants(join(d, 'grants'), { now: () => now.t, ...o });
};
const grant = (token: string, sid: string, expS: number, over: Partial<Grant> = {}): Grant => ({
  token, sid, expS, tenant: { id: T, slug: 'default' }, target: { kind: 'asset', id: A, encrypted: false, file: 'seg.m4s' },
  asset: A, ver: 'v1', rel: `media/${T}/assets/${A}/v1`, ...over,
});
const tok = (n: number) => `v1.${'p'.repeat(n)}.${'s'.repeat(42)}${n % 10}`;

describe('FrontGrants', () => {
  test('a grant is one empty file at grantRel; its session\'s revocation removes it and its now-empty directories', () => {
    const now = { t: 1_000_000 };
    const g = store(now);
    g.offer(grant(tok(300), 'sid-1', 2000));
    g.offer(grant(tok(301), 'sid-1', 2000));
    g.offer(grant(tok(302), 'sid-2', 2000));
    expect(g.size()).toBe(3);
    const f = join(g.dir, grantRel(tok(300), T, A, 'v1')!);
    expect(existsSync(f)).toBe(true);
    expect(Bun.file(f).size).toBe(0);
    g.dropSession('sid-1');
    expect(g.size()).toBe(1);
    expect(existsSync(f)).toBe(false);
    expect(readdirSync(g.dir)).toHaveLength(1); // only sid-2's token directory is left
    expect(g.infoOf(tok(302).slice(-43))?.sid).toBe('sid-2');
  });

  test('dropAll empties the directory in one step and later grants are made afresh', () => {
    const now = { t: 1_000_000 };
    const g = store(now);
    for (let i = 0; i < 5; i++) g.offer(grant(tok(200 + i), `s${i}`, 2000));
    g.dropAll();
    expect(g.size()).toBe(0);
    expect(readdirSync(g.dir)).toEqual([]);
    g.offer(grant(tok(200), 's0', 2000));
    expect(existsSync(join(g.dir, grantRel(tok(200), T, A, 'v1')!))).toBe(true);
  });

  test('dropAll still removes every grant when the directory cannot be renamed away', () => {
    const now = { t: 1_000_000 };
    const g = store(now);
    for (let i = 0; i < 3; i++) g.offer(grant(tok(200 + i), `s${i}`, 2000));
    const files = [0, 1, 2].map((i) => join(g.dir, grantRel(tok(200 + i), T, A, 'v1')!));
    // A non-empty directory where the renamed one would go: rename(2) refuses (ENOTEMPTY), for root too.
    const { writeFileSync, mkdirSync } = require('node:fs') as typeof import('node:fs');
    mkdirSync(`${g.dir}.old-${process.pid}-1`, { recursive: true });
    writeFileSync(join(`${g.dir}.old-${process.pid}-1`, 'x'), 'blocks the rename');
    g.dropAll();
    expect(g.size()).toBe(0);
    for (const f of files) expect(existsSync(f)).toBe(false);
    expect(existsSync(join(`${g.dir}.old-${process.pid}-1`, 'x'))).toBe(true); // the rename did not happen
  });

  test('removed a second before the token expires, after 300 s at most; never made for a token about to expire', () => {
    const now = { t: 1_000_000 };
    const g = store(now);
    g.offer(grant(tok(100), 'a', 1010)); // expires at 1,010,000 ms
    g.offer(grant(tok(101), 'b', 5000)); // far away: 300 s cap
    g.offer(grant(tok(102), 'c', 1002)); // 2 s left: not worth it
    expect(g.size()).toBe(2);
    now.t = 1_008_999; g.sweep(); expect(g.size()).toBe(2);
    now.t = 1_009_000; g.sweep(); expect(g.size()).toBe(1);
    now.t = 1_300_000; g.sweep(); expect(g.size()).toBe(0);
  });

  test('only outputs where the front looks, tokens it can carry, and up to the cap', () => {
    const now = { t: 1_000_000 };
    const g = store(now, { max: 2 });
    g.offer(grant(tok(100), 'a', 2000, { rel: `media/${T}/assets/${A}/elsewhere` }));
    g.offer(grant(`v1.${'x'.repeat(700)}`, 'a', 2000));
    g.offer(grant('v1.a/b.c', 'a', 2000));
    g.offer(grant(tok(100), 'a', 2000, { ver: 'preview' }));
    expect(g.size()).toBe(0);
    for (let i = 0; i < 4; i++) g.offer(grant(tok(100 + i), 'a', 2000));
    expect(g.size()).toBe(2);
  });
});

describe('splitSpool', () => {
  test('complete lines parsed, the unfinished tail kept for the next read, torn lines skipped', () => {
    const line = (i: number) => JSON.stringify({ t: i, m: 'GET', s: 200, l: '10', sig: 'x', ten: T, ast: A, ver: 'v1', f: 'a.m4s', ip: '', ua: '', ref: '' });
    const a = splitSpool('', `${line(1)}\n${line(2)}\n${line(3).slice(0, 20)}`);
    expect(a.lines.map((l) => l.t)).toEqual([1, 2]);
    const b = splitSpool(a.rest, `${line(3).slice(20)}\n{torn\n${line(4)}\n`);
    expect(b.lines.map((l) => l.t)).toEqual([3, 4]);
    expect(b.rest).toBe('');
  });
});

describe('tailSpool', () => {
  test('every line once across rotations: the renamed file is read to its end, the reopened one from its start', async () => {
    const d = mkdtempSync(join(tmpdir(), 'vs-spool-'));
    dirs.push(d);
    const path = join(d, 'granted.log');
    const { appendFileSync, openSync, writeSync, closeSync } = await import('node:fs');
    const { tailSpool } = await import('../../src/delivery-front/spool');
    // The writer (nginx) keeps its descriptor until told to reopen; until then its lines go to the renamed file.
    let fd = openSync(path, 'a');
    let reopened = 0, rotations = 0;
    const seen: number[] = [];
    const t = tailSpool(path, (ls) => { for (const l of ls) seen.push(l.t); }, { everyMs: 5, rotateBytes: 400, reopen: () => { reopened++; rotations++; } });
    const line = (i: number) => `${JSON.stringify({ t: i, m: 'GET', s: 200, l: '1', sig: 's', ten: T, ast: A, ver: 'v1', f: 'a.m4s', ip: '', ua: '', ref: '' })}\n`;
    for (let i = 0; i < 60; i++) {
      writeSync(fd, line(i));
      if (reopened && i % 7 === 0) { closeSync(fd); fd = openSync(path, 'a'); reopened = 0; }
      await Bun.sleep(2);
    }
    closeSync(fd);
    appendFileSync(path, '');
    const end = Date.now() + 5000;
    while (seen.length < 60 && Date.now() < end) await Bun.sleep(10);
    t.stop();
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(rotations).toBeGreaterThan(0);
  });
});
