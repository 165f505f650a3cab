import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import type { Principal } from '../../kernel/http/auth';
import type { Page } from '../../kernel/http/pagination';
import { SupportStore, type SupportRow } from './store';
import { CATEGORIES } from './model';

/** New requests a tenant may open per rolling hour (specification Limits). */
export const SUPPORT_PER_HOUR = 10;
const HOUR = 3_600_000;

/** Who wrote: `key:<id>` or `user:<id>`. */
const authorOf = (p: Principal) => (p.kind === 'session' ? `user:${p.userId}` : `key:${p.keyId}`);

/** Input of a new request. */
export interface NewSupportRequest { subject: string; body: string; category?: string }

/** Support requests of a tenant: open (at most 10 an hour), list, read, reply, close. Throws AppError. */
export class SupportService {
  private store: SupportStore;
  constructor(private ctx: AppContext) { this.store = new SupportStore(ctx.db); }

  /** Opens a request with its first message; the 11th within an hour answers 429 with Retry-After. */
  open(p: Principal, b: NewSupportRequest, via: 'api' | 'mcp' | 'studio') {
    const subject = b.subject.trim(), body = b.body.trim();
    if (!subject) throw invalid('subject', 'must not be blank');
    if (!body) throw invalid('body', 'must not be blank');
    const category = b.category ?? 'question';
    if (!(CATEGORIES as readonly string[]).includes(category)) throw invalid('category', `one of ${CATEGORIES.join(', ')}`);
    const now = this.ctx.clock.now();
    const id = newId();
    tx(this.ctx.db, () => {
      const recent = this.store.openedSince(p.tenantId, now - HOUR);
      if (recent.n >= SUPPORT_PER_HOUR) {
        const wait = Math.max(1, Math.ceil(((recent.oldest ?? now) + HOUR - now) / 1000));
        throw new AppError('rate_limited', `at most ${SUPPORT_PER_HOUR} new support requests per tenant per hour; retry in ${wait} s`, { headers: { 'retry-after': String(wait) } });
      }
      this.store.insert({ id, tenant_id: p.tenantId, subject: subject.slice(0, 200), category, status: 'open', opened_by: authorOf(p), via, created_at: now, updated_at: now, closed_at: null });
      this.store.addMessage(id, authorOf(p), body, now);
    });
    return this.get(p.tenantId, id);
  }

  private row(tenantId: string, id: string): SupportRow {
    const r = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!r) throw notFound('support request');
    return r;
  }

  /** One request with its thread. */
  get(tenantId: string, id: string) {
    const r = this.row(tenantId, id);
    return { ...view(r), messages: this.store.messages(r.id).map((m) => ({ author: m.author, body: m.body, created_at: iso(m.created_at) })) };
  }

  /** The tenant's requests, newest first (cursor list), optionally only `open` or `closed`. */
  list(tenantId: string, o: { status?: string; limit: number; cursor?: string }): Page<ReturnType<typeof view>> {
    if (o.status !== undefined && o.status !== 'open' && o.status !== 'closed') throw invalid('status', 'open or closed');
    const scope = `support:${tenantId}:${o.status ?? ''}`;
    const before = o.cursor ? this.ctx.cursors.decode(scope, o.cursor) : null;
    return this.ctx.cursors.page(scope, this.store.list(tenantId, before, o.limit, o.status ?? null), o.limit, view);
  }

  /** Adds a reply; a closed request answers 409. */
  reply(p: Principal, id: string, body: string) {
    const text = body.trim();
    if (!text) throw invalid('body', 'must not be blank');
    const now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      const r = this.row(p.tenantId, id);
      if (r.status === 'closed') throw new AppError('conflict', 'the request is closed; open a new one');
      this.store.addMessage(r.id, authorOf(p), text, now);
      this.store.touch(r.id, now);
    });
    return this.get(p.tenantId, id);
  }

  /** Closes a request (closing a closed one changes nothing). */
  close(p: Principal, id: string) {
    const r = this.row(p.tenantId, id);
    if (r.status !== 'closed') this.store.close(r.id, this.ctx.clock.now());
    return this.get(p.tenantId, id);
  }
}

/** The API view of a request row (without its thread). */
function view(r: SupportRow) {
  return {
    id: r.id, subject: r.subject, category: r.category, status: r.status, opened_by: r.opened_by, via: r.via,
    created_at: iso(r.created_at), updated_at: iso(r.updated_at), closed_at: r.closed_at === null ? null : iso(r.closed_at),
  };
}
