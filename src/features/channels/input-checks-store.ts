/** SQL of channel input-check settings (table channel_input_checks, migration 0226). */
import type { Db } from '../../kernel/db/sqlite';

/** A stored row: the settings as sent over time (JSON, partial), and when they last changed. */
export interface InputChecksRow { channel_id: string; tenant_id: string; settings: string; updated_at: number }

/** Reads and writes channel input-check settings. */
export class InputChecksStore {
  constructor(private db: Db) {}

  /** The row of a channel (any tenant: the live engine asks by channel id), or null. */
  byChannel(channelId: string): InputChecksRow | null {
    return this.db.query<InputChecksRow, [string]>('SELECT * FROM channel_input_checks WHERE channel_id = ?').get(channelId) ?? null;
  }

  /** Writes a channel's settings. */
  save(tenantId: string, channelId: string, settings: string, at: number): void {
    this.db.query('INSERT INTO channel_input_checks (channel_id, tenant_id, settings, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(channel_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at')
      .run(channelId, tenantId, settings, at);
  }
}
