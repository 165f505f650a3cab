#!/usr/bin/env bun
/**
 * The import graph of src/ read with the TypeScript compiler API (static, type-only and dynamic imports and
 * re-exports all count): file cycles, upward imports (kernel/media/jobs/live → features) and cross-feature store
 * imports. `bun scripts/import-graph.ts` prints the counts and every violation; test/unit/import-graph.test.ts
 * fails on them.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Glob } from 'bun';
import ts from 'typescript';

/** One import edge between two files of src/ (paths relative to the repository root). */
export interface Edge { from: string; to: string }

/** The analysed graph: files, edges, cycles (strongly connected groups with one example loop each) and rule breaks. */
export interface ImportReport {
  files: string[];
  edges: Edge[];
  /** Each group of files that import each other in a loop, with one concrete loop through its first file. */
  cycles: { files: string[]; loop: string[] }[];
  /** Imports from src/kernel, src/media, src/jobs or src/live into src/features. */
  upward: Edge[];
  /** A feature importing another feature's store (store.ts or *-store.ts). */
  crossFeatureStores: Edge[];
}

const LOWER = ['src/kernel/', 'src/media/', 'src/jobs/', 'src/live/'];

function resolveSpec(fromFile: string, spec: string, root: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(root, dirname(fromFile), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(c) && statSync(c).isFile() && /\.tsx?$/.test(c)) return relative(root, c);
  }
  return null;
}

function featureOf(file: string): string | null {
  const m = /^src\/features\/([^/]+)\//.exec(file);
  return m ? m[1] : null;
}

/** Tarjan's strongly connected components over the file graph. */
function components(files: string[], out: Map<string, string[]>): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>();
  const stack: string[] = [], groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of out.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const g: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); g.push(w); } while (w !== v);
      if (g.length > 1 || (out.get(v) ?? []).includes(v)) groups.push(g.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return groups;
}

/** A shortest loop from the group's first file back to itself, staying inside the group. */
function loopOf(group: string[], out: Map<string, string[]>): string[] {
  const inside = new Set(group), start = group[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of out.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(prev.get(path[0])!);
        return [...path, start];
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

/** Reads every .ts file under `root/src` and reports the graph. */
export function analyseImports(root = resolve(import.meta.dir, '..')): ImportReport {
  const files = [...new Glob('src/**/*.{ts,tsx}').scanSync({ cwd: root })].filter((f) => !f.endsWith('.d.ts')).sort();
  const edges: Edge[] = [];
  const out = new Map<string, string[]>();
  for (const f of files) {
    const info = ts.preProcessFile(readFileSync(join(root, f), 'utf8'), true, true);
    const targets = new Set<string>();
    for (const imp of info.importedFiles) {
      const to = resolveSpec(f, imp.fileName, root);
      if (to && to !== f) targets.add(to);
    }
    out.set(f, [...targets].sort());
    for (const to of targets) edges.push({ from: f, to });
  }
  const cycles = components(files, out).map((g) => ({ files: g, loop: loopOf(g, out) }));
  const upward = edges.filter((e) => LOWER.some((p) => e.from.startsWith(p)) && e.to.startsWith('src/features/'));
  const crossFeatureStores = edges.filter((e) => {
    const a = featureOf(e.from), b = featureOf(e.to);
    return a && b && a !== b && /(^|\/|-)store\.ts$/.test(e.to.split('/').pop()!);
  });
  return { files, edges, cycles, upward, crossFeatureStores };
}

/** One-line counts for reports: files in cycles, cycle groups, upward imports, cross-feature store imports. */
export function countsOf(r: ImportReport): Record<string, number> {
  return {
    files: r.files.length, edges: r.edges.length,
    files_in_cycles: r.cycles.reduce((n, c) => n + c.files.length, 0), cycle_groups: r.cycles.length,
    upward_imports: r.upward.length, cross_feature_store_imports: r.crossFeatureStores.length,
  };
}

if (import.meta.main) {
  const r = analyseImports();
  console.log(JSON.stringify(countsOf(r)));
  for (const c of r.cycles) console.log(`cycle (${c.files.length} files): ${c.loop.join(' -> ')}`);
  for (const e of r.upward) console.log(`upward: ${e.from} -> ${e.to}`);
  for (const e of r.crossFeatureStores) console.log(`cross-feature store: ${e.from} -> ${e.to}`);
}
