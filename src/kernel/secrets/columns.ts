import { createHash } from 'node:crypto';
import type { Database } from 'bun:sqlite';
import { SEAL_PREFIX, type Sealer } from './seal';

/** A database column holding a sealed secret; `hash` names a column holding its SHA-256 (for lookups by value). */
export interface SealedColumn { table: string; column: string; hash?: string }

/** Every column that stores a secret (the schema's own list, beside the migrations that create them). */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'secrets', column: 'value' }, // service-wide secrets: cursor HMAC, hls-aes content-key master
  { table: 'playback_signing_keys', column: 'secret' },
  { table: 'webhook_endpoints', column: 'secret' }, // whsec_
  { table: 'inbound_hooks', column: 'secret' }, // hksec_
  { table: 'channels', column: 'srt_passphrase' },
  { table: 'channels', column: 'rtmp_key_primary', hash: 'rtmp_hash_primary' },
  { table: 'channels', column: 'rtmp_key_backup', hash: 'rtmp_hash_backup' },
  { table: 'guide_destinations', column: 'credentials' }, // HTTPS signing secret, SFTP key or password, S3 secret key
  { table: 'guide_destinations', column: 'pull_token' },
];

/** Hex SHA-256 of a secret, stored beside the sealed value where it is looked up by value (RTMP stream keys). */
export function secretHash(plain: string): string {
  return createHash('sha256').update(plain).digest('hex');
}

/** The WHERE clause picking values not sealed under the current key (or missing their hash). */
const staleWhere = (c: SealedColumn, headLen: number) => `(substr(${c.column}, 1, ${headLen}) <> ?1${c.hash ? ` OR ${c.hash} IS NULL` : ''})`;

/** True when some stored secret is plaintext, under another key or missing its hash (a read; no lock taken). */
export function needsRewrap(db: Database, sealer: Sealer): boolean {
  const head = `${SEAL_PREFIX}${sealer.kid}:`;
  return SEALED_COLUMNS.some((c) => db.query<{ x: number }, [string]>(`SELECT 1 AS x FROM ${c.table} WHERE ${staleWhere(c, head.length)} LIMIT 1`).get(head) !== null);
}

/** Counts of values rewritten, by `table.column`. */
export type RewrapCounts = Record<string, number>;

/**
 * Re-seals stored secrets with `sealer`'s current key: legacy plaintext and values under another key (`all`: every
 * value). Fills missing hash columns. Call inside one transaction; opening with `from` (default `sealer`).
 */
export function rewrap(db: Database, sealer: Sealer, o: { all?: boolean; from?: Sealer } = {}): RewrapCounts {
  const from = o.from ?? sealer;
  const head = `${SEAL_PREFIX}${sealer.kid}:`;
  const counts: RewrapCounts = {};
  for (const c of SEALED_COLUMNS) {
    const stale = o.all ? '1' : staleWhere(c, head.length);
    const rows = db.query<{ rid: number; v: string }, [string] | []>(`SELECT rowid AS rid, ${c.column} AS v FROM ${c.table} WHERE ${stale}`)
      .all(...((o.all ? [] : [head]) as [string]));
    const set = db.query(`UPDATE ${c.table} SET ${c.column} = ?${c.hash ? `, ${c.hash} = ?` : ''} WHERE rowid = ?`);
    for (const r of rows) {
      const plain = from.open(r.v);
      const args = c.hash ? [sealer.seal(plain), secretHash(plain), r.rid] : [sealer.seal(plain), r.rid];
      set.run(...(args as [string, number]));
    }
    counts[`${c.table}.${c.column}`] = rows.length;
  }
  return counts;
}
