/**
 * Alert destinations: e-mail (a tenant member's address is active at once, any other confirms by an e-mailed link)
 * and Telegram chats linked by a one-time start code read from the bot's updates. At most 50 per tenant.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../../../kernel/context';
import { tx } from '../../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../../kernel/errors';
import { isUuid, newId, randomToken } from '../../../kernel/ids';
import { iso } from '../../../kernel/clock';
import { createMailer, type Mailer } from '../../../kernel/mail';
import type { Page } from '../../../kernel/http/pagination';
import { TeamService } from '../../team/service';
import { LIMITS } from '../catalogue';
import { DestinationStore, type DestinationRow } from './store';
import { TelegramBot } from './telegram';
import { confirmMail } from '../notify/texts';

const DAY = 86_400_000;
/** How long an e-mail confirmation link and a Telegram start code stay valid. */
export const CONFIRM_TTL_MS = 3 * DAY;
export const LINK_TTL_MS = 3_600_000;

/** SHA-256 hex of a token (only hashes are stored). */
export const tokenHash = (t: string) => createHash('sha256').update(t).digest('hex');
const EMAIL = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;

/** The API view of a destination. */
export function destinationView(r: DestinationRow) {
  return { id: r.id, kind: r.kind, target: r.target, name: r.name, status: r.status, created_at: iso(r.created_at), confirmed_at: r.confirmed_at === null ? null : iso(r.confirmed_at) };
}

/** The Telegram bot of the configuration, or null when no token is set. */
export function telegramBot(ctx: AppContext): TelegramBot | null {
  const a = ctx.config.alerts;
  return a.telegramToken ? new TelegramBot(a.telegramApi, a.telegramToken) : null;
}

/** Alert destinations of a tenant. Throws AppError. */
export class DestinationService {
  readonly store: DestinationStore;
  private mailer: Mailer;
  constructor(private ctx: AppContext, mailer?: Mailer) { this.store = new DestinationStore(ctx.db); this.mailer = mailer ?? createMailer(ctx.config, ctx.log); }

  private room(tenantId: string): void {
    if (this.store.count(tenantId) >= LIMITS.destinations) throw new AppError('conflict', `at most ${LIMITS.destinations} alert destinations per tenant; delete one first`);
  }

  /** Adds an e-mail destination: active for a member's address, otherwise pending until its link is opened. */
  async addEmail(tenantId: string, b: { target: string; name?: string }) {
    const target = b.target.trim();
    if (!EMAIL.test(target) || target.length > 254) throw invalid('target', 'an e-mail address');
    const member = new TeamService(this.ctx).members(tenantId).some((m) => m.email.toLowerCase() === target.toLowerCase());
    if (!member && !this.mailer.configured) throw new AppError('feature_disabled', 'e-mail is not configured on this appliance (VS_SMTP_URL); only members\' addresses can be added');
    const now = this.ctx.clock.now();
    const id = newId();
    const token = member ? null : randomToken();
    tx(this.ctx.db, () => {
      if (this.store.sameTarget(tenantId, 'email', target)) throw new AppError('conflict', 'this address is already a destination');
      this.room(tenantId);
      this.store.insert({ id, tenant_id: tenantId, kind: 'email', target, name: b.name ?? null, status: member ? 'active' : 'pending', token_hash: token && tokenHash(token), token_expires_at: token ? now + CONFIRM_TTL_MS : null, created_at: now, confirmed_at: member ? now : null });
    });
    if (token) {
      const link = `${this.ctx.config.baseUrl}/v1/alert-destinations/confirm?token=${token}`;
      try { await this.mailer.send({ to: target, ...confirmMail(link) }); } catch (e) {
        this.store.delete(id);
        throw new AppError('not_ready', `the confirmation e-mail could not be sent: ${(e as Error).message}`);
      }
    }
    return destinationView(this.store.get(tenantId, id)!);
  }

  /** Opens a confirmation link: the pending address becomes active (404 for unknown or expired links). */
  confirm(token: string) {
    const r = token ? this.store.byToken(tokenHash(token)) : null;
    if (!r || r.kind !== 'email' || r.status !== 'pending' || (r.token_expires_at ?? 0) < this.ctx.clock.now()) throw notFound('confirmation link');
    this.store.activate(r.id, null, null, this.ctx.clock.now());
    return destinationView(this.store.byId(r.id)!);
  }

  /** Starts linking a Telegram chat: a pending destination and a one-time start code to send to the bot. */
  async linkTelegram(tenantId: string, b: { name?: string }) {
    const bot = telegramBot(this.ctx);
    if (!bot) throw new AppError('feature_disabled', 'Telegram is not configured on this appliance (VS_TELEGRAM_BOT_TOKEN)');
    const code = randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
    const now = this.ctx.clock.now();
    const id = newId();
    tx(this.ctx.db, () => {
      this.room(tenantId);
      this.store.insert({ id, tenant_id: tenantId, kind: 'telegram', target: null, name: b.name ?? null, status: 'pending', token_hash: tokenHash(code), token_expires_at: now + LINK_TTL_MS, created_at: now, confirmed_at: null });
    });
    const user = await bot.username().catch(() => null);
    return { destination: destinationView(this.store.get(tenantId, id)!), start_code: code, link: user ? `https://t.me/${user}?start=${code}` : null, expires_at: iso(now + LINK_TTL_MS) };
  }

  /** Links a chat whose `/start <code>` message arrived; true when the code matched a pending destination. */
  linkChat(code: string, chat: { id: number | string; title?: string; username?: string; first_name?: string }): DestinationRow | null {
    const r = this.store.byToken(tokenHash(code));
    if (!r || r.kind !== 'telegram' || r.status !== 'pending' || (r.token_expires_at ?? 0) < this.ctx.clock.now()) return null;
    this.store.activate(r.id, String(chat.id), chat.title ?? chat.username ?? chat.first_name ?? null, this.ctx.clock.now());
    return this.store.byId(r.id);
  }

  /** One destination of the tenant. */
  get(tenantId: string, id: string) {
    const r = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!r) throw notFound('alert destination');
    return destinationView(r);
  }

  /** The tenant's destinations, newest first. */
  list(tenantId: string, limit: number, cursor?: string): Page<ReturnType<typeof destinationView>> {
    const scope = `alert-destinations:${tenantId}`;
    const before = cursor ? this.ctx.cursors.decode(scope, cursor) : null;
    return this.ctx.cursors.page(scope, this.store.list(tenantId, before, limit), limit, destinationView);
  }

  /** Deletes a destination (monitors naming it skip it from then on). */
  remove(tenantId: string, id: string): void {
    this.get(tenantId, id);
    this.store.delete(id);
  }

  /** 422 unless every id is a destination of the tenant. */
  assertKnown(tenantId: string, ids: string[]): void {
    const known = new Set(this.store.many(tenantId, ids.filter(isUuid)).map((r) => r.id));
    const errors = ids.map((id, i) => ({ id, i })).filter((x) => !known.has(x.id)).map((x) => ({ field: `destinations[${x.i}]`, detail: 'no such alert destination in this tenant' }));
    if (errors.length) throw new AppError('validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; '), { errors });
  }
}
