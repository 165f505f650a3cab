import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Real path of a directory, or the resolved path when it does not exist (yet). */
function real(p: string): string {
  try { return realpathSync(p); } catch { return resolve(p); }
}

/**
 * Resolves `parts` under `root` and proves the result stays inside it: after joining, after resolving `.`/`..`,
 * and after following symlinks of whatever exists. Returns the absolute path, or null when it would leave the root
 * (or names the root itself). Every file the origin serves from disk goes through this.
 */
export function containedPath(root: string, ...parts: string[]): string | null {
  for (const p of parts) if (p.includes('\0') || isAbsolute(p)) return null;
  const base = real(root);
  const joined = resolve(base, ...parts);
  const lexical = relative(base, joined);
  if (!lexical || lexical.startsWith('..') || isAbsolute(lexical)) return null;
  let target: string;
  try { target = realpathSync(joined); } catch { return joined; } // not there: the caller answers 404
  const rel = relative(base, target);
  if (!rel || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) return null;
  return target;
}

/** `containedPath` for an already absolute path: null unless it lies inside `root` (symlinks followed). */
export function containedAbs(root: string, abs: string): string | null {
  const rel = relative(resolve(root), resolve(abs));
  return rel && !isAbsolute(rel) ? containedPath(root, rel) : null;
}
