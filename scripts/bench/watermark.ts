/**
 * A/B forensic watermark, cost and traceability (issue 46; wired into the ladder, the gate and POST
 * /v1/watermark/traces: docs/watermark.md). It uses the appliance's own modules: the marks (media/args/watermark.ts),
 * the probe frames (media/watermark.ts), the per-session bit (features/watermark/bits.ts) and the reading and scoring
 * (features/watermark/detect.ts). One source is encoded three times with the same x264 settings and segment
 * boundaries: plain (the baseline ladder rung), variant A (left half of the picture lighter) and variant B (right
 * half lighter). Each of `--sessions`
 * sessions gets its own A/B sequence from an HMAC of its id (as the gate would decide it per segment); one session's
 * stream is re-encoded as a pirate would (downscaled, another codec setting and GOP, CRF 30) and traced: per segment
 * the decoded leaked frame is compared with the A and B frames, the bits are matched against every session.
 * Prints the second variant's encode time and storage as a ratio to the baseline (same run), the bit error rate and
 * whether the right session was named, with its confidence (binomial tail, Bonferroni over the sessions).
 *
 *   bun scripts/bench/watermark.ts [--seconds 48] [--segment 2] [--sessions 50] [--size 640x360]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markFilter, MARK_LEVEL } from '../../src/media/args/watermark';
import { probeFrames } from '../../src/media/watermark';
import { variantBit } from '../../src/features/watermark/bits';
import { halves, log10Tail, readBits, scoreSessions } from '../../src/features/watermark/detect';

const arg = (name: string, def: string) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : def; };
const SECONDS = Number(arg('seconds', '48')), SEG = Number(arg('segment', '2')), SESSIONS = Number(arg('sessions', '50')), SIZE = arg('size', '640x360');
const ffmpeg = process.env.VS_FFMPEG ?? 'ffmpeg';
const dir = mkdtempSync(join(tmpdir(), 'vs-wm-'));

/** Runs ffmpeg; returns its CPU time in ms (user + system: steadier than wall time on a shared box). */
function run(args: string[]): number {
  const p = Bun.spawnSync([ffmpeg, '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${p.stderr.toString()}`);
  const cpu = p.resourceUsage?.cpuTime;
  return cpu ? Number(cpu.user + cpu.system) / 1000 : NaN;
}

// The mark: a half picture lighter by `--mark` (alpha of white; the appliance's default MARK_LEVEL), left for A and right for B.
const LEVEL = Number(arg('mark', String(MARK_LEVEL)));
const MARK = { a: markFilter('a', LEVEL), b: markFilter('b', LEVEL) };
const encode = (out: string, vf: string | null) => run([
  '-i', join(dir, 'src.mp4'), ...(vf ? ['-vf', vf] : []), '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-threads', '2',
  '-g', String(SEG * 25), '-keyint_min', String(SEG * 25), '-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${SEG})`,
  '-f', 'hls', '-hls_time', String(SEG), '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4',
  '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(out, 'seg_%05d.m4s'), join(out, 'index.m3u8'),
]);
const segsOf = (d: string) => readdirSync(d).filter((f) => f.endsWith('.m4s')).sort();
const bytesOf = (d: string) => readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);

/** The A/B choice of segment `i` (0-based here; the packager numbers files from 1) for a session: the gate's decision. */
const KEY = randomBytes(32);
const ASSET = randomUUID();
const bitOf = (sid: string, i: number) => variantBit(KEY, ASSET, sid, i + 1);
/** One probe frame per segment middle of `input` (the trace job's reads). */
const frames = async (input: string, count: number) => {
  const f = await probeFrames(ffmpeg, input, Array.from({ length: count }, (_, i) => i * SEG + SEG / 2), dir);
  if (f.some((x) => !x)) throw new Error(`no frame in some segment of ${input}`);
  return f as Uint8Array[];
};
try {
  run(['-f', 'lavfi', '-i', `testsrc2=size=${SIZE}:rate=25:duration=${SECONDS}`, '-f', 'lavfi', '-i', `mandelbrot=size=${SIZE}:rate=25`, '-filter_complex', '[0][1]blend=all_mode=average,format=yuv420p', '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '12', join(dir, 'src.mp4')]);
  for (const d of ['plain', 'a', 'b']) Bun.spawnSync(['mkdir', '-p', join(dir, d)]);
  const tPlain = encode(join(dir, 'plain'), null), tA = encode(join(dir, 'a'), MARK.a), tB = encode(join(dir, 'b'), MARK.b);
  const n = segsOf(join(dir, 'a')).length;
  const initSame = readFileSync(join(dir, 'a', 'init.mp4')).equals(readFileSync(join(dir, 'b', 'init.mp4')));
  const sameBounds = segsOf(join(dir, 'a')).length === segsOf(join(dir, 'b')).length;
  // Sessions and the pirate: one session's own sequence, its segments concatenated behind the shared init, re-encoded.
  const sids = Array.from({ length: SESSIONS }, () => randomUUID());
  const pirate = sids[Math.floor(SESSIONS / 3)];
  const names = segsOf(join(dir, 'a'));
  // A session's stream as a player assembles it: the shared init, then each segment from the variant its bit names.
  const assemble = (out: string, pick: (i: number) => 'a' | 'b') => writeFileSync(join(dir, out), Buffer.concat([readFileSync(join(dir, 'a', 'init.mp4')), ...names.map((f, i) => readFileSync(join(dir, pick(i), f)))]));
  assemble('session.mp4', (i) => (bitOf(pirate, i) ? 'b' : 'a'));
  assemble('all-a.mp4', () => 'a');
  assemble('all-b.mp4', () => 'b');
  run(['-i', join(dir, 'session.mp4'), '-vf', 'scale=480:-2', '-c:v', 'libx264', '-preset', 'faster', '-crf', '30', '-g', '250', join(dir, 'leak.mp4')]);
  const [leak, fa, fb] = [await frames(join(dir, 'leak.mp4'), n), await frames(join(dir, 'all-a.mp4'), n), await frames(join(dir, 'all-b.mp4'), n)];
  // Per segment: is the leaked frame's left-right difference nearer to B's or to A's? (readBits, as the trace job.)
  const read = readBits(leak, fa, fb);
  const spread = fa.map((f, i) => halves(f) - halves(fb[i]));
  const truth = names.map((_, i) => bitOf(pirate, i));
  const errors = read.filter((b, i) => b.bit !== null && b.bit !== truth[i]).length;
  const scored = scoreSessions(read, sids, (sid, num) => bitOf(sid, num - 1));
  const best = scored[0], second = scored[1];
  const log10p = log10Tail(best.of, best.matched) + Math.log10(SESSIONS);
  console.log(JSON.stringify({
    segments: n, segment_s: SEG, size: SIZE, sessions: SESSIONS,
    encode_cpu_ms: { plain: Math.round(tPlain), a: Math.round(tA), b: Math.round(tB) },
    second_variant_encode_ratio: +(tB / tPlain).toFixed(2),
    storage_bytes: { plain: bytesOf(join(dir, 'plain')), a: bytesOf(join(dir, 'a')), b: bytesOf(join(dir, 'b')) },
    storage_ratio_both_variants: +((bytesOf(join(dir, 'a')) + bytesOf(join(dir, 'b'))) / bytesOf(join(dir, 'plain'))).toFixed(2),
    init_identical: initSame, same_segment_count: sameBounds,
    leak: { bit_errors: errors, read: best.of, of: n },
    mark_levels: { mean_a_minus_b: +(spread.reduce((p, c) => p + c, 0) / n).toFixed(2), min: +Math.min(...spread).toFixed(2) },
    traced: best.sid === pirate, best_match: `${best.matched}/${best.of}`, runner_up: `${second.matched}/${second.of}`,
    confidence: `1 - 10^${log10p.toFixed(1)}`, confidence_value: best.confidence,
  }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
