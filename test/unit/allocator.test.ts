import { describe, expect, test } from 'bun:test';
import { allocatorReexec } from '../../src/kernel/runtime/allocator';
import { spawnServe } from '../helpers/proc';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('allocator tuning (serve re-executes itself with MIMALLOC_PURGE_DELAY=-1)', () => {
  test('serve from source keeps the runtime flags, the script and every argument', () => {
    const r = allocatorReexec('serve', ['/usr/bin/bun', '/app/src/main.ts', 'serve', '--port', '0'], { PATH: '/bin' }, '/usr/bin/bun', ['--cpu-prof']);
    expect(r).toEqual({ file: '/usr/bin/bun', args: ['/usr/bin/bun', '--cpu-prof', '/app/src/main.ts', 'serve', '--port', '0'], env: { PATH: '/bin', MIMALLOC_PURGE_DELAY: '-1' } });
  });
  test('a compiled binary passes its arguments only (its entry point is embedded)', () => {
    const r = allocatorReexec('serve', ['bun', '/$bunfs/root/viewstream', '--data', 'd', 'serve'], {}, '/usr/local/bin/viewstream', []);
    expect(r?.args).toEqual(['/usr/local/bin/viewstream', '--data', 'd', 'serve']);
  });
  test('left alone: an operator-set value (any), the re-executed process itself, other commands', () => {
    expect(allocatorReexec('serve', ['bun', 'main.ts', 'serve'], { MIMALLOC_PURGE_DELAY: '100' }, 'bun', [])).toBeNull();
    expect(allocatorReexec('serve', ['bun', 'main.ts', 'serve'], { MIMALLOC_PURGE_DELAY: '-1' }, 'bun', [])).toBeNull();
    for (const cmd of ['doctor', 'key', 'delivery-worker']) expect(allocatorReexec(cmd, ['bun', 'main.ts', cmd], {}, 'bun', [])).toBeNull();
    expect(allocatorReexec(undefined, ['bun', 'main.ts'], {}, 'bun', [])).toBeNull();
  });
  test('a started server runs with the setting under its own pid, and an operator value wins', async () => {
    for (const given of [undefined, '250']) {
      const dir = mkdtempSync(join(tmpdir(), 'vs-alloc-'));
      const app = await spawnServe(['bun', 'src/main.ts', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', join(dir, 'data')], given ? { MIMALLOC_PURGE_DELAY: given } : {});
      try {
        expect((await fetch(`${app.url}/healthz`)).status).toBeLessThan(500);
        const env = readFileSync(`/proc/${app.proc.pid}/environ`, 'utf8').split('\0');
        expect(env).toContain(`MIMALLOC_PURGE_DELAY=${given ?? '-1'}`);
      } finally {
        app.kill('SIGTERM');
        await app.proc.exited;
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
