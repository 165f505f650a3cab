import type { Db } from '../../kernel/db/sqlite';
import type { LiveChannel, LiveChannelPatch, LiveChannelStore, SegmentRow } from '../../live/model';
import { sealerOf } from '../../kernel/secrets/seal';
import { secretHash } from '../../kernel/secrets/columns';

/** A channel row as stored: the shape the live engine runs. */
export type ChannelRow = LiveChannel;
export type { SegmentRow };

/** Columns a PATCH or runtime update may change. */
export type ChannelPatch = LiveChannelPatch;

/** Stored form of the ingest secrets: sealed under the master key, stream keys with their SHA-256 for lookups. */
type StoredSecrets = Partial<Pick<ChannelRow, 'srt_passphrase' | 'rtmp_key_primary' | 'rtmp_key_backup'>> & { rtmp_hash_primary?: string; rtmp_hash_backup?: string };

/** SQL for channels (the segment index's SQL is the live layer's: src/live/segment-store.ts). Ingest secrets are sealed at rest. */
export class ChannelStore implements LiveChannelStore {
  constructor(private db: Db) {}

  /** Seals the ingest secrets a row or patch carries (and hashes the stream keys). */
  private sealed<T extends StoredSecrets>(p: T): T {
    const s = sealerOf(this.db);
    const out: T = { ...p };
    if (p.srt_passphrase !== undefined) out.srt_passphrase = s.seal(p.srt_passphrase);
    if (p.rtmp_key_primary !== undefined) { out.rtmp_key_primary = s.seal(p.rtmp_key_primary); out.rtmp_hash_primary = secretHash(p.rtmp_key_primary); }
    if (p.rtmp_key_backup !== undefined) { out.rtmp_key_backup = s.seal(p.rtmp_key_backup); out.rtmp_hash_backup = secretHash(p.rtmp_key_backup); }
    return out;
  }

  /** A row as callers see it: secrets opened, lookup hashes dropped. */
  private opened<T extends ChannelRow | null>(r: T): T {
    if (!r) return r;
    const s = sealerOf(this.db);
    const x = r as ChannelRow & StoredSecrets;
    x.srt_passphrase = s.open(x.srt_passphrase);
    x.rtmp_key_primary = s.open(x.rtmp_key_primary);
    x.rtmp_key_backup = s.open(x.rtmp_key_backup);
    delete x.rtmp_hash_primary; delete x.rtmp_hash_backup;
    return r;
  }

  insert(r: Omit<ChannelRow, 'seq'>): void {
    const row = this.sealed(r);
    const cols = Object.keys(row);
    this.db.query(`INSERT INTO channels (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`).run(...(Object.values(row) as never[]));
  }

  byId(tenantId: string, id: string): ChannelRow | null {
    return this.opened(this.db.query<ChannelRow, [string, string]>('SELECT * FROM channels WHERE tenant_id = ? AND id = ?').get(tenantId, id));
  }

  /** A channel by id in any tenant (runtime use only). */
  anyById(id: string): ChannelRow | null {
    return this.opened(this.db.query<ChannelRow, [string]>('SELECT * FROM channels WHERE id = ?').get(id));
  }

  bySlug(tenantId: string, slug: string): ChannelRow | null {
    return this.opened(this.db.query<ChannelRow, [string, string]>('SELECT * FROM channels WHERE tenant_id = ? AND slug = ?').get(tenantId, slug));
  }

  /** A channel by tenant slug and channel slug (delivery paths). */
  byTenantSlug(tenantSlug: string, slug: string): (ChannelRow & { tenant_slug: string }) | null {
    return this.opened(this.db.query<ChannelRow & { tenant_slug: string }, [string, string]>(
      'SELECT c.*, t.slug AS tenant_slug FROM channels c JOIN tenants t ON t.id = c.tenant_id WHERE t.slug = ? AND c.slug = ?',
    ).get(tenantSlug, slug));
  }

  /** The channel and input owning an RTMP stream key (found by the key's SHA-256; the key itself is sealed). */
  byStreamKey(key: string): ChannelRow | null {
    const h = secretHash(key);
    return this.opened(this.db.query<ChannelRow, [string, string]>('SELECT * FROM channels WHERE rtmp_hash_primary = ? OR rtmp_hash_backup = ?').get(h, h));
  }

  list(tenantId: string, beforeSeq: number | null, limit: number): ChannelRow[] {
    return this.db.query<ChannelRow, [string, number, number]>('SELECT * FROM channels WHERE tenant_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?')
      .all(tenantId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1).map((r) => this.opened(r));
  }

  /** Channels whose operator asked them to run (restarted at boot). */
  started(): ChannelRow[] {
    return this.db.query<ChannelRow, []>("SELECT * FROM channels WHERE desired = 'started'").all().map((r) => this.opened(r));
  }

  /** Every channel (retention, reconciliation). */
  all(): (ChannelRow & { tenant_slug: string })[] {
    return this.db.query<ChannelRow & { tenant_slug: string }, []>('SELECT c.*, t.slug AS tenant_slug FROM channels c JOIN tenants t ON t.id = c.tenant_id').all().map((r) => this.opened(r));
  }

  /** SRT ports already held by channels. */
  usedPorts(): Set<number> {
    const rows = this.db.query<{ a: number; b: number }, []>('SELECT srt_port_primary AS a, srt_port_backup AS b FROM channels').all();
    return new Set(rows.flatMap((r) => [r.a, r.b]));
  }

  update(id: string, patch: ChannelPatch, at: number): void {
    const p = this.sealed(patch);
    const cols = Object.keys(p);
    if (!cols.length) return;
    this.db.query(`UPDATE channels SET ${cols.map((c) => `${c} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
      .run(...(Object.values(p) as never[]), at, id);
  }

  delete(id: string): void {
    this.db.query('DELETE FROM live_segments WHERE channel_id = ?').run(id);
    this.db.query('DELETE FROM live_hours WHERE channel_id = ?').run(id);
    // Hours held in a bucket media store: the live engine's sweep deletes their objects (src/live/hour-mover.ts).
    this.db.query("UPDATE live_hour_moves SET state = 'deleting' WHERE channel_id = ?").run(id);
    this.db.query('DELETE FROM channels WHERE id = ?').run(id);
  }
}
