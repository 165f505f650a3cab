#!/usr/bin/env bun
/**
 * Input monitoring benchmark (issue 48): CPU of the input monitor against the live ingest it watches, measured in the
 * same run, as CPU seconds (user + system, from the kernel's accounting of each ffmpeg) per second of media.
 * A --seconds long 1280x720@25 H.264 (~3 Mb/s) + AAC MPEG-TS, as an encoder sends it, is first made once; then:
 *  (1) ingest: the passthrough ingest (stream copy into CMAF segments, as live-ingest.ts packages a feed) — the baseline;
 *  (2) monitor 720p: the input monitor (inputMonitorArgs, every check on) reading those segments through its pipe, as a
 *      passthrough channel's monitor does;
 *  (3) monitor 360p: the same on a 360p rendition (the lowest rung a ladder channel's monitor reads);
 *  (4) in-ingest filters: the alternative of running the same filters as a second output of the ingest ffmpeg itself.
 * Prints each figure and its ratio to (1). Usage: bun scripts/bench/input-checks.ts [--seconds 20]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { inputMonitorArgs, INPUT_CHECK_DEFAULTS } from '../../src/media/args/input-checks';

const arg = (name: string, def: number) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? Number(process.argv[i + 1]) : def; };
const SECONDS = arg('seconds', 20);
const dir = mkdtempSync(join(tmpdir(), 'vs-bench-ic-'));

/** Runs a command to its end; returns its CPU seconds (user + system). */
async function cpu(argv: string[], stdin?: string): Promise<number> {
  const p = Bun.spawn(argv, { stdin: stdin ? Bun.file(stdin) : 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const err = await new Response(p.stderr).text();
  if ((await p.exited) !== 0) throw new Error(`${argv.slice(0, 3).join(' ')} failed: ${err.slice(-400)}`);
  const u = p.resourceUsage()!;
  return (Number(u.cpuTime.user) + Number(u.cpuTime.system)) / 1e6;
}

const q = ['-nostdin', '-hide_banner', '-loglevel', 'error'];
/** A feed like an encoder's: moving picture and a tone. */
async function makeFeed(size: string, kbps: number, out: string) {
  await cpu(['ffmpeg', ...q, '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(SECONDS),
    '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', `${kbps}k`, '-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', '-y', out]);
}

/** The passthrough ingest's packaging (live-ingest.ts): copy into 2 s CMAF segments; optionally the filters as a second output. */
function ingest(input: string, outDir: string, filters = false): string[] {
  const f = inputMonitorArgs({ ffmpeg: 'ffmpeg', th: INPUT_CHECK_DEFAULTS, video: true, audio: true, on: { black: true, freeze: true, silence: true, loudness: true } })!;
  const fc = f[f.indexOf('-filter_complex') + 1];
  return ['ffmpeg', ...q, '-f', 'mpegts', '-i', input, '-map', '0:v:0', '-map', '0:a:0', '-c', 'copy', '-bsf:a', 'aac_adtstoasc',
    '-f', 'hls', '-hls_time', '2', '-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'init.mp4', '-hls_flags', 'temp_file+independent_segments',
    '-hls_list_size', '0', '-hls_segment_filename', `${outDir}/s%d.m4s`, `${outDir}/index.m3u8`,
    ...(filters ? ['-filter_complex', fc, '-map', '[v]', '-map', '[a]', '-f', 'null', '-'] : [])];
}

/** What the monitor's pipe carries: the init segment, then every media segment in order. */
function pipeFile(segDir: string): string {
  const segs = readdirSync(segDir).filter((n) => /^s\d+\.m4s$/.test(n)).sort((a, b) => Number(a.slice(1, -4)) - Number(b.slice(1, -4)));
  const file = join(segDir, 'pipe.mp4');
  writeFileSync(file, Buffer.concat([readFileSync(join(segDir, 'init.mp4')), ...segs.map((n) => readFileSync(join(segDir, n)))]));
  return file;
}

const monitor = () => inputMonitorArgs({ ffmpeg: 'ffmpeg', th: INPUT_CHECK_DEFAULTS, video: true, audio: true, on: { black: true, freeze: true, silence: true, loudness: true } })!.slice(0);

try {
  const feed720 = join(dir, 'feed720.ts'), feed360 = join(dir, 'feed360.ts');
  await makeFeed('1280x720', 3000, feed720);
  await makeFeed('640x360', 700, feed360);
  const d720 = join(dir, 'seg720'), d360 = join(dir, 'seg360'), dx = join(dir, 'segx');
  for (const d of [d720, d360, dx]) Bun.spawnSync(['mkdir', '-p', d]);
  const base = await cpu(ingest(feed720, d720));
  await cpu(ingest(feed360, d360));
  const m720 = await cpu(monitor(), pipeFile(d720));
  const m360 = await cpu(monitor(), pipeFile(d360));
  const inIngest = await cpu(ingest(feed720, dx, true)) - base;
  const per = (x: number) => `${((x / SECONDS) * 100).toFixed(2)} % of a core`;
  console.log(`media: ${SECONDS} s of 1280x720@25 ~3 Mb/s H.264 + AAC`);
  console.log(`(1) passthrough ingest (baseline)          ${per(base)}`);
  console.log(`(2) input monitor, 720p source rendition   ${per(m720)}  = ${(m720 / base).toFixed(2)}x the ingest`);
  console.log(`(3) input monitor, 360p lowest rung        ${per(m360)}  = ${(m360 / base).toFixed(2)}x the ingest`);
  console.log(`(4) same filters inside the ingest (extra) ${per(inIngest)}  = ${(inIngest / base).toFixed(2)}x the ingest`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
