import { realpathSync } from 'node:fs';
import { sep } from 'node:path';
import { containedPath } from '../../kernel/fs/contain';

/** A plain file name: one path segment, no dot segment, no NUL. */
const PLAIN = /^(?!\.\.?$)[^/\\\0]+$/;

/**
 * Contained paths for delivery with fewer system calls: a directory under `root` is proven inside it once
 * (`containedPath`, symlinks followed) and remembered; each file is then checked with one realpath. When the file's
 * real path is exactly `<proven dir>/<name>`, no component of it is a symlink right now, so it lies inside the
 * root (the proven directory is lexically inside the real root). Anything else (a symlinked file or directory, a
 * directory changed since it was proven, a name that is not one plain segment) takes the full `containedPath`
 * check again, uncached, so the answer is never more permissive than `containedPath(containedPath(root, dir), name)`.
 */
export function containedFiles(root: string, max = 10_000) {
  const dirs = new Map<string, string>();
  const full = (dir: string, name: string): string | null => {
    dirs.delete(dir);
    const d = containedPath(root, dir);
    return d && containedPath(d, name);
  };
  return {
    /** The real path of `name` inside `dir` (relative to root), its would-be path when missing, null on escape. */
    file(dir: string, name: string): string | null {
      if (!PLAIN.test(name)) return full(dir, name);
      let d = dirs.get(dir);
      if (d === undefined) {
        const proven = containedPath(root, dir);
        if (!proven) return null;
        if (dirs.size >= max) dirs.clear();
        dirs.set(dir, proven);
        d = proven;
      }
      const want = d + sep + name;
      let real: string;
      try { real = realpathSync(want); } catch { return full(dir, name); } // missing (404 later) or unreadable
      return real === want ? want : full(dir, name);
    },
  };
}
