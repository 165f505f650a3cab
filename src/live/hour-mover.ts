/**
 * Closed recording hours move to a bucket media store (docs/scale-out.md "Recordings"). An hour is closed once it is
 * over and two minutes have passed (a segment that started in its last seconds has landed by then), so no writer holds
 * it; the open hour stays on local disk. A move is crash-safe: the `live_hour_moves` record says `moving` before the
 * first copy, every segment is copied and its size read back from the bucket, the hour's init segments are copied
 * too (they stay on disk for the live hours), the index rows are derived from the bucket listing, and only then is
 * the record `moved` and are the local files removed. A restart finishes whatever a killed move left (`resume`):
 * copies that are already there with their size are not made again, and a local file is removed only once the bucket
 * holds it. Retention marks a bucket hour `deleting` with its index rows gone; `sweep` then removes its objects.
 * Retention or a channel delete during a move cancels it: the move stops after the copy in flight and leaves what it
 * copied to the sweep, and an hour whose rows are gone is never started (no record the sweep would not see).
 */
import { rmdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../kernel/log';
import type { MediaStore } from '../kernel/media-store/types';
import { tx } from '../kernel/db/sqlite';
import { HOUR_MS, hourDir, initIndex, listInits, pruneEmptyParents, segmentNameMs } from './hours';
import { HourMoves, hourPrefix, initPrefix, BUCKET_MTIME, type MoveRow } from './hour-moves';
import { hoursOfListing, reindexHour } from './bucket-index';
import { renditionDir } from './paths';
import type { IndexedChannel } from './model';
import type { SegmentIndex } from './segment-index';
import type { HourRow } from './segment-store';

/** How long after an hour is over it counts as closed. */
export const CLOSE_GRACE_MS = 120_000;

/** Options of the mover: the test knobs of `config.recordingMove` and a clock. */
export interface MoverOptions { idleCloseMs: number | null; stepMs: number; now: () => number; log: Logger }

/** What one pass did. */
export interface MoveStats { moved: number; objects: number; deleted: number; reindexed: number; failed: number }

const empty = (): MoveStats => ({ moved: 0, objects: 0, deleted: 0, reindexed: 0, failed: 0 });

/** Moves closed hours to the bucket, resumes killed moves, deletes hours retention dropped, rebuilds missing index rows. */
export class HourMover {
  readonly moves: HourMoves;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(private index: SegmentIndex, private store: MediaStore, private o: MoverOptions) { this.moves = new HourMoves(index.db); }

  /** Hours of a channel that are closed and still have local files (never moved, a move not finished, or segments added since). */
  candidates(ch: IndexedChannel): HourRow[] {
    const now = this.o.now(), idle = this.o.idleCloseMs;
    return this.index.db.query<HourRow, [string, number, number, number]>(
      `SELECT h.* FROM live_hours h LEFT JOIN live_hour_moves m ON m.channel_id = h.channel_id AND m.rendition = h.rendition AND m.hour_ms = h.hour_ms
       WHERE h.channel_id = ?1 AND (m.state IS NULL OR m.state = 'moving' OR (m.state = 'moved' AND h.dir_mtime != ${BUCKET_MTIME}))
         AND (h.hour_ms + ${HOUR_MS} + ?2 <= ?3 OR (?4 >= 0 AND h.end_ms + ?4 <= ?3))
       ORDER BY h.hour_ms, h.rendition`,
    ).all(ch.id, CLOSE_GRACE_MS, now, idle ?? -1);
  }

  /** One pass over the channels (serialised: a pass waits for the one before). */
  pass(channels: IndexedChannel[]): Promise<MoveStats> {
    const run = this.busy.then(() => this.passNow(channels));
    this.busy = run.catch(() => undefined);
    return run;
  }

  private async passNow(channels: IndexedChannel[]): Promise<MoveStats> {
    const st = empty();
    await this.sweep(st);
    for (const ch of channels) {
      for (const h of this.candidates(ch)) {
        try { st.objects += await this.moveHour(ch, h.rendition, h.hour_ms); st.moved++; } catch (e) {
          st.failed++;
          this.o.log.warn('moving a recording hour to the media store failed (retried on the next pass)', { channel: ch.id, rendition: h.rendition, hour: new Date(h.hour_ms).toISOString(), error: String((e as Error).message ?? e) });
          return st; // the bucket is likely unreachable: one warning per pass, not one per hour
        }
      }
    }
    return st;
  }

  /**
   * Start-up, before the local reconciliation: finishes killed moves (records still `moving`, or `moved` with local
   * files left), removes the objects of hours retention dropped, and rebuilds from the bucket listing the index rows
   * of bucket-held hours that have none.
   */
  resume(channels: IndexedChannel[]): Promise<MoveStats> {
    const run = this.busy.then(async () => {
      const st = empty();
      await this.sweep(st);
      const byId = new Map(channels.map((c) => [c.id, c]));
      for (const m of [...this.moves.inState('moving'), ...this.moves.inState('moved')]) {
        const ch = byId.get(m.channel_id);
        if (!ch) continue;
        try {
          if (m.state === 'moving' || localNames(this.index.dataDir, ch, m.rendition, m.hour_ms).length) { st.objects += await this.moveHour(ch, m.rendition, m.hour_ms); st.moved++; }
          else if (this.rowsMissing(ch, m.rendition, m.hour_ms)) { await reindexHour(this.index, this.store, ch, m.rendition, m.hour_ms); st.reindexed++; }
        } catch (e) {
          st.failed++;
          this.o.log.warn('resuming a recording hour move failed (retried on the next pass)', { channel: ch.id, rendition: m.rendition, hour: new Date(m.hour_ms).toISOString(), error: String((e as Error).message ?? e) });
        }
      }
      return st;
    });
    this.busy = run.catch(() => undefined);
    return run;
  }

  /** True when a bucket-held hour has no index row, or fewer or more segment rows than its row counts (lost behind our back). */
  private rowsMissing(ch: IndexedChannel, rendition: string, hourMs: number): boolean {
    const h = this.index.store.hour(ch.id, rendition, hourMs);
    return !h || this.index.store.countRows(ch.id, rendition, hourMs) !== h.n;
  }

  /**
   * Copies one hour's local segments (and the init segments they need) to the bucket, verifies each copy's size,
   * indexes the hour from the bucket listing, records it `moved`, then removes the local files. Returns objects copied.
   */
  async moveHour(ch: IndexedChannel, rendition: string, hourMs: number): Promise<number> {
    const dataDir = this.index.dataDir, now = this.o.now;
    const prev = this.moves.get(ch.id, rendition, hourMs);
    if (prev?.state === 'deleting') return 0;
    // A first move only of an hour still indexed: retention or a channel delete since the candidates were listed
    // dropped its rows (and would never sweep a record made after them).
    if (!prev && !this.index.store.hour(ch.id, rendition, hourMs)) return 0;
    this.moves.put({ channel_id: ch.id, rendition, hour_ms: hourMs, tenant_id: ch.tenant_id, state: 'moving', n: prev?.n ?? 0, bytes: prev?.bytes ?? 0, updated_at: now() });
    const dir = hourDir(dataDir, ch.tenant_id, ch.id, rendition, hourMs);
    const prefix = hourPrefix(ch.tenant_id, ch.id, rendition, hourMs);
    const names = localNames(dataDir, ch, rendition, hourMs);
    const inits = listInits(renditionDir(dataDir, ch.tenant_id, ch.id, rendition));
    const needInits = new Set<number>();
    const verified: string[] = [];
    let copied = 0;
    for (const n of names) {
      const path = join(dir, n);
      const size = statSync(path, { throwIfNoEntry: false })?.size;
      if (size === undefined) continue;
      const ii = initIndex(inits, segmentNameMs(n));
      if (ii >= 0) needInits.add(inits[ii]);
      if (await this.copy(`${prefix}${n}`, path, size)) copied++;
      verified.push(path);
      if (this.cancelled(ch, rendition, hourMs)) return copied;
    }
    for (const ms of needInits) {
      const path = join(renditionDir(dataDir, ch.tenant_id, ch.id, rendition), 'init', `${ms}.mp4`);
      const size = statSync(path, { throwIfNoEntry: false })?.size;
      if (size !== undefined && (await this.copy(`${initPrefix(ch.tenant_id, ch.id, rendition)}${ms}.mp4`, path, size))) copied++;
      if (this.cancelled(ch, rendition, hourMs)) return copied;
    }
    if (this.cancelled(ch, rendition, hourMs)) return copied;
    const n = await reindexHour(this.index, this.store, ch, rendition, hourMs);
    const h = this.index.store.hour(ch.id, rendition, hourMs);
    const done = tx(this.index.db, () => {
      if (this.moves.get(ch.id, rendition, hourMs)?.state !== 'moving') return false; // retention dropped it meanwhile
      if (!n) { this.moves.delete(ch.id, rendition, hourMs); return true; }
      this.moves.put({ channel_id: ch.id, rendition, hour_ms: hourMs, tenant_id: ch.tenant_id, state: 'moved', n, bytes: h?.bytes ?? 0, updated_at: now() });
      return true;
    });
    if (!done) return copied;
    for (const p of verified) { try { unlinkSync(p); } catch { /* gone */ } }
    try { rmdirSync(dir); pruneEmptyParents(dir); } catch { /* not empty: a segment landed since (moved on the next pass) */ }
    return copied;
  }

  /**
   * True once retention or a channel delete dropped an hour being moved (its record `deleting`, or gone): the move
   * stops there, and what it copied, the upload in flight included (it has landed by now), is left to the sweep,
   * which the record in `deleting` still names. A record that vanished meanwhile (swept while this upload was in
   * flight: a second mover, such as `viewstream recordings reindex`) is turned back to `deleting`, so the objects
   * copied after that sweep go on the next one.
   */
  private cancelled(ch: IndexedChannel, rendition: string, hourMs: number): boolean {
    const m = this.moves.get(ch.id, rendition, hourMs);
    if (m?.state === 'moving') return false;
    if (!m) this.moves.put({ channel_id: ch.id, rendition, hour_ms: hourMs, tenant_id: ch.tenant_id, state: 'deleting', n: 0, bytes: 0, updated_at: this.o.now() });
    return true;
  }

  /** Copies a local file to `key` unless the bucket holds it with this size; the copy's size is read back. True when copied. */
  private async copy(key: string, path: string, size: number): Promise<boolean> {
    if ((await this.store.stat(key))?.size === size) return false;
    await this.store.putFile(key, path);
    const got = (await this.store.stat(key))?.size;
    if (got !== size) throw new Error(`copy of ${key} has ${got ?? 'no'} bytes, the file ${size}`);
    if (this.o.stepMs > 0) await Bun.sleep(this.o.stepMs);
    return true;
  }

  /** Removes the objects of hours retention dropped (`deleting`), then their records; unused bucket inits go too. */
  async sweep(st: MoveStats = empty()): Promise<MoveStats> {
    const touched = new Map<string, MoveRow>();
    for (const m of this.moves.inState('deleting')) {
      try {
        st.deleted += await this.store.deletePrefix(hourPrefix(m.tenant_id, m.channel_id, m.rendition, m.hour_ms));
        this.moves.delete(m.channel_id, m.rendition, m.hour_ms);
        touched.set(`${m.channel_id}/${m.rendition}`, m);
      } catch (e) { st.failed++; this.o.log.warn('deleting a bucket recording hour failed (retried)', { channel: m.channel_id, error: String(e) }); }
    }
    for (const m of touched.values()) {
      const first = this.index.store.hours(m.channel_id, m.rendition)[0];
      const prefix = initPrefix(m.tenant_id, m.channel_id, m.rendition);
      const inits = (await this.store.list(prefix)).map((e) => Number(/(\d+)\.mp4$/.exec(e.key)?.[1])).filter((x) => x > 0).sort((a, b) => a - b);
      const keepFrom = first ? initIndex(inits, first.first_ms) : inits.length;
      for (let i = 0; i < keepFrom; i++) await this.store.delete(`${prefix}${inits[i]}.mp4`);
    }
    return st;
  }

  /**
   * Rebuilds the index rows of a channel's bucket-held hours from the bucket listing (`viewstream recordings
   * reindex`): every hour the listing names under the channel, recorded `moved` if it was not. Returns segments indexed.
   */
  async reindexChannel(ch: IndexedChannel): Promise<{ hours: number; segments: number }> {
    const keys = (await this.store.list(`rec/${ch.tenant_id}/${ch.id}/`)).map((e) => e.key);
    let hours = 0, segments = 0;
    for (const [rendition, set] of hoursOfListing(keys, ch.tenant_id, ch.id)) {
      for (const hourMs of [...set].sort((a, b) => a - b)) {
        const m = this.moves.get(ch.id, rendition, hourMs);
        if (m?.state === 'deleting') continue;
        if (m?.state === 'moving' || localNames(this.index.dataDir, ch, rendition, hourMs).length) { await this.moveHour(ch, rendition, hourMs); }
        else {
          const n = await reindexHour(this.index, this.store, ch, rendition, hourMs);
          const h = this.index.store.hour(ch.id, rendition, hourMs);
          if (n) this.moves.put({ channel_id: ch.id, rendition, hour_ms: hourMs, tenant_id: ch.tenant_id, state: 'moved', n, bytes: h?.bytes ?? 0, updated_at: this.o.now() });
        }
        hours++; segments += this.index.store.hour(ch.id, rendition, hourMs)?.n ?? 0;
      }
    }
    return { hours, segments };
  }
}

/** Segment file names in an hour's local directory. */
function localNames(dataDir: string, ch: IndexedChannel, rendition: string, hourMs: number): string[] {
  try { return readdirSync(hourDir(dataDir, ch.tenant_id, ch.id, rendition, hourMs)).filter((n) => segmentNameMs(n) >= 0).sort(); } catch { return []; }
}
