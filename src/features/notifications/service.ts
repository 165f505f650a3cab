/** Notification rules (per person) and the studio inbox: create, change, list; read the inbox; mark read. */
import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { NotificationStore, type ItemRow, type RuleRow } from './store';
import type { Delivery, Severity } from './match';

/** Body of a new rule. */
export interface RuleInput { name?: string; person_id?: string; event_types: string[]; channels?: string[]; min_severity?: Severity; deliver: Delivery[]; enabled?: boolean }

const viewRule = (r: RuleRow) => ({
  id: r.id, person_id: r.user_id, name: r.name, event_types: r.event_types, channels: r.channels, min_severity: r.min_severity,
  deliver: r.deliver, enabled: r.enabled, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});
const viewItem = (i: ItemRow) => ({
  id: i.id, event_id: i.event_id, type: i.type, severity: i.severity, channel_id: i.channel_id, title: i.title,
  data: JSON.parse(i.data) as unknown, at: iso(i.created_at), read: i.read_at !== null, read_at: i.read_at === null ? null : iso(i.read_at), email: i.mail_status,
});

/** The signed-in person of a principal, or 403 (the inbox and own rules belong to a person, not an API key). */
export function personOf(p: Principal): string {
  if (!p.userId) throw new AppError('forbidden', 'the inbox and own notification rules belong to a signed-in person; an API key names `person_id` (scope notifications:manage)');
  return p.userId;
}

/** Rules and inbox of one app. */
export class NotificationService {
  readonly store: NotificationStore;
  constructor(private ctx: AppContext) { this.store = new NotificationStore(ctx.db); }

  /** Whose rules a caller acts on: its own, or (with notifications:manage) a named member's. */
  private owner(p: Principal, personId: string | undefined): string {
    if (personId === undefined || personId === p.userId) return personOf(p);
    if (!p.scopes.has('notifications:manage')) throw new AppError('insufficient_scope', 'rules of another person need scope notifications:manage');
    if (!this.store.isMember(p.tenantId, personId)) throw invalid('person_id', 'not a member of this tenant');
    return personId;
  }

  /** A rule the caller may see and change (its own, or any with notifications:manage); 404 otherwise. */
  private mine(p: Principal, id: string): RuleRow {
    const r = this.store.rule(p.tenantId, id);
    if (!r || (r.user_id !== p.userId && !p.scopes.has('notifications:manage'))) throw notFound('notification rule');
    return r;
  }

  /** Creates a rule. */
  create(p: Principal, b: RuleInput) {
    const now = this.ctx.clock.now();
    const r: RuleRow = {
      id: newId(), tenant_id: p.tenantId, user_id: this.owner(p, b.person_id), name: b.name ?? b.event_types.join(', ').slice(0, 200),
      event_types: b.event_types, channels: b.channels ?? [], min_severity: b.min_severity ?? 'info', deliver: b.deliver,
      enabled: b.enabled ?? true, created_at: now, updated_at: now,
    };
    this.store.insertRule(r);
    return viewRule(r);
  }

  /** The caller's rules (with notifications:manage and `all`, every person's). */
  list(p: Principal, all: boolean) {
    if (all && !p.scopes.has('notifications:manage')) throw new AppError('insufficient_scope', 'every person\'s rules need scope notifications:manage');
    return { items: this.store.rules(p.tenantId, all ? undefined : personOf(p)).map(viewRule) };
  }

  /** Changes a rule. */
  patch(p: Principal, id: string, b: Partial<Omit<RuleInput, 'person_id'>>) {
    const r = this.mine(p, id);
    const next: RuleRow = { ...r, ...Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)), updated_at: this.ctx.clock.now() } as RuleRow;
    this.store.updateRule(next);
    return viewRule(next);
  }

  /** Deletes a rule. */
  remove(p: Principal, id: string): void { this.store.deleteRule(this.mine(p, id).id); }

  /** One page of the signed-in person's inbox with the unread count. */
  inbox(p: Principal, q: { before?: string; limit?: number; unread?: boolean }) {
    const user = personOf(p);
    const before = q.before === undefined ? Number.MAX_SAFE_INTEGER : Number(q.before);
    if (!Number.isSafeInteger(before) || before < 1) throw invalid('before', 'the previous page\'s `next_before`');
    const limit = q.limit ?? 50;
    const rows = this.store.inbox(p.tenantId, user, { before, limit: limit + 1, unread: !!q.unread });
    const page = rows.slice(0, limit);
    return { items: page.map(viewItem), unread: this.store.unread(p.tenantId, user), next_before: rows.length > limit ? String(page[page.length - 1].seq) : null };
  }

  /** The unread count alone (the studio bell polls it). */
  unread(p: Principal) { return { unread: this.store.unread(p.tenantId, personOf(p)) }; }

  /** Marks one item read; answers it. */
  read(p: Principal, id: string) {
    const user = personOf(p);
    const i = this.store.item(p.tenantId, user, id);
    if (!i) throw notFound('inbox item');
    this.store.markRead(i.id, this.ctx.clock.now());
    return { item: viewItem(this.store.item(p.tenantId, user, id)!), unread: this.store.unread(p.tenantId, user) };
  }

  /** Marks every item read. */
  readAll(p: Principal) {
    const user = personOf(p);
    const marked = this.store.markAllRead(p.tenantId, user, this.ctx.clock.now());
    return { marked, unread: this.store.unread(p.tenantId, user) };
  }
}
