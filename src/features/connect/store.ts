import type { Db } from '../../kernel/db/sqlite';

/** A site-connection code row (only the code's hash is kept). */
export interface CodeRow {
  hash: string; tenant_id: string; user_id: string; site_origin: string; site_name: string; redirect_uri: string;
  code_challenge: string; scopes: string; created_at: number; expires_at: number; used_at: number | null;
}

/** SQL of connection codes; the only place it lives. */
export class ConnectStore {
  constructor(private db: Db) {}

  insert(r: Omit<CodeRow, 'used_at'>): void {
    this.db.query(`INSERT INTO connect_codes (hash, tenant_id, user_id, site_origin, site_name, redirect_uri, code_challenge, scopes, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(r.hash, r.tenant_id, r.user_id, r.site_origin, r.site_name, r.redirect_uri, r.code_challenge, r.scopes, r.created_at, r.expires_at);
  }

  byHash(hash: string): CodeRow | null {
    return this.db.query<CodeRow, [string]>('SELECT * FROM connect_codes WHERE hash = ?').get(hash);
  }

  /** Burns a code; false when it was already used (single use under concurrency). */
  burn(hash: string, at: number): boolean {
    return this.db.query('UPDATE connect_codes SET used_at = ? WHERE hash = ? AND used_at IS NULL').run(at, hash).changes > 0;
  }

  /** Drops codes that expired more than a day ago. */
  sweep(before: number): void {
    this.db.query('DELETE FROM connect_codes WHERE expires_at < ?').run(before);
  }
}
