import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Summary of a closed rendition-hour kept beside its directory (`DD/HH.json`, outside `HH/` so writing it does not
 * touch the hour's own mtime). It is a cache like the index: valid only while the hour directory's mtime is the one
 * it recorded (any file added, removed or renamed in the hour changes it), and it lets a rebuild from nothing skip
 * listing closed hours. Context-dependent numbers (sequence, discontinuity sequence) are never stored in it.
 */
export interface HourManifest { v: 1; n: number; first_ms: number; last_ms: number; end_ms: number; inner_discs: number; bytes: number | null; dir_mtime: number }

const file = (hourPath: string) => `${hourPath}.json`;

/** The manifest of an hour directory when it is still valid for `mtime`, else null. */
export function readManifest(hourPath: string, mtime: number): HourManifest | null {
  try {
    const m = JSON.parse(readFileSync(file(hourPath), 'utf8')) as HourManifest;
    return m.v === 1 && m.dir_mtime === mtime && m.n > 0 ? m : null;
  } catch { return null; }
}

/**
 * Writes an hour's manifest in place (no temp name and rename: a torn or zero-filled file is never valid JSON ending in
 * `}`, so readManifest refuses it and the hour is listed instead). Failures are ignored: it is only a cache.
 */
export function writeManifest(hourPath: string, m: Omit<HourManifest, 'v'>): void {
  try {
    writeFileSync(file(hourPath), JSON.stringify({ v: 1, ...m }));
  } catch { /* the hour is gone or the disk is full: the listing stays the truth */ }
}

/** Removes an hour's manifest (its directory is being trimmed or deleted). */
export function dropManifest(hourPath: string): void {
  rmSync(file(hourPath), { force: true });
}
