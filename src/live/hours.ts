import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { segmentDurationMs } from './mp4';
import { renditionDir } from './paths';

/** One hour in ms: the grain of the recording tree and of the index summary. */
export const HOUR_MS = 3_600_000;

/** One `YYYY/MM/DD/HH` directory of a rendition. */
export interface HourDir { hourMs: number; path: string }

const pad = (n: number) => String(n).padStart(2, '0');
const numericDirs = (p: string): string[] => {
  try { return readdirSync(p).filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(a) - Number(b)); } catch { return []; }
};

/** Directory of one rendition-hour (UTC). */
export function hourDir(dataDir: string, tenantId: string, channelId: string, rendition: string, hourMs: number): string {
  const d = new Date(hourMs);
  return join(renditionDir(dataDir, tenantId, channelId, rendition), String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()), pad(d.getUTCHours()));
}

/** Hour directories of one rendition, oldest first (directory names only; nothing inside them is read). */
export function listHourDirs(dir: string): HourDir[] {
  const out: HourDir[] = [];
  for (const y of numericDirs(dir)) for (const m of numericDirs(join(dir, y))) for (const d of numericDirs(join(dir, y, m))) {
    for (const h of numericDirs(join(dir, y, m, d))) out.push({ hourMs: Date.UTC(Number(y), Number(m) - 1, Number(d), Number(h)), path: join(dir, y, m, d, h) });
  }
  return out;
}

/** Segment start times (epoch ms) named in one hour's listing, ascending. Other names (temp files) are skipped. */
export function segmentStarts(names: string[]): Float64Array {
  const out = new Float64Array(names.length);
  let k = 0;
  for (const n of names) {
    if (n.length < 5 || !n.endsWith('.m4s')) continue;
    const v = Number(n.slice(0, -4));
    if (Number.isInteger(v)) out[k++] = v;
  }
  return out.subarray(0, k).sort();
}

/** How many segment files a listing names (no parsing beyond the suffix). */
export function countSegments(names: string[]): number {
  let k = 0;
  for (const n of names) if (n.endsWith('.m4s')) k++;
  return k;
}

/** Init segment start times (epoch ms) of one rendition, ascending. */
export function listInits(dir: string): number[] {
  try { return readdirSync(join(dir, 'init')).filter((n) => /^\d+\.mp4$/.test(n)).map((n) => Number(n.slice(0, -4))).sort((a, b) => a - b); } catch { return []; }
}

/** Index in `inits` of the init segment in force at `ms` (the newest at or before it), or -1. */
export function initIndex(inits: number[], ms: number): number {
  let lo = 0, hi = inits.length - 1, ans = -1;
  while (lo <= hi) { const mid = (lo + hi) >> 1; if (inits[mid] <= ms) { ans = mid; lo = mid + 1; } else hi = mid - 1; }
  return ans;
}

/**
 * True when segment `b` does not continue segment `a` of the same run: another init segment (a new ingest run or a
 * feed switch) or a start more than three target durations later (files missing). Rebuild, lazy reads and the
 * summary all use this one rule so they agree.
 */
export function isBreak(aStart: number, aInit: number, bStart: number, bInit: number, targetMs: number): boolean {
  return aInit !== bInit || bStart - aStart > 3 * targetMs || bStart <= aStart;
}

/** Duration of a recorded segment read from its boxes (only for the last segment of a run), or `fallback`. */
export function measuredDuration(file: string, initFile: string | null, fallback: number, cache = new Map<string, Uint8Array>()): number {
  if (!initFile) return fallback;
  try {
    let init = cache.get(initFile);
    if (!init) { init = readFileSync(initFile); cache.set(initFile, init); }
    return segmentDurationMs(readFileSync(file), init) ?? fallback;
  } catch { return fallback; }
}

/** Removes the now-empty day, month and year directories above a deleted hour directory. */
export function pruneEmptyParents(hourPath: string, levels = 3): void {
  let p = hourPath;
  for (let i = 0; i < levels; i++) {
    p = join(p, '..');
    try { rmdirSync(p); } catch { return; }
  }
}

/** Renditions that have a directory in the recording tree. */
export function renditionsOnDisk(dataDir: string, tenantId: string, channelId: string): string[] {
  try { return readdirSync(join(dataDir, 'rec', tenantId, channelId), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name); } catch { return []; }
}
