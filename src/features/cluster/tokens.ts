import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../kernel/db/sqlite';
import { newId } from '../../kernel/ids';

/** A worker token as listed (never the token itself). */
export interface WorkerTokenRow { id: string; name: string; created_at: number; revoked_at: number | null; last_seen_at: number | null }

const hash = (t: string) => createHash('sha256').update(t).digest('hex');

/** Creates a worker token: returns it once (`vsw_` + 32 random bytes); only its hash is stored. */
export function createWorkerToken(db: Db, name: string, now = Date.now()): { id: string; name: string; token: string } {
  const token = `vsw_${randomBytes(32).toString('base64url')}`;
  const id = newId();
  db.query('INSERT INTO worker_tokens (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)').run(id, name, hash(token), now);
  return { id, name, token };
}

/** Every worker token, oldest first. */
export function listWorkerTokens(db: Db): WorkerTokenRow[] {
  return db.query<WorkerTokenRow, []>('SELECT id, name, created_at, revoked_at, last_seen_at FROM worker_tokens ORDER BY seq').all();
}

/** Revokes the token with this id or name; returns how many were revoked. */
export function revokeWorkerToken(db: Db, idOrName: string, now = Date.now()): number {
  return db.query('UPDATE worker_tokens SET revoked_at = ? WHERE (id = ? OR name = ?) AND revoked_at IS NULL').run(now, idOrName, idOrName).changes;
}

/** The token's worker (id and name) when it exists and is not revoked; null otherwise. */
export function checkWorkerToken(db: Db, token: string): { id: string; name: string } | null {
  if (!token.startsWith('vsw_')) return null;
  return db.query<{ id: string; name: string }, [string]>('SELECT id, name FROM worker_tokens WHERE token_hash = ? AND revoked_at IS NULL').get(hash(token)) ?? null;
}

/** Records that a worker was heard from (joined or reported). */
export function touchWorkerToken(db: Db, id: string, now = Date.now()): void {
  db.query('UPDATE worker_tokens SET last_seen_at = ? WHERE id = ?').run(now, id);
}
