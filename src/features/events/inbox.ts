/** The events inbox: a tenant's persisted events (the outbox behind the event stream and webhooks), newest first. */
import type { Db } from '../../kernel/db/sqlite';
import { iso } from '../../kernel/clock';
import { invalid } from '../../kernel/errors';

/** One inbox entry: the webhook envelope's fields plus `seq` (the stream's `id:`, and the `before` cursor). */
export interface InboxItem { seq: number; id: string; type: string; at: string; data: unknown }

/** Reads one page: `type` exact (`asset.ready`) or a family (`asset.*`), `before` a seq, `limit` 1-200. */
export function inboxPage(db: Db, tenantId: string, q: { type?: string; before?: number | string; limit?: number | string }): { items: InboxItem[]; next_before: number | null; last_seq: number } {
  const limit = q.limit === undefined ? 50 : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalid('limit', 'integer 1-200');
  const before = q.before === undefined ? Number.MAX_SAFE_INTEGER : Number(q.before);
  if (!Number.isSafeInteger(before) || before < 1) throw invalid('before', 'a positive integer (an earlier `seq`)');
  const type = q.type?.trim() ?? '';
  if (type && !/^[a-z0-9_]+(\.[a-z0-9_]+)*(\.\*)?$/.test(type)) throw invalid('type', 'an event type (`asset.ready`) or a family (`asset.*`)');
  let where = 'tenant_id = ? AND seq < ?';
  const args: (string | number)[] = [tenantId, before];
  if (type.endsWith('.*')) { where += ' AND type >= ? AND type < ?'; args.push(type.slice(0, -1), `${type.slice(0, -2)}/`); }
  else if (type) { where += ' AND type = ?'; args.push(type); }
  const rows = db.query<{ seq: number; id: string; type: string; at: number; data: string }, (string | number)[]>(
    `SELECT seq, id, type, at, data FROM events WHERE ${where} ORDER BY seq DESC LIMIT ?`).all(...args, limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => ({ seq: r.seq, id: r.id, type: r.type, at: iso(r.at), data: JSON.parse(r.data) as unknown })),
    next_before: rows.length > limit ? page[page.length - 1].seq : null,
    last_seq: db.query<{ s: number | null }, [string]>('SELECT MAX(seq) AS s FROM events WHERE tenant_id = ?').get(tenantId)?.s ?? 0,
  };
}
