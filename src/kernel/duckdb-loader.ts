import libduckdbPath from '../../node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so' with { type: 'file' };
import { dlopen } from 'bun:ffi';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** True when running as the `bun build --compile` binary (sources live in the embedded /$bunfs). */
export function isCompiled(): boolean {
  return import.meta.path.startsWith('/$bunfs/') || Bun.main.startsWith('/$bunfs/');
}

function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || (process.env.HOME ? join(homedir(), '.cache') : join(tmpdir(), `viewstream-${process.getuid?.() ?? 0}`));
  return join(base, 'viewstream');
}

let loaded = false;

/**
 * In the compiled binary, `duckdb.node` is extracted by Bun to a temp dir without the `libduckdb.so` it links
 * against ($ORIGIN runpath). We embed the library, extract it once to a cache dir (content-sized name, atomic
 * rename) and dlopen it first, so the dynamic linker satisfies duckdb.node's DT_NEEDED by soname.
 */
export async function preloadDuckDb(): Promise<void> {
  if (loaded || !isCompiled()) return;
  const src = Bun.file(libduckdbPath);
  const dir = cacheDir();
  mkdirSync(dir, { recursive: true });
  const target = join(dir, `libduckdb-${src.size}.so`);
  if (!existsSync(target) || statSync(target).size !== src.size) {
    const tmp = `${target}.${process.pid}.tmp`;
    await Bun.write(tmp, src);
    renameSync(tmp, target);
  }
  dlopen(target, { duckdb_library_version: { args: [], returns: 'cstring' } });
  loaded = true;
}
