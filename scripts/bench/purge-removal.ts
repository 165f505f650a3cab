/**
 * The edge purge's file removal (issue 46), same run, alternating rounds: 10,000 cache files laid out as nginx names
 * them (`levels=1:2` under the md5 of the key, src/delivery-front/edge-conf.ts `cacheFileOf`) removed by
 *   baseline: the former way, 8 async unlinks in flight (a promise and event-loop round trip per key), and
 *   batch:    `unlinkAll` (src/delivery-front/purge-unlink.ts): one pass of synchronous unlinks, 256 at a time.
 * Per round: wall time, the process's CPU time and the event loop's longest stall while it ran
 * (a 1 ms timer's lateness). Prints medians and batch/baseline ratios.
 *
 * Usage: bun scripts/bench/purge-removal.ts [--keys 10000] [--rounds 5] [--kb 16]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cacheFileOf } from '../../src/delivery-front/edge-conf';
import { unlinkAll } from '../../src/delivery-front/purge-unlink';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' }, kb: { type: 'string', default: '16' } } });
const KEYS = Number(values.keys), ROUNDS = Number(values.rounds), BODY = Buffer.alloc(Number(values.kb) * 1024, 1);
const dir = mkdtempSync(join(tmpdir(), 'vs-purge-bench-'));

const fill = (): string[] => {
  const files = Array.from({ length: KEYS }, (_, i) => cacheFileOf(dir, `f|media/t/assets/a/v1/seg_0_${i}.m4s`));
  for (const f of files) { mkdirSync(f.slice(0, f.lastIndexOf('/')), { recursive: true }); writeFileSync(f, BODY); }
  return files;
};

/** The removal before this change (cache-index.ts until issue 46's batch purge): 8 unlinks in flight. */
async function baseline(files: string[]): Promise<number> {
  let removed = 0;
  await Promise.all(Array.from({ length: 8 }, async (_, w) => {
    for (let i = w; i < files.length; i += 8) { try { await unlink(files[i]!); removed++; } catch { /* gone */ } }
  }));
  return removed;
}

async function measure(run: (f: string[]) => Promise<number>) {
  const files = fill();
  let stall = 0, last = performance.now();
  const t = setInterval(() => { const now = performance.now(); stall = Math.max(stall, now - last - 1); last = now; }, 1);
  const cpu0 = process.cpuUsage(), t0 = performance.now();
  const removed = await run(files);
  const wall = performance.now() - t0, cpu = process.cpuUsage(cpu0);
  clearInterval(t);
  if (removed !== KEYS) throw new Error(`removed ${removed} of ${KEYS}`);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, stall };
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const res = { baseline: [] as Awaited<ReturnType<typeof measure>>[], batch: [] as Awaited<ReturnType<typeof measure>>[] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so a load change mid-run does not favour one.
    const order = r % 2 ? (['batch', 'baseline'] as const) : (['baseline', 'batch'] as const);
    for (const k of order) res[k].push(await measure(k === 'batch' ? unlinkAll : baseline));
  }
  const row = (k: keyof typeof res) => ({ wall: med(res[k].map((x) => x.wall)), cpu: med(res[k].map((x) => x.cpu)), stall: med(res[k].map((x) => x.stall)) });
  const b = row('baseline'), n = row('batch');
  const load = (await Bun.file('/proc/loadavg').text()).split(' ').slice(0, 3).join(' ');
  console.log(`purge removal of ${KEYS} cache files (${values.kb} KB each), median of ${ROUNDS} rounds, load ${load}`);
  console.log(`  baseline (8 async unlinks in flight): wall ${b.wall.toFixed(0)} ms, CPU ${b.cpu.toFixed(0)} ms, event-loop stall max ${b.stall.toFixed(1)} ms`);
  console.log(`  batch (one pass, slices of 256):     wall ${n.wall.toFixed(0)} ms, CPU ${n.cpu.toFixed(0)} ms, event-loop stall max ${n.stall.toFixed(1)} ms`);
  console.log(`  ratio batch/baseline: wall ${(n.wall / b.wall).toFixed(2)}x, CPU ${(n.cpu / b.cpu).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
