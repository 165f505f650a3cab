import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Summaries of a day's closed rendition-hours kept in the day directory (`DD/hours.json`, outside every `HH/`, so
 * writing it touches no hour's mtime). A cache like the index: an hour's entry is valid only while the hour
 * directory's mtime is the one it recorded (any file added, removed or renamed in the hour changes it), and it lets
 * a rebuild from nothing skip listing closed hours. One file per day, not per hour: a rebuild that must list a
 * tree creates 30 files a month instead of 720 (a file creation costs more than listing 300 names). Context-dependent
 * numbers (sequence, discontinuity sequence) are never stored. Trees written before keep their per-hour `DD/HH.json`
 * files: they are still read (legacy) and removed with their hour.
 */
export interface HourManifest { v: 1; n: number; first_ms: number; last_ms: number; end_ms: number; inner_discs: number; bytes: number | null; dir_mtime: number }

/** One hour's entry in a day manifest. */
export type HourEntry = Omit<HourManifest, 'v'>;

/** Name of the day manifest inside a day directory. */
export const DAY_MANIFEST = 'hours.json';

const legacyFile = (hourPath: string) => `${hourPath}.json`;
const entryOf = (m: HourEntry): HourEntry =>
  ({ n: m.n, first_ms: m.first_ms, last_ms: m.last_ms, end_ms: m.end_ms, inner_discs: m.inner_discs, bytes: m.bytes, dir_mtime: m.dir_mtime });

/** The entries of a day manifest by hour directory name (`HH`); empty when there is none or it is torn. */
export function readDayManifest(dayPath: string): Map<string, HourEntry> {
  try {
    const f = JSON.parse(readFileSync(join(dayPath, DAY_MANIFEST), 'utf8')) as { v: number; hours: Record<string, HourEntry> };
    if (f.v !== 2 || typeof f.hours !== 'object' || !f.hours) return new Map();
    return new Map(Object.entries(f.hours));
  } catch { return new Map(); }
}

/** `e` when it is an entry valid for an hour directory whose mtime is `mtime`, else null. */
export function validEntry(e: HourEntry | undefined, mtime: number): HourEntry | null {
  return e && e.dir_mtime === mtime && e.n > 0 ? e : null;
}

/**
 * Writes a day manifest whole, in place (no temp name and rename: a torn or zero-filled file is never valid JSON
 * ending in `}`, so readDayManifest refuses it and the day's hours are listed instead). No entries: the file goes.
 * Failures are ignored: it is only a cache.
 */
export function writeDayManifest(dayPath: string, entries: Map<string, HourEntry>): void {
  const file = join(dayPath, DAY_MANIFEST);
  try {
    if (!entries.size) { rmSync(file, { force: true }); return; }
    const hours: Record<string, HourEntry> = {};
    for (const [hh, e] of [...entries].sort(([a], [b]) => (a < b ? -1 : 1))) hours[hh] = entryOf(e);
    writeFileSync(file, JSON.stringify({ v: 2, hours }));
  } catch { /* the day is gone or the disk is full: the listing stays the truth */ }
}

/** A per-hour manifest (`DD/HH.json`, as trees written before day manifests have) valid for `mtime`, else null. */
export function readLegacyManifest(hourPath: string, mtime: number): HourEntry | null {
  try {
    const m = JSON.parse(readFileSync(legacyFile(hourPath), 'utf8')) as HourManifest;
    return m.v === 1 ? validEntry(m, mtime) : null;
  } catch { return null; }
}

/** The manifest entry of an hour directory valid for `mtime` (day manifest, else a legacy per-hour file), else null. */
export function readManifest(hourPath: string, mtime: number): HourEntry | null {
  return validEntry(readDayManifest(dirname(hourPath)).get(basename(hourPath)), mtime) ?? readLegacyManifest(hourPath, mtime);
}

/** Sets one hour's entry in its day manifest (an hour that recording has left). */
export function writeManifest(hourPath: string, m: HourEntry): void {
  const day = dirname(hourPath);
  const entries = readDayManifest(day);
  entries.set(basename(hourPath), entryOf(m));
  writeDayManifest(day, entries);
  rmSync(legacyFile(hourPath), { force: true });
}

/**
 * Forgets an hour's manifest (its directory is being trimmed or deleted): its legacy file and its day entry; the day
 * manifest itself goes once no hour directory is left in the day (so the emptied day directory can be removed).
 */
export function dropManifest(hourPath: string): void {
  rmSync(legacyFile(hourPath), { force: true });
  const day = dirname(hourPath);
  const entries = readDayManifest(day);
  let left: string[] = [];
  try { left = readdirSync(day).filter((n) => /^\d+$/.test(n) && n !== basename(hourPath)); } catch { return; }
  for (const hh of entries.keys()) if (!left.includes(hh)) entries.delete(hh);
  writeDayManifest(day, entries);
}
