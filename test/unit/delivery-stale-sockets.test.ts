import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepStaleSocketDirs } from '../../src/delivery-worker/stale-sockets';

test('removes only old socket directories whose socket refuses or is missing; keeps live, young and foreign ones', async () => {
  const root = mkdtempSync(join(tmpdir(), 'vs-test-stale-'));
  const made = (name: string) => { const d = join(root, name); mkdirSync(d); return d; };
  const dead = made('vs-dw-dead');
  writeFileSync(join(dead, 'main.sock'), ''); // not a socket any more: connecting is refused
  const empty = made('vs-dw-empty');
  const alive = made('vs-dw-alive');
  const server = Bun.listen({ unix: join(alive, 'main.sock'), socket: { data() {} } });
  const young = made('vs-dw-young');
  writeFileSync(join(young, 'main.sock'), '');
  const foreign = made('other-dir');
  const old = (Date.now() - 3_600_000) / 1000;
  for (const d of [dead, empty, alive, foreign]) utimesSync(d, old, old);
  try {
    const removed = await sweepStaleSocketDirs(root, 60_000);
    expect(removed.sort()).toEqual([dead, empty].sort());
    expect(existsSync(alive) && existsSync(young) && existsSync(foreign)).toBe(true);
  } finally {
    server.stop(true);
    rmSync(root, { recursive: true, force: true });
  }
});
