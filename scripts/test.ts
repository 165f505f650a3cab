#!/usr/bin/env bun
/**
 * Runs the whole suite: every *.test.ts under test/ and src/, split across parallel `bun test` processes
 * (one per core, at least 2), then prints each group's output and one closing line `N passed, N failed`.
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

// Heavier files first, dealt round-robin so groups finish close together. Files named *.serial.test.ts
// (timing- or port-sensitive) all go to one group.
const workers = Math.max(2, Math.min(availableParallelism(), 4));
const groups: string[][] = Array.from({ length: workers }, () => []);
const serial = selected.filter((f) => f.includes('.serial.'));
const rest = selected.filter((f) => !f.includes('.serial.')).sort((a, b) => statSync(b).size - statSync(a).size);
groups[0].push(...serial);
rest.forEach((f, i) => groups[(i + (serial.length ? 1 : 0)) % workers].push(f));

let passed = 0, failed = 0, skipped = 0;
const started = Date.now();
// The type check runs first (whole suite only): a tree that does not type-check fails before any test runs.
if (!filters.length) {
  const tsc = Bun.spawnSync(['bunx', 'tsc', '--noEmit'], { stdout: 'pipe', stderr: 'pipe' });
  const out = tsc.stdout.toString() + tsc.stderr.toString();
  if (tsc.exitCode !== 0) { process.stdout.write(out); console.log('\ntsc --noEmit failed'); console.log(`0 passed, 1 failed`); process.exit(1); }
  console.log(`tsc --noEmit: ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
const results = await Promise.all(groups.filter((g) => g.length).map(async (g) => {
  const p = Bun.spawn(['bun', 'test', '--timeout', '120000', ...g.map((f) => `./${f}`)], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, FORCE_COLOR: '0' } });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { g, text: out + err, code };
}));
for (const r of results) {
  process.stdout.write(r.text);
  const num = (re: RegExp) => Number(re.exec(r.text)?.[1] ?? 0);
  const p = num(/^\s*(\d+) pass$/m), f = num(/^\s*(\d+) fail$/m), s = num(/^\s*(\d+) skip$/m);
  passed += p; failed += f; skipped += s;
  if (r.code !== 0 && f === 0) failed += 1; // a crashed group counts as a failure
}
console.log(`\nsuite took ${((Date.now() - started) / 1000).toFixed(1)} s in ${results.length} parallel groups`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
