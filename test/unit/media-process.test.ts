import { expect, test } from 'bun:test';
import { runTool, TOOL_MALLOC_TUNABLES } from '../../src/media/process';

/** What a tool started by runTool sees as GLIBC_TUNABLES ('<unset>' when absent). */
async function seen(mallocTunables: boolean, env?: Record<string, string>): Promise<string> {
  const out: string[] = [];
  const r = await runTool(['sh', '-c', 'echo "${GLIBC_TUNABLES-<unset>}"'], { env, mallocTunables, onStdoutLine: (l) => out.push(l) }).done;
  expect(r.code).toBe(0);
  return out.join('\n');
}

test('malloc tunables only where asked (stream-copy remuxes); an explicit GLIBC_TUNABLES (even empty) wins', async () => {
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  expect(await seen(true, base)).toBe(TOOL_MALLOC_TUNABLES);
  expect(await seen(false, base)).toBe('<unset>');
  expect(await seen(true, { ...base, GLIBC_TUNABLES: '' })).toBe('');
  expect(await seen(true, { ...base, GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' })).toBe('glibc.malloc.arena_max=1');
  // Without a caller env the server's own environment is passed on, tunables added unless it sets them.
  expect(await seen(true)).toBe(process.env.GLIBC_TUNABLES ?? TOOL_MALLOC_TUNABLES);
});
