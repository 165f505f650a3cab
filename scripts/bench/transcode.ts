#!/usr/bin/env bun
/**
 * Transcode benchmark: a generated 1080p25 source through the default ladder in the real appliance (queue, probe,
 * encode, packaging, posters, sprite, download) vs one hand-written ffmpeg command producing the same ladder.
 * Prints time-to-first-playable, time-to-ready and the ratio (target <= 1.10).
 * Usage: bun scripts/bench/transcode.ts [--seconds 60] [--encoder libx264|h264_nvenc|h264_vaapi|h264_qsv]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeArgs } from '../../src/media/args/encode';
import { planLadder } from '../../src/media/ladder';
import { readLadders } from '../../src/features/transcode/ladders';
import { startTestServer, waitFor } from '../../test/helpers/server';
import { registerAsset, ff } from '../../test/e2e/transcode-helpers';

const arg = (n: string, d: string) => { const i = process.argv.indexOf(`--${n}`); return i > 0 ? process.argv[i + 1] : d; };
const seconds = Number(arg('seconds', '60'));
const encoder = arg('encoder', 'libx264') as 'libx264';
process.env.VS_TRANSCODE_ENCODER = encoder;

const tmp = mkdtempSync(join(tmpdir(), 'vs-bench-'));
const src = join(tmp, 'src.mp4');
console.log(`generating ${seconds} s 1080p25 source...`);
await ff(['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', String(seconds),
  '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-pix_fmt', 'yuv420p', '-c:a', 'aac', src]);

// Baseline: the same ladder, one hand-written command (the builder's output is exactly such a command).
const ladders = readLadders(tmp);
const plan = planLadder(ladders.ladders[ladders.default], { codec: 'h264', width: 1920, height: 1080, displayWidth: 1920, displayHeight: 1080, rotation: 0, fps: 25, pixFmt: 'yuv420p', bitDepth: 8, hdr: false, profile: 'High' });
if ('error' in plan) throw new Error(plan.error);
const outDir = join(tmp, 'hand');
mkdirSync(outDir);
const argv = encodeArgs('ffmpeg', { source: src, outDir, plan, encoder, audio: true }).filter((a, i, all) => !['-progress', 'pipe:1', '-stats_period', '0.5'].includes(a) || all[i - 1] === '-map');
let t0 = performance.now();
const p = Bun.spawn(argv, { stdout: 'ignore', stderr: 'pipe' });
if ((await p.exited) !== 0) throw new Error(await new Response(p.stderr).text());
const handS = (performance.now() - t0) / 1000;

const s = await startTestServer({ env: { VS_LOG_LEVEL: 'error' } });
try {
  t0 = performance.now();
  const id = registerAsset(s.ctx, src);
  let firstS = 0;
  await waitFor('ready', () => {
    const a = s.ctx.db.query<{ status: string; error: string | null; output: string | null }, [string]>('SELECT status, error, output FROM assets WHERE id = ?').get(id)!;
    if (!firstS && a.output?.includes('preview')) firstS = (performance.now() - t0) / 1000;
    if (a.status === 'failed') throw new Error(a.error ?? 'failed');
    return a.status === 'ready';
  }, 30 * 60_000, 50);
  const readyS = (performance.now() - t0) / 1000;
  const job = s.ctx.db.query<{ result: string }, [string]>(`SELECT result FROM jobs WHERE subject_id = ? AND type = 'asset.encode'`).get(id)!;
  const res = JSON.parse(job.result);
  console.log(JSON.stringify({
    source: `${seconds} s 1920x1080 25 fps`, encoder_requested: encoder, encoder_used: res.encoder, fallback_from: res.fallback_from ?? null,
    renditions: plan.renditions.map((r) => r.name),
    hand_written_s: +handS.toFixed(2), time_to_first_playable_s: +firstS.toFixed(2), time_to_ready_s: +readyS.toFixed(2),
    ratio: +(readyS / handS).toFixed(3), ready_s_per_minute_of_input: +((readyS / seconds) * 60).toFixed(2),
  }, null, 2));
} finally {
  await s.stop();
  rmSync(tmp, { recursive: true, force: true });
}
