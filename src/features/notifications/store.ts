/** The SQL of notification rules and inbox items. */
import type { Db } from '../../kernel/db/sqlite';
import type { Delivery, Severity } from './match';

/** A stored rule, JSON columns parsed. */
export interface RuleRow {
  id: string; tenant_id: string; user_id: string; name: string; event_types: string[]; channels: string[];
  min_severity: Severity; deliver: Delivery[]; enabled: boolean; created_at: number; updated_at: number;
}
type RawRule = Omit<RuleRow, 'event_types' | 'channels' | 'deliver' | 'enabled'> & { event_types: string; channels: string; deliver: string; enabled: number };
const rule = (r: RawRule): RuleRow => ({ ...r, event_types: JSON.parse(r.event_types), channels: JSON.parse(r.channels), deliver: JSON.parse(r.deliver), enabled: !!r.enabled });

/** A stored inbox/notification item. */
export interface ItemRow {
  seq: number; id: string; tenant_id: string; user_id: string; event_id: string; event_seq: number; type: string;
  severity: Severity; channel_id: string | null; title: string; data: string; rule_ids: string; in_inbox: number;
  read_at: number | null; mail_status: string | null; mail_attempts: number; mail_next_at: number | null; mail_error: string | null; created_at: number;
}

/** Rules and items of every tenant. */
export class NotificationStore {
  constructor(private db: Db) {}

  /** Inserts a rule. */
  insertRule(r: RuleRow): void {
    this.db.query(`INSERT INTO notification_rules (id, tenant_id, user_id, name, event_types, channels, min_severity, deliver, enabled, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.user_id, r.name, JSON.stringify(r.event_types), JSON.stringify(r.channels),
      r.min_severity, JSON.stringify(r.deliver), r.enabled ? 1 : 0, r.created_at, r.updated_at);
  }

  /** Replaces a rule's changeable fields. */
  updateRule(r: RuleRow): void {
    this.db.query('UPDATE notification_rules SET name = ?, event_types = ?, channels = ?, min_severity = ?, deliver = ?, enabled = ?, updated_at = ? WHERE id = ?')
      .run(r.name, JSON.stringify(r.event_types), JSON.stringify(r.channels), r.min_severity, JSON.stringify(r.deliver), r.enabled ? 1 : 0, r.updated_at, r.id);
  }

  /** Deletes a rule. */
  deleteRule(id: string): void { this.db.query('DELETE FROM notification_rules WHERE id = ?').run(id); }

  /** One rule of a tenant, or null. */
  rule(tenantId: string, id: string): RuleRow | null {
    const r = this.db.query<RawRule, [string, string]>('SELECT * FROM notification_rules WHERE tenant_id = ? AND id = ?').get(tenantId, id);
    return r ? rule(r) : null;
  }

  /** A tenant's rules, of one person or of everyone, oldest first. */
  rules(tenantId: string, userId?: string): RuleRow[] {
    return (userId
      ? this.db.query<RawRule, [string, string]>('SELECT * FROM notification_rules WHERE tenant_id = ? AND user_id = ? ORDER BY seq').all(tenantId, userId)
      : this.db.query<RawRule, [string]>('SELECT * FROM notification_rules WHERE tenant_id = ? ORDER BY seq').all(tenantId)).map(rule);
  }

  /** Enabled rules of a tenant whose person is still an active member. */
  activeRules(tenantId: string): RuleRow[] {
    return this.db.query<RawRule, [string]>(`SELECT r.* FROM notification_rules r
      JOIN memberships m ON m.tenant_id = r.tenant_id AND m.user_id = r.user_id
      JOIN users u ON u.id = r.user_id AND u.disabled_at IS NULL
      WHERE r.tenant_id = ? AND r.enabled = 1 ORDER BY r.seq`).all(tenantId).map(rule);
  }

  /** True when the person is a member of the tenant. */
  isMember(tenantId: string, userId: string): boolean {
    return !!this.db.query('SELECT 1 FROM memberships WHERE tenant_id = ? AND user_id = ?').get(tenantId, userId);
  }

  /** A person's e-mail address. */
  emailOf(userId: string): string | null {
    return this.db.query<{ email: string }, [string]>('SELECT email FROM users WHERE id = ? AND disabled_at IS NULL').get(userId)?.email ?? null;
  }

  /** Inserts an item (once per person and event). */
  insertItem(i: Omit<ItemRow, 'seq'>): void {
    this.db.query(`INSERT OR IGNORE INTO notification_items (id, tenant_id, user_id, event_id, event_seq, type, severity, channel_id, title, data, rule_ids,
      in_inbox, read_at, mail_status, mail_attempts, mail_next_at, mail_error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(i.id, i.tenant_id, i.user_id, i.event_id, i.event_seq, i.type, i.severity, i.channel_id, i.title, i.data, i.rule_ids,
        i.in_inbox, i.read_at, i.mail_status, i.mail_attempts, i.mail_next_at, i.mail_error, i.created_at);
  }

  /** One page of a person's inbox, newest first. */
  inbox(tenantId: string, userId: string, o: { before: number; limit: number; unread: boolean }): ItemRow[] {
    return this.db.query<ItemRow, [string, string, number, number]>(`SELECT * FROM notification_items WHERE tenant_id = ? AND user_id = ? AND in_inbox = 1
      AND seq < ? ${o.unread ? 'AND read_at IS NULL' : ''} ORDER BY seq DESC LIMIT ?`).all(tenantId, userId, o.before, o.limit);
  }

  /** Unread items in a person's inbox. */
  unread(tenantId: string, userId: string): number {
    return this.db.query<{ n: number }, [string, string]>('SELECT COUNT(*) AS n FROM notification_items WHERE user_id = ? AND tenant_id = ? AND in_inbox = 1 AND read_at IS NULL')
      .get(userId, tenantId)?.n ?? 0;
  }

  /** One inbox item of a person, or null. */
  item(tenantId: string, userId: string, id: string): ItemRow | null {
    return this.db.query<ItemRow, [string, string, string]>('SELECT * FROM notification_items WHERE tenant_id = ? AND user_id = ? AND id = ? AND in_inbox = 1').get(tenantId, userId, id);
  }

  /** Marks one item read (keeps the first read time). */
  markRead(id: string, at: number): void { this.db.query('UPDATE notification_items SET read_at = COALESCE(read_at, ?) WHERE id = ?').run(at, id); }

  /** Marks every unread item of a person read; returns how many. */
  markAllRead(tenantId: string, userId: string, at: number): number {
    return this.db.query('UPDATE notification_items SET read_at = ? WHERE tenant_id = ? AND user_id = ? AND in_inbox = 1 AND read_at IS NULL').run(at, tenantId, userId).changes;
  }

  /** E-mails due now. */
  dueMails(now: number, limit = 20): ItemRow[] {
    return this.db.query<ItemRow, [number, number]>("SELECT * FROM notification_items WHERE mail_status = 'pending' AND mail_next_at <= ? ORDER BY seq LIMIT ?").all(now, limit);
  }

  /** Records a sent e-mail. */
  mailSent(id: string): void { this.db.query("UPDATE notification_items SET mail_status = 'sent', mail_error = NULL, mail_next_at = NULL WHERE id = ?").run(id); }

  /** Records a failed attempt: retried later, or `failed` after the last. */
  mailFailed(id: string, attempts: number, error: string, nextAt: number | null): void {
    this.db.query('UPDATE notification_items SET mail_status = ?, mail_attempts = ?, mail_error = ?, mail_next_at = ? WHERE id = ?')
      .run(nextAt === null ? 'failed' : 'pending', attempts, error.slice(0, 500), nextAt, id);
  }
}
