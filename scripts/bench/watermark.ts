/**
 * A/B forensic watermark, feasibility and cost (issue 46, not wired into delivery yet: docs/security.md section 8).
 * One source is encoded three times with the same x264 settings and segment boundaries: plain (the baseline ladder
 * rung), variant A (left half of the picture 1 % lighter) and variant B (right half 1 % lighter). Each of `--sessions`
 * sessions gets its own A/B sequence from an HMAC of its id (as the gate would decide it per segment); one session's
 * stream is re-encoded as a pirate would (downscaled, another codec setting and GOP, CRF 30) and traced: per segment
 * the decoded leaked frame is compared with the A and B frames, the bits are matched against every session.
 * Prints the second variant's encode time and storage as a ratio to the baseline (same run), the bit error rate and
 * whether the right session was named, with its confidence (binomial tail, Bonferroni over the sessions).
 *
 *   bun scripts/bench/watermark.ts [--seconds 48] [--segment 2] [--sessions 50] [--size 640x360]
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

// The mark: a half picture lighter by `--mark` (alpha of white, default 0.02: about 2-4 of 255 luma levels), left for A and right for B.
const LEVEL = Number(arg('mark', '0.02'));
const MARK = { a: `drawbox=x=0:y=0:w=iw/2:h=ih:color=white@${LEVEL}:t=fill`, b: `drawbox=x=iw/2:y=0:w=iw/2:h=ih:color=white@${LEVEL}:t=fill` };
const encode = (out: string, vf: string | null) => run([
  '-i', join(dir, 'src.mp4'), ...(vf ? ['-vf', vf] : []), '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-threads', '2',
  '-g', String(SEG * 25), '-keyint_min', String(SEG * 25), '-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${SEG})`,
  '-f', 'hls', '-hls_time', String(SEG), '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4',
  '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(out, 'seg_%05d.m4s'), join(out, 'index.m3u8'),
]);
const segsOf = (d: string) => readdirSync(d).filter((f) => f.endsWith('.m4s')).sort();
const bytesOf = (d: string) => readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);

/** The A/B choice of segment `i` for a session: one bit of an HMAC of its id (the gate's decision). */
const KEY = randomUUID();
const bitOf = (sid: string, i: number) => createHmac('sha256', KEY).update(`${sid}:${i}`).digest()[0] & 1;

/** Grey 64x36 frames of `input` at each segment's middle (one frame per segment), as arrays of luma bytes. */
function frames(input: string, count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const f = join(dir, `f-${Math.random().toString(36).slice(2)}.gray`);
    run(['-ss', String(i * SEG + SEG / 2), '-i', input, '-frames:v', '1', '-vf', 'scale=64:36:flags=area,format=gray', '-f', 'rawvideo', f]);
    const b = new Uint8Array(readFileSync(f));
    if (b.length !== 64 * 36) throw new Error(`no frame at segment ${i} of ${input}`);
    out.push(b);
  }
  return out;
}
/** The mark's statistic of a 64x36 frame: mean luma of the left half minus the right half (content cancels between A and B). */
function halves(f: Uint8Array): number {
  let l = 0, r = 0;
  for (let y = 0; y < 36; y++) for (let x = 0; x < 64; x++) { if (x < 32) l += f[y * 64 + x]; else r += f[y * 64 + x]; }
  return (l - r) / (32 * 36);
}
/** log10 of P(X >= k) for X ~ Binomial(n, 1/2). */
function tail(n: number, k: number): number {
  let p = 0, c = 1;
  for (let i = 0; i <= n; i++) { if (i >= k) p += c; c = (c * (n - i)) / (i + 1); }
  return Math.log10(p) - n * Math.log10(2);
}

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
  const leak = frames(join(dir, 'leak.mp4'), n), fa = frames(join(dir, 'all-a.mp4'), n), fb = frames(join(dir, 'all-b.mp4'), n);
  // Per segment: is the leaked frame's left-right difference nearer to B's or to A's?
  const stat = leak.map((f, i) => ({ leak: halves(f), a: halves(fa[i]), b: halves(fb[i]) }));
  const bits = stat.map((x) => (Math.abs(x.leak - x.b) < Math.abs(x.leak - x.a) ? 1 : 0));
  const spread = stat.map((x) => x.a - x.b);
  const truth = names.map((_, i) => bitOf(pirate, i));
  const errors = bits.filter((b, i) => b !== truth[i]).length;
  const scored = sids.map((sid) => ({ sid, match: bits.filter((b, i) => b === bitOf(sid, i)).length })).sort((x, y) => y.match - x.match);
  const best = scored[0], second = scored[1];
  const log10p = tail(n, best.match) + Math.log10(SESSIONS);
  console.log(JSON.stringify({
    segments: n, segment_s: SEG, size: SIZE, sessions: SESSIONS,
    encode_cpu_ms: { plain: Math.round(tPlain), a: Math.round(tA), b: Math.round(tB) },
    second_variant_encode_ratio: +(tB / tPlain).toFixed(2),
    storage_bytes: { plain: bytesOf(join(dir, 'plain')), a: bytesOf(join(dir, 'a')), b: bytesOf(join(dir, 'b')) },
    storage_ratio_both_variants: +((bytesOf(join(dir, 'a')) + bytesOf(join(dir, 'b'))) / bytesOf(join(dir, 'plain'))).toFixed(2),
    init_identical: initSame, same_segment_count: sameBounds,
    leak: { bit_errors: errors, of: n },
    mark_levels: { mean_a_minus_b: +(spread.reduce((p, c) => p + c, 0) / n).toFixed(2), min: +Math.min(...spread).toFixed(2) },
    traced: best.sid === pirate, best_match: `${best.match}/${n}`, runner_up: `${second.match}/${n}`,
    confidence: `1 - 10^${log10p.toFixed(1)}`,
  }, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
