import { lstatSync, realpathSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { containedPath } from '../../kernel/fs/contain';

/** A plain file name: one path segment, no dot segment, no NUL. */
const PLAIN = /^(?!\.\.?$)[^/\\\0]+$/;

/** A contained file: its path, and its `lstat` when that proved it (a plain file, so the caller need not stat it). */
export interface Contained { path: string; st?: Stats }

/**
 * Contained paths for delivery with fewer system calls: a directory under `root` is proven inside it once
 * (`containedPath`, symlinks followed) and remembered; a file is proven once with one realpath (its real path is
 * exactly `<proven dir>/<name>`, so no component of it is a symlink right now and it lies inside the root) and its
 * identity (device, inode, ctime) remembered. Later calls make one `lstat`: the same plain file (same identity) is the
 * proven one; anything else (a symlink, another inode behind the same path, a directory changed into a symlink, a name
 * that is not one plain segment) takes the proof again, and failing that the full `containedPath` check, uncached, so
 * the answer is never more permissive than `containedPath(containedPath(root, dir), name)`.
 */
export function containedFiles(root: string, max = 10_000) {
  const dirs = new Map<string, string>();
  const files = new Map<string, { dev: number; ino: number; ctimeMs: number }>();
  const full = (dir: string, name: string): Contained | null => {
    dirs.delete(dir);
    const d = containedPath(root, dir);
    const p = d && containedPath(d, name);
    return p === null ? null : { path: p };
  };
  return {
    /** The path of `name` inside `dir` (relative to root; its would-be path when missing), null on escape. */
    file(dir: string, name: string): Contained | null {
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
      let st: Stats;
      try { st = lstatSync(want); } catch { return full(dir, name); } // missing (404 later) or unreadable
      if (!st.isFile()) return full(dir, name);
      const known = files.get(want);
      if (known && known.dev === st.dev && known.ino === st.ino && known.ctimeMs === st.ctimeMs) return { path: want, st };
      let real: string;
      try { real = realpathSync(want); } catch { return full(dir, name); }
      if (real !== want) return full(dir, name);
      if (files.size >= max) files.clear();
      files.set(want, { dev: st.dev, ino: st.ino, ctimeMs: st.ctimeMs });
      return { path: want, st };
    },
  };
}
