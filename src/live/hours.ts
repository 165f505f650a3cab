import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { segmentDurationMs } from './mp4';
import { renditionDir } from './paths';

/** One hour in ms: the grain of the recording tree and of the index summary. */
export const HOUR_MS = 3_600_000;

/** One `YYYY/MM/DD/HH` directory of a rendition: its day directory and whether a legacy per-hour manifest (`HH.json`) sits beside it. */
export interface HourDir { hourMs: number; path: string; day: string; legacy: boolean }

const pad = (n: number) => String(n).padStart(2, '0');
const isNumeric = (n: string) => /^\d+$/.test(n);
const byNumber = (a: string, b: string) => Number(a) - Number(b);
const listNames = (p: string): string[] => {
  try { return readdirSync(p); } catch { return []; }
};
const numericDirs = (p: string): string[] => listNames(p).filter(isNumeric).sort(byNumber);

/** Directory of one rendition-hour (UTC). */
export function hourDir(dataDir: string, tenantId: string, channelId: string, rendition: string, hourMs: number): string {
  const d = new Date(hourMs);
  return join(renditionDir(dataDir, tenantId, channelId, rendition), String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()), pad(d.getUTCHours()));
}

/** Hour directories of one rendition, oldest first (directory names only; nothing inside them is read). */
export function listHourDirs(dir: string): HourDir[] {
  const out: HourDir[] = [];
  for (const y of numericDirs(dir)) for (const m of numericDirs(join(dir, y))) for (const d of numericDirs(join(dir, y, m))) {
    const day = join(dir, y, m, d);
    const names = listNames(day);
    const json = new Set(names.filter((n) => n.endsWith('.json')));
    for (const h of names.filter(isNumeric).sort(byNumber)) {
      out.push({ hourMs: Date.UTC(Number(y), Number(m) - 1, Number(d), Number(h)), path: join(day, h), day, legacy: json.has(`${h}.json`) });
    }
  }
  return out;
}

/** Segment start times (epoch ms) named in one hour's listing, ascending. Other names (temp files) are skipped. */
export function segmentStarts(names: string[]): Float64Array {
  const out = new Float64Array(names.length);
  let k = 0;
  for (const n of names) {
    const v = segmentNameMs(n);
    if (v >= 0) out[k++] = v;
  }
  return out.subarray(0, k).sort();
}

/** An hour's summary as its listing gives it: count, first and last start, breaks between its segments (see isBreak). */
export interface NameSummary { n: number; first: number; last: number; inner: number }

/**
 * The name parsers in one self-contained function (no imports, no reference to anything outside it), so the
 * hour-listing worker (hour-worker.ts) embeds this very code from its source text and both threads summarise
 * hours by the same rule. Everything else uses the exports below.
 */
export function nameParsers() {
  /** Epoch ms named by a segment file name (`<digits>.m4s`), or -1 (temp files and other names). No regex, no slicing. */
  function segmentNameMs(n: string): number {
    const len = n.length - 4;
    if (len < 1 || len > 15 || n.charCodeAt(len) !== 46 || n.charCodeAt(len + 1) !== 109 || n.charCodeAt(len + 2) !== 52 || n.charCodeAt(len + 3) !== 115) return -1;
    let v = 0;
    for (let i = 0; i < len; i++) {
      const c = n.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return -1;
      v = v * 10 + c;
    }
    return v;
  }

  /**
   * Epoch ms named by the NUL-terminated name at `at` in a byte buffer (`d_name` of a getdents64 record), by the
   * rule of segmentNameMs, or -1. Reads stop at the first byte that breaks the pattern, so never past the NUL.
   */
  function segmentNameMsAt(b: Uint8Array, at: number): number {
    let v = 0, i = at;
    for (;; i++) {
      const c = b[i] - 48;
      if (c < 0 || c > 9) break;
      v = v * 10 + c;
    }
    const len = i - at;
    if (len < 1 || len > 15 || b[i] !== 46 || b[i + 1] !== 109 || b[i + 2] !== 52 || b[i + 3] !== 115 || b[i + 4] !== 0) return -1;
    return v;
  }

  /** Summary of one hour's listing (see summarizeStarts). Null when the listing names no segment. */
  function summarizeNames(names: string[], targetMs: number, inits: number[]): NameSummary | null {
    const v = new Float64Array(names.length);
    let n = 0;
    for (const name of names) {
      const ms = segmentNameMs(name);
      if (ms >= 0) v[n++] = ms;
    }
    return summarizeStarts(v, n, targetMs, inits);
  }

  /** Scratch bucket bounds of summarizeStarts (one set per thread: nameParsers runs once per thread). */
  let lo = new Int32Array(1024), hi = new Int32Array(1024);

  /**
   * Summary of the segment starts `v[0..n)` (in listing order) in one pass without sorting: breaks are gaps over 3
   * targets between consecutive starts, found exactly with buckets 3 targets wide (a gap that wide never lies inside
   * one bucket, so it is the distance from one non-empty bucket's max to the next one's min). Hours with an init
   * segment change inside them (a feed switch) or odd spreads fall back to sorting. Null when n is 0.
   */
  function summarizeStarts(v: Float64Array, n: number, targetMs: number, inits: number[]): NameSummary | null {
    if (!n) return null;
    const g = 3 * targetMs;
    let first = Infinity, last = -Infinity;
    for (let i = 0; i < n; i++) {
      const ms = v[i];
      if (ms < first) first = ms;
      if (ms > last) last = ms;
    }
    const initInside = inits.length > 1 && initIndex(inits, last) !== initIndex(inits, first);
    const buckets = Math.floor((last - first) / g) + 1;
    if (initInside || buckets > 4 * n + 1024 || last - first > 0x7ffffffe) {
      const s = v.subarray(0, n).sort();
      let inner = 0;
      for (let k = 1; k < n; k++) if (s[k] - s[k - 1] > g || (inits.length > 1 && initIndex(inits, s[k]) !== initIndex(inits, s[k - 1]))) inner++;
      return { n, first, last, inner };
    }
    // Bucket bounds as offsets from `first` (Int32: wider spreads went to the sort above), in the scratch arrays:
    // an hour's summary allocates nothing.
    if (lo.length < buckets) { lo = new Int32Array(buckets * 2); hi = new Int32Array(buckets * 2); }
    for (let b = 0; b < buckets; b++) { lo[b] = 0x7fffffff; hi[b] = -1; }
    for (let i = 0; i < n; i++) {
      const d = v[i] - first, b = Math.floor(d / g);
      if (d < lo[b]) lo[b] = d;
      if (d > hi[b]) hi[b] = d;
    }
    let inner = 0, prev = hi[0];
    for (let b = 1; b < buckets; b++) {
      if (hi[b] < 0) continue;
      if (lo[b] - prev > g) inner++;
      prev = hi[b];
    }
    return { n, first, last, inner };
  }

  /** Index in `inits` of the init segment in force at `ms` (the newest at or before it), or -1. */
  function initIndex(inits: number[], ms: number): number {
    let lo = 0, hi = inits.length - 1, ans = -1;
    while (lo <= hi) { const mid = (lo + hi) >> 1; if (inits[mid] <= ms) { ans = mid; lo = mid + 1; } else hi = mid - 1; }
    return ans;
  }

  return { segmentNameMs, segmentNameMsAt, summarizeNames, summarizeStarts, initIndex };
}

export const { segmentNameMs, segmentNameMsAt, summarizeNames, summarizeStarts, initIndex } = nameParsers();

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
