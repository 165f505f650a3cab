import type { Db } from '../kernel/db/sqlite';
import { segmentRelPath } from './paths';

/** Where a bucket-held recording hour stands (migration 0240): being copied, in the bucket, or being deleted. */
export type MoveState = 'moving' | 'moved' | 'deleting';

/** One recording hour's move record. */
export interface MoveRow { channel_id: string; rendition: string; hour_ms: number; tenant_id: string; state: MoveState; n: number; bytes: number; updated_at: number }

/** The `live_hour_moves` dir_mtime marker: a `live_hours` row whose hour lives in the bucket (no local directory). */
export const BUCKET_MTIME = 0;

/** Media store key prefix of one rendition-hour (`rec/<tenant>/<channel>/<rendition>/YYYY/MM/DD/HH/`). */
export function hourPrefix(tenantId: string, channelId: string, rendition: string, hourMs: number): string {
  const rel = segmentRelPath(tenantId, channelId, rendition, hourMs);
  return `rec/${rel.slice(0, rel.lastIndexOf('/') + 1)}`;
}

/** Media store key prefix of a rendition's init segments. */
export function initPrefix(tenantId: string, channelId: string, rendition: string): string {
  return `rec/${tenantId}/${channelId}/${rendition}/init/`;
}

/** SQL of the move records (durable, unlike the segment index, which is a cache of listings). */
export class HourMoves {
  constructor(private db: Db) {}

  get(channelId: string, rendition: string, hourMs: number): MoveRow | null {
    return this.db.query<MoveRow, [string, string, number]>('SELECT * FROM live_hour_moves WHERE channel_id = ? AND rendition = ? AND hour_ms = ?').get(channelId, rendition, hourMs);
  }

  /** Inserts or replaces a record. */
  put(m: MoveRow): void {
    this.db.query('INSERT OR REPLACE INTO live_hour_moves (channel_id, rendition, hour_ms, tenant_id, state, n, bytes, updated_at) VALUES (?,?,?,?,?,?,?,?)')
      .run(m.channel_id, m.rendition, m.hour_ms, m.tenant_id, m.state, m.n, m.bytes, m.updated_at);
  }

  setState(channelId: string, rendition: string, hourMs: number, state: MoveState, at: number): void {
    this.db.query('UPDATE live_hour_moves SET state = ?, updated_at = ? WHERE channel_id = ? AND rendition = ? AND hour_ms = ?').run(state, at, channelId, rendition, hourMs);
  }

  delete(channelId: string, rendition: string, hourMs: number): void {
    this.db.query('DELETE FROM live_hour_moves WHERE channel_id = ? AND rendition = ? AND hour_ms = ?').run(channelId, rendition, hourMs);
  }

  /** Records in one state, oldest hour first (optionally of one channel). */
  inState(state: MoveState, channelId?: string): MoveRow[] {
    return channelId
      ? this.db.query<MoveRow, [string, string]>('SELECT * FROM live_hour_moves WHERE state = ? AND channel_id = ? ORDER BY hour_ms').all(state, channelId)
      : this.db.query<MoveRow, [string]>('SELECT * FROM live_hour_moves WHERE state = ? ORDER BY hour_ms').all(state);
  }

  /** Hours of a rendition held in the bucket (moving or moved): the local reconciliation leaves them alone. */
  held(channelId: string, rendition: string): Set<number> {
    return new Set(this.db.query<{ hour_ms: number }, [string, string]>("SELECT hour_ms FROM live_hour_moves WHERE channel_id = ? AND rendition = ? AND state IN ('moving', 'moved')")
      .all(channelId, rendition).map((r) => r.hour_ms));
  }

  /** True when the hour is held in the bucket (moving or moved). */
  isHeld(channelId: string, rendition: string, hourMs: number): boolean {
    const s = this.get(channelId, rendition, hourMs)?.state;
    return s === 'moving' || s === 'moved';
  }

  /** Renditions of a channel with hours held in the bucket. */
  renditions(channelId: string): string[] {
    return this.db.query<{ rendition: string }, [string]>("SELECT DISTINCT rendition FROM live_hour_moves WHERE channel_id = ? AND state IN ('moving', 'moved')").all(channelId).map((r) => r.rendition);
  }
}
