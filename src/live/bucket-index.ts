/**
 * The segment index of recording hours held in a bucket, derived from the bucket listing (plus any segment still on
 * local disk), by the rules of the local listing (segment-index.ts `materialize`, reconcile.ts): names give starts,
 * durations come from the next start in the same run, the last of a run is measured from its boxes (that one object
 * fetched), sizes from the listing. The move writes these rows when an hour reaches the bucket, and a rebuild
 * (`viewstream recordings reindex`, or start-up when an index row is missing) writes the same ones again.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MediaStore } from '../kernel/media-store/types';
import { tx } from '../kernel/db/sqlite';
import { HOUR_MS, hourDir, initIndex, isBreak, listInits, measuredDuration, segmentNameMs } from './hours';
import { BUCKET_MTIME, hourPrefix, initPrefix } from './hour-moves';
import { renditionDir, segmentRelPath } from './paths';
import type { IndexedChannel, SegmentRow } from './model';
import type { SegmentIndex } from './segment-index';
import type { HourRow } from './segment-store';

/** One segment of a bucket-held hour as the listings name it. */
interface Listed { startMs: number; size: number; local: boolean }

/** Segments of one rendition-hour: the bucket listing and the local directory's names (local wins), by start. */
export async function listHour(store: MediaStore, dataDir: string, ch: IndexedChannel, rendition: string, hourMs: number): Promise<Listed[]> {
  const by = new Map<number, Listed>();
  const prefix = hourPrefix(ch.tenant_id, ch.id, rendition, hourMs);
  for (const e of await store.list(prefix)) {
    const ms = segmentNameMs(e.key.slice(prefix.length));
    if (ms >= 0) by.set(ms, { startMs: ms, size: e.size, local: false });
  }
  const dir = hourDir(dataDir, ch.tenant_id, ch.id, rendition, hourMs);
  let names: string[] = [];
  try { names = readdirSync(dir); } catch { /* none left locally */ }
  for (const n of names) {
    const ms = segmentNameMs(n);
    const st = ms >= 0 ? statSync(join(dir, n), { throwIfNoEntry: false }) : undefined;
    if (st) by.set(ms, { startMs: ms, size: st.size, local: true });
  }
  return [...by.values()].sort((a, b) => a.startMs - b.startMs);
}

/** Init segment starts of a rendition on local disk and in the bucket, ascending. */
export async function allInits(store: MediaStore, dataDir: string, ch: IndexedChannel, rendition: string): Promise<number[]> {
  const set = new Set(listInits(renditionDir(dataDir, ch.tenant_id, ch.id, rendition)));
  const prefix = initPrefix(ch.tenant_id, ch.id, rendition);
  for (const e of await store.list(prefix)) {
    const m = /^(\d+)\.mp4$/.exec(e.key.slice(prefix.length));
    if (m) set.add(Number(m[1]));
  }
  return [...set].sort((a, b) => a - b);
}

/** A local path of a recording object: the file itself while on disk, else a copy fetched into `tmp` (removed by the caller). */
async function localCopy(store: MediaStore, dataDir: string, rel: string, tmp: string): Promise<string | null> {
  const abs = join(dataDir, rel);
  if (existsSync(abs)) return abs;
  mkdirSync(tmp, { recursive: true });
  const p = join(tmp, rel.replace(/\//g, '_'));
  return (await store.getFile(rel, p)) ? p : null;
}

/**
 * Rebuilds one bucket-held hour's `live_hours` row and `live_segments` rows from its listing. Sequence and
 * discontinuity numbers continue the hour's stored row when there is one, else the previous hour's. Returns the
 * segments indexed (0: nothing listed, the hour's rows are dropped).
 */
export async function reindexHour(index: SegmentIndex, store: MediaStore, ch: IndexedChannel, rendition: string, hourMs: number): Promise<number> {
  const dataDir = index.dataDir;
  const listed = await listHour(store, dataDir, ch, rendition, hourMs);
  const inits = await allInits(store, dataDir, ch, rendition);
  const target = ch.segment_s * 1000;
  const before = index.store.hour(ch.id, rendition, hourMs);
  const prev = index.db.query<HourRow, [string, string, number]>('SELECT * FROM live_hours WHERE channel_id = ? AND rendition = ? AND hour_ms < ? ORDER BY hour_ms DESC LIMIT 1').get(ch.id, rendition, hourMs);
  const next = index.store.hourAfter(ch.id, rendition, hourMs);
  const tmp = join(dataDir, 'tmp', `rec-reindex-${process.pid}-${hourMs}`);
  const rows: SegmentRow[] = [];
  try {
    const first = listed[0]?.startMs ?? 0;
    const firstDisc = before ? before.first_disc : prev ? (isBreak(prev.last_ms, initIndex(inits, prev.last_ms), first, initIndex(inits, first), target) ? 1 : 0) : 0;
    const firstSeq = before ? before.first_seq : prev ? prev.first_seq + prev.n : 0;
    let discSeq = before ? before.disc_seq_start : prev ? prev.disc_seq_start + prev.inner_discs + firstDisc : 0;
    let prevMs = -1, prevIi = -1;
    for (let i = 0; i < listed.length; i++) {
      const s = listed[i].startMs, ii = initIndex(inits, s), initMs = ii >= 0 ? inits[ii] : s;
      const ns = i + 1 < listed.length ? listed[i + 1].startMs : next?.first_ms;
      const rel = segmentRelPath(ch.tenant_id, ch.id, rendition, s);
      let dur: number;
      if (ns !== undefined && !isBreak(s, ii, ns, initIndex(inits, ns), target)) dur = ns - s;
      else {
        const seg = await localCopy(store, dataDir, `rec/${rel}`, tmp);
        const init = ii >= 0 ? await localCopy(store, dataDir, `${initPrefix(ch.tenant_id, ch.id, rendition)}${initMs}.mp4`, tmp) : null;
        dur = seg ? measuredDuration(seg, init, target) : target;
      }
      const disc = i === 0 ? firstDisc : isBreak(prevMs, prevIi, s, ii, target) ? 1 : 0;
      if (i > 0) discSeq += disc;
      rows.push({ channel_id: ch.id, rendition, start_ms: s, duration_ms: dur, bytes: listed[i].size, path: rel, discontinuity: disc, init_ms: initMs, seq: firstSeq + i, disc_seq: discSeq });
      prevMs = s; prevIi = ii;
    }
  } finally { rmSync(tmp, { recursive: true, force: true }); }
  tx(index.db, () => {
    index.store.deleteRows(ch.id, rendition, hourMs);
    if (!rows.length) { index.store.deleteHour(ch.id, rendition, hourMs); return; }
    index.store.insertRows(rows);
    const f = rows[0], l = rows[rows.length - 1];
    index.store.upsertHour({
      channel_id: ch.id, rendition, hour_ms: hourMs, n: rows.length, first_ms: f.start_ms, last_ms: l.start_ms, end_ms: Math.max(...rows.map((r) => r.start_ms + r.duration_ms)),
      first_seq: f.seq, disc_seq_start: f.disc_seq, first_disc: f.discontinuity, inner_discs: l.disc_seq - f.disc_seq, bytes: rows.reduce((a, r) => a + r.bytes, 0),
      dir_mtime: BUCKET_MTIME, materialized: 1,
    });
  });
  return rows.length;
}

/** Hour starts of one rendition named by a bucket listing of the channel (`rec/<tenant>/<channel>/<rendition>/YYYY/MM/DD/HH/…`). */
export function hoursOfListing(keys: string[], tenantId: string, channelId: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const head = `rec/${tenantId}/${channelId}/`;
  for (const k of keys) {
    if (!k.startsWith(head)) continue;
    const m = /^([^/]+)\/(\d{4})\/(\d{2})\/(\d{2})\/(\d{2})\/\d+\.m4s$/.exec(k.slice(head.length));
    if (!m) continue;
    const h = Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]), Number(m[5]));
    if (h % HOUR_MS === 0) (out.get(m[1]) ?? out.set(m[1], new Set()).get(m[1])!).add(h);
  }
  return out;
}
