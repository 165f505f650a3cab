#!/usr/bin/env bun
/**
 * Runs the whole suite: every *.test.ts under test/ and src/, each file in its own `bun test` process (a Bun crash
 * or a leaked handle then costs one file, not a group — Bun 1.3.14 segfaulted in CI inside a 40-file process).
 * Files named *.serial.test.ts (timing- or port-sensitive) run one at a time in their own lane; the others share
 * a pool of lanes. A file that fails is run once more, alone, after the pool drains; it is reported as flaky when
 * it then passes. Output: one line per file, the full output of every file that failed, then `N passed, N failed`.
 * Usage: bun scripts/test.ts [filter...]   (filters are substrings of file paths)
 */
import { Glob } from 'bun';
import { availableParallelism } from 'node:os';
import { statSync } from 'node:fs';

const filters = process.argv.slice(2);
const files: string[] = [];
for (const dir of ['test', 'src']) {
  for (const f of new Glob('**/*.test.ts').scanSync({ cwd: dir })) files.push(`${dir}/${f}`);
}
const selected = files.filter((f) => !filters.length || filters.some((x) => f.includes(x))).sort();
if (!selected.length) { console.log('no test files matched'); console.log('0 passed, 1 failed'); process.exit(1); }

/** Wall-clock ceiling for one file; a file past it is killed (with its children) and counted as failed. */
const FILE_LIMIT_MS = Number(process.env.VS_TEST_FILE_LIMIT_MS ?? 900_000);

interface FileResult { file: string; passed: number; failed: number; skipped: number; code: number; ms: number; text: string }

/** Runs one test file in a fresh `bun test` process group and parses its counts. */
async function runFile(file: string): Promise<FileResult> {
  const t0 = Date.now();
  const p = Bun.spawn(['setsid', 'bun', 'test', '--timeout', '120000', `./${file}`], {
    stdout: 'pipe', stderr: 'pipe', env: { ...process.env, FORCE_COLOR: '0' },
  });
  let killed = false;
  const timer = setTimeout(() => { killed = true; try { process.kill(-p.pid, 'SIGKILL'); } catch { p.kill('SIGKILL'); } }, FILE_LIMIT_MS);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  // Anything the file left behind in its process group (ffmpeg, gst-launch, chromium) goes with it.
  try { process.kill(-p.pid, 'SIGKILL'); } catch { /* group already gone */ }
  const text = out + err + (killed ? `\n${file}: killed after ${FILE_LIMIT_MS / 1000} s\n` : '');
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  let failed = num(/^\s*(\d+) fail$/m);
  if (code !== 0 && failed === 0) failed = 1; // a crash or a kill counts as one failure
  return { file, passed: num(/^\s*(\d+) pass$/m), failed, skipped: num(/^\s*(\d+) skip$/m), code, ms: Date.now() - t0, text };
}

/** Runs `queue` with `lanes` files at a time, printing one line per finished file. */
async function pool(queue: string[], lanes: number, done: FileResult[]): Promise<void> {
  const next = async (): Promise<void> => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const r = await runFile(f);
      done.push(r);
      const mark = r.failed ? 'FAIL' : 'ok  ';
      console.log(`${mark} ${r.file}  ${r.passed} pass${r.failed ? `, ${r.failed} fail` : ''}${r.skipped ? `, ${r.skipped} skip` : ''}  ${(r.ms / 1000).toFixed(1)} s`);
    }
  };
  await Promise.all(Array.from({ length: lanes }, next));
}

const started = Date.now();
// The type check runs first (whole suite only): a tree that does not type-check fails before any test runs.
if (!filters.length) {
  const tsc = Bun.spawnSync(['bunx', 'tsc', '--noEmit'], { stdout: 'pipe', stderr: 'pipe' });
  const out = tsc.stdout.toString() + tsc.stderr.toString();
  if (tsc.exitCode !== 0) { process.stdout.write(out); console.log('\ntsc --noEmit failed'); console.log(`0 passed, 1 failed`); process.exit(1); }
  console.log(`tsc --noEmit: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

// Heavier files first so the pool ends with short ones.
const bySize = (a: string, b: string) => statSync(b).size - statSync(a).size;
const serial = selected.filter((f) => f.includes('.serial.')).sort(bySize);
const rest = selected.filter((f) => !f.includes('.serial.')).sort(bySize);
const lanes = Math.max(1, Math.min(availableParallelism(), 4) - (serial.length ? 1 : 0));
const totalLanes = lanes + (serial.length ? 1 : 0);
const first: FileResult[] = [];
// The serial lane joins the shared pool once its own files are done (the queues are shared arrays), so neither lane
// idles while the other still has work: on 2 cores this cut the wall time by the smaller lane's idle tail.
const serialThenRest = async () => { await pool(serial, 1, first); await pool(rest, 1, first); };
await Promise.all([serial.length ? serialThenRest() : Promise.resolve(), pool(rest, lanes, first)]);

// Second chance, one file at a time with nothing else running: separates load-sensitive tests from broken ones.
const failedFirst = first.filter((r) => r.failed);
const final = new Map(first.map((r) => [r.file, r]));
const flaky: string[] = [];
if (failedFirst.length && failedFirst.length <= 12) {
  console.log(`\nre-running ${failedFirst.length} failed file(s) alone`);
  const again: FileResult[] = [];
  await pool(failedFirst.map((r) => r.file), 1, again);
  for (const r of again) { final.set(r.file, r); if (!r.failed) flaky.push(r.file); }
}

let passed = 0, failed = 0, skipped = 0;
for (const r of final.values()) { passed += r.passed; failed += r.failed; skipped += r.skipped; }
for (const r of failedFirst) {
  console.log(`\n===== ${r.file} (first run${flaky.includes(r.file) ? '; passed when re-run alone' : ''}) =====`);
  // Only the failing tests and the summary: a passing test's line adds nothing here.
  const lines = r.text.split('\n');
  const keep = lines.filter((l) => !l.startsWith('(pass)'));
  process.stdout.write(keep.slice(-150).join('\n') + '\n');
}
const slow = [...final.values()].sort((a, b) => b.ms - a.ms).slice(0, 5).map((r) => `${r.file} ${(r.ms / 1000).toFixed(0)} s`);
console.log(`\nslowest: ${slow.join(', ')}`);
if (flaky.length) console.log(`flaky (failed under load, passed alone): ${flaky.join(', ')}`);
console.log(`suite took ${((Date.now() - started) / 1000).toFixed(1)} s, ${final.size} files, ${totalLanes} lanes`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
