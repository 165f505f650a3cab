import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containedFiles } from '../../src/features/media-delivery/contained';
import { dbMemo } from '../../src/features/media-delivery/db-memo';
import { tokenMemo } from '../../src/features/playback/token-memo';
import { signToken, type Claims } from '../../src/features/playback/token';

let root: string, outside: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vs-fast-root-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'vs-fast-out-')));
  mkdirSync(join(root, 'media/t/assets/a/out-v1'), { recursive: true });
  writeFileSync(join(root, 'media/t/assets/a/out-v1/seg.m4s'), 'inside');
  writeFileSync(join(outside, 'secret.m4s'), 'outside');
});
afterAll(() => { rmSync(root, { recursive: true, force: true }); rmSync(outside, { recursive: true, force: true }); });

test('containedFiles: a plain file inside is served from its real path; a missing one gets its would-be path', () => {
  const f = containedFiles(root);
  expect(f.file('media/t/assets/a/out-v1', 'seg.m4s')?.path).toBe(join(root, 'media/t/assets/a/out-v1/seg.m4s'));
  expect(f.file('media/t/assets/a/out-v1', 'seg.m4s')?.path).toBe(join(root, 'media/t/assets/a/out-v1/seg.m4s'));
  expect(f.file('media/t/assets/a/out-v1', 'none.m4s')?.path).toBe(join(root, 'media/t/assets/a/out-v1/none.m4s'));
  expect(f.file('../x', 'seg.m4s')).toBeNull();
  expect(f.file('media/t/assets/a/out-v1', '../../../../../etc/passwd')).toBeNull();
});

test('containedFiles: a file that becomes a symlink out of the root is refused on the very next call', () => {
  const f = containedFiles(root);
  const p = join(root, 'media/t/assets/a/out-v1/swap.m4s');
  writeFileSync(p, 'inside');
  expect(f.file('media/t/assets/a/out-v1', 'swap.m4s')?.path).toBe(p);
  unlinkSync(p);
  symlinkSync(join(outside, 'secret.m4s'), p);
  expect(f.file('media/t/assets/a/out-v1', 'swap.m4s')).toBeNull();
});

test('containedFiles: a proven directory replaced by a symlink out of the root is refused on the very next call', () => {
  const f = containedFiles(root);
  mkdirSync(join(root, 'media/t/assets/b/out-v1'), { recursive: true });
  writeFileSync(join(root, 'media/t/assets/b/out-v1/secret.m4s'), 'inside');
  expect(f.file('media/t/assets/b/out-v1', 'secret.m4s')?.path).toBe(join(root, 'media/t/assets/b/out-v1/secret.m4s'));
  renameSync(join(root, 'media/t/assets/b/out-v1'), join(root, 'media/t/assets/b/old'));
  symlinkSync(outside, join(root, 'media/t/assets/b/out-v1'));
  expect(f.file('media/t/assets/b/out-v1', 'secret.m4s')).toBeNull();
});

test('containedFiles: a symlink that stays inside its directory is still followed (as containedPath does)', () => {
  const f = containedFiles(root);
  const link = join(root, 'media/t/assets/a/out-v1/alias.m4s');
  symlinkSync(join(root, 'media/t/assets/a/out-v1/seg.m4s'), link);
  expect(f.file('media/t/assets/a/out-v1', 'alias.m4s')?.path).toBe(join(root, 'media/t/assets/a/out-v1/seg.m4s'));
});

test('dbMemo: a value is reused only under the same generation', () => {
  const m = dbMemo<number>();
  let reads = 0;
  const read = () => ++reads;
  expect(m.get(1, 'k', read)).toBe(1);
  expect(m.get(1, 'k', read)).toBe(1);
  expect(m.get(2, 'k', read)).toBe(2);
  expect(m.get(1, 'k', read)).toBe(3);
  expect(m.get(-1, 'k', read)).toBe(4);
  expect(m.get(-1, 'k', read)).toBe(5);
});

test('tokenMemo: a memoised token still expires, and a retired or replaced key verifies again (and fails)', () => {
  const secret = Buffer.alloc(32, 1);
  let current: Buffer | null = secret;
  const keyFor = (kid: string, t: string) => (kid === 'k1' && t === 'T' ? current : null);
  const claims: Claims = { v: 1, kid: 'k1', t: 'T', k: 'asset', i: 'a', e: 1000, s: 's1' };
  const tok = signToken(claims, secret);
  const m = tokenMemo();
  expect(m.verify(tok, keyFor, 10)).toMatchObject({ ok: true });
  expect(m.verify(tok, keyFor, 10)).toMatchObject({ ok: true });
  expect(m.verify(tok, keyFor, 1001)).toEqual({ ok: false, fault: 'expired' });
  current = Buffer.alloc(32, 2); // same kid, another secret: the memo entry no longer applies
  expect(m.verify(tok, keyFor, 10)).toEqual({ ok: false, fault: 'bad_signature' });
  current = null; // retired
  expect(m.verify(tok, keyFor, 10)).toEqual({ ok: false, fault: 'unknown_key' });
  current = Buffer.from(secret); // equal bytes, new object (a reload): verified again, ok
  expect(m.verify(tok, keyFor, 10)).toMatchObject({ ok: true });
  const forged = tok.slice(0, -2) + (tok.endsWith('AA') ? 'AB' : 'AA');
  expect(m.verify(forged, keyFor, 10)).toMatchObject({ ok: false });
});

test('containedFiles: a proven file replaced by another plain file at the same path is proven again and answered with its own stat', () => {
  const f = containedFiles(root);
  const p = join(root, 'media/t/assets/a/out-v1/re.m4s');
  writeFileSync(p, 'first');
  const one = f.file('media/t/assets/a/out-v1', 're.m4s')!;
  expect(one.path).toBe(p);
  expect(one.st?.size).toBe(5);
  unlinkSync(p);
  writeFileSync(p, 'second!');
  const two = f.file('media/t/assets/a/out-v1', 're.m4s')!;
  expect(two.path).toBe(p);
  expect(two.st?.size).toBe(7);
  // A directory is never answered as a proven plain file.
  mkdirSync(join(root, 'media/t/assets/a/out-v1/sub'), { recursive: true });
  expect(f.file('media/t/assets/a/out-v1', 'sub')?.st).toBeUndefined();
});
