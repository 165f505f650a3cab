#!/usr/bin/env bun
/**
 * Builds the single binary `dist/viewstream` with `bun build --compile`. DuckDB's native binding for
 * linux-x64 (glibc) is embedded; the other platforms' bindings are left out (the require that names them is
 * never reached on this platform). libduckdb.so is embedded as a file and preloaded at start
 * (src/kernel/duckdb-loader.ts).
 */
import { mkdirSync } from 'node:fs';

const outfile = process.argv[2] ?? 'dist/viewstream';
mkdirSync('dist', { recursive: true });
const external = [
  '@duckdb/node-bindings-win32-x64/duckdb.node', '@duckdb/node-bindings-win32-arm64/duckdb.node',
  '@duckdb/node-bindings-darwin-x64/duckdb.node', '@duckdb/node-bindings-darwin-arm64/duckdb.node',
  '@duckdb/node-bindings-linux-arm64/duckdb.node', '@duckdb/node-bindings-linux-arm64-musl/duckdb.node',
  '@duckdb/node-bindings-linux-x64-musl/duckdb.node',
];
// The player loader is bundled first and embedded as a file; the committed stand-in is put back afterwards.
const restorePlayer = await (await import('./build-player')).preparePlayer();
const restoreStudio = await (await import('./build-studio')).prepareStudio();
const started = Date.now();
const p = Bun.spawn(['bun', 'build', '--compile', '--minify-syntax', '--sourcemap=inline', 'src/main.ts', '--outfile', outfile,
  ...external.flatMap((e) => ['--external', e])], { stdout: 'inherit', stderr: 'inherit' });
const code = await p.exited;
restorePlayer();
restoreStudio();
if (code !== 0) process.exit(code);
console.log(`built ${outfile} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
