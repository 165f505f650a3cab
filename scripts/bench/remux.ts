#!/usr/bin/env bun
/**
 * Stream-copy remux benchmark: the quick-play preview remux (src/media/preview.ts, the same code the appliance runs)
 * of a generated 1080p25 H.264/AAC source, with the malloc tunables the quick-play remux runs with (TOOL_MALLOC_TUNABLES)
 * against glibc's defaults (GLIBC_TUNABLES empty), rounds alternating in the same run. Prints the medians of wall time
 * and CPU seconds (the ffmpeg child's user + system) and their ratios. The preview is published when this remux ends,
 * so its wall time is most of a long source's time to first play (issue 21 goal 2).
 * Usage: bun scripts/bench/remux.ts [--seconds 60] [--rounds 4]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { remuxPreview } from '../../src/media/preview';
import { TOOL_MALLOC_TUNABLES } from '../../src/media/process';
import { ff } from '../../test/e2e/transcode-helpers';
import { cpuSeconds, median } from './lib';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, rounds: { type: 'string', default: '4' } } });
const seconds = Number(values.seconds), rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-remux-'));

/** CPU seconds of this process's waited-for children so far. */
const childCpu = (): number => cpuSeconds('self', { self: false, children: true });

try {
  const src = join(dir, 'src.mp4');
  // Like a camera's or an editor's export: 1080p25, 2 s GOPs, high bitrate (ultrafast at CRF 18: ~17 Mbit/s).
  await ff(['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac', src]);
  const mb = Bun.file(src).size / 1e6;
  const ffmpeg = Bun.which('ffmpeg')!;
  const runs: Record<'tuned' | 'default', { wall: number; cpu: number }[]> = { tuned: [], default: [] };
  const saved = process.env.GLIBC_TUNABLES;
  for (let i = 0; i < rounds * 2; i++) {
    const mode = i % 2 === 0 ? 'tuned' : 'default';
    // runTool passes the server's own GLIBC_TUNABLES when it has one (empty: glibc's defaults), else the tunables.
    if (mode === 'default') process.env.GLIBC_TUNABLES = ''; else delete process.env.GLIBC_TUNABLES;
    const c0 = childCpu(), t0 = performance.now();
    await remuxPreview({ ffmpeg, source: src, outDir: join(dir, 'out'), segmentS: 4 });
    runs[mode].push({ wall: (performance.now() - t0) / 1000, cpu: childCpu() - c0 });
  }
  if (saved === undefined) delete process.env.GLIBC_TUNABLES; else process.env.GLIBC_TUNABLES = saved;
  const m = (mode: 'tuned' | 'default', k: 'wall' | 'cpu') => median(runs[mode].map((r) => r[k]));
  console.log(`preview remux (stream copy to CMAF) of a ${seconds} s 1080p25 source (${mb.toFixed(0)} MB), ${rounds} rounds each, alternating (median)`);
  console.log(`  glibc defaults:        wall ${m('default', 'wall').toFixed(2)} s, CPU ${m('default', 'cpu').toFixed(2)} s`);
  console.log(`  TOOL_MALLOC_TUNABLES:  wall ${m('tuned', 'wall').toFixed(2)} s, CPU ${m('tuned', 'cpu').toFixed(2)} s   (${TOOL_MALLOC_TUNABLES})`);
  console.log(`ratio tuned/defaults: wall ${(m('tuned', 'wall') / m('default', 'wall')).toFixed(2)}, CPU ${(m('tuned', 'cpu') / m('default', 'cpu')).toFixed(2)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
