import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { runTool, TOOL_MALLOC_TUNABLES } from '../../src/media/process';
import { TRANSCODE_NICE, transcodeNice } from '../../src/features/transcode/encoder';

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

/**
 * Field `field` of /proc/<pid>/stat (counted after the command name: 17 is the niceness, 39 the scheduling policy) of
 * a tool started by runTool with `o` and of a background child it starts (a second thread of work, as an encoder's
 * threads or nginx's workers would be).
 */
async function statOf(field: number, o: Parameters<typeof runTool>[1]): Promise<number[]> {
  const out: string[] = [];
  const script = `sleep 5 & for p in $$ $!; do sed "s/.*) //" /proc/$p/stat | cut -d" " -f${field}; done; kill $!`;
  const r = await runTool(['sh', '-c', script], { ...o, onStdoutLine: (l) => out.push(l.trim()) }).done;
  expect(r.code).toBe(0);
  return out.map(Number);
}

/** The niceness of a tool started by runTool and of its child, as the kernel reports it. */
const niceOf = (nice: number | undefined) => statOf(17, { nice });

const AUTOGROUP = existsSync('/proc/self/autogroup');

/** The niceness of the scheduling group (autogroup) of a tool started by runTool, as it reads it itself. */
async function groupNiceOf(nice: number | undefined): Promise<number> {
  const out: string[] = [];
  // Read after a moment: the server sets the group's niceness just after the start.
  const r = await runTool(['sh', '-c', 'sleep 0.2; cat /proc/$$/autogroup'], { nice, onStdoutLine: (l) => out.push(l) }).done;
  expect(r.code).toBe(0);
  return Number(/nice (-?\d+)/.exec(out.join(' '))?.[1]);
}

test.skipIf(!AUTOGROUP)('with autogroup scheduling, the tool\'s own session group gets the niceness (threads\' niceness does not count across groups)', async () => {
  expect(await groupNiceOf(7)).toBe(7);
  expect(await groupNiceOf(undefined)).toBe(0);
});

test('batch tools run at the niceness asked (in place, before they start any work); none asked: the server\'s own', async () => {
  const own = Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16]);
  expect(await niceOf(7)).toEqual([Math.min(19, own + 7), Math.min(19, own + 7)]); // added to the server's own
  expect(await niceOf(undefined)).toEqual([own, own]);
  expect(await niceOf(0)).toEqual([own, own]);
  expect(await niceOf(99)).toEqual([19, 19]); // clamped to the kernel's range
});

test('VS_TRANSCODE_NICE: 0-19, anything else the default', () => {
  expect(transcodeNice({})).toBe(TRANSCODE_NICE);
  expect(transcodeNice({ VS_TRANSCODE_NICE: '0' })).toBe(0);
  expect(transcodeNice({ VS_TRANSCODE_NICE: ' 15 ' })).toBe(15);
  expect(transcodeNice({ VS_TRANSCODE_NICE: '40' })).toBe(19);
  for (const bad of ['', '-5', 'high', '1e3', '3.5']) expect(transcodeNice({ VS_TRANSCODE_NICE: bad })).toBe(TRANSCODE_NICE);
});

/** The scheduling policy (0 normal, 3 batch) of a tool started by runTool and of its child. */
const policyOf = (batch: boolean | undefined) => statOf(39, { batch });

test('batch: the tool and the children it starts run under SCHED_BATCH; otherwise the normal policy', async () => {
  if (!Bun.which('chrt')) throw new Error('chrt (util-linux) not found');
  expect(await policyOf(true)).toEqual([3, 3]);
  expect(await policyOf(false)).toEqual([0, 0]);
  expect(await policyOf(undefined)).toEqual([0, 0]);
});
