import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId, randomToken, isUuid } from '../../kernel/ids';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { verifyHookCall } from './signature';
import type { Page } from '../../kernel/http/pagination';
import { extractRefs, validPath } from './mapping';
import { HookStore, type HookRow } from './store';

/** Result of one inbound call. */
export interface CallResult { delivery_id: string; duplicate: boolean; published: string[]; already_published: string[]; not_ready: string[]; unknown: string[] }

const WHY: Record<string, string> = {
  missing_headers: 'X-VS-Timestamp and X-VS-Signature are required',
  bad_timestamp: 'X-VS-Timestamp must be Unix seconds',
  stale_timestamp: 'X-VS-Timestamp is more than 300 s from now',
  bad_signature: 'signature does not match',
};

/** Inbound hooks: registration and verified calls that publish matched ready assets. */
export class HookService {
  private store: HookStore;
  constructor(private ctx: AppContext) { this.store = new HookStore(ctx.db); }

  /** Hook view with its address. */
  view = (h: HookRow) => ({
    id: h.id, kind: h.kind, mapping: JSON.parse(h.mapping) as { match: string; path: string },
    address: `${this.ctx.config.baseUrl}/v1/hooks/${h.id}`, secret_hint: `hksec_…${h.secret.slice(-4)}`, created_at: iso(h.created_at),
  });

  /** Registers a hook; the secret is in this answer only. */
  create(tenantId: string, body: { kind: string; mapping: { match?: 'external_id' | 'id'; path: string } }) {
    if (!validPath(body.mapping.path)) throw invalid('mapping.path', 'dot path of names or `*`');
    const row: Omit<HookRow, 'seq'> = {
      id: newId(), tenant_id: tenantId, kind: body.kind, secret: `hksec_${randomToken(24)}`, created_at: this.ctx.clock.now(),
      mapping: JSON.stringify({ match: body.mapping.match ?? 'external_id', path: body.mapping.path }),
    };
    this.store.insert(row);
    return { ...this.view({ ...row, seq: 0 }), secret: row.secret };
  }

  /** Hooks newest first. */
  list<T>(tenantId: string, limit: number, cursor: number | null, page: (rows: HookRow[]) => Page<T>): Page<T> {
    return page(this.store.list(tenantId, cursor, limit));
  }

  /** Deletes a hook; later calls to its address answer 404. */
  remove(tenantId: string, id: string): void {
    if (!isUuid(id) || !this.store.remove(tenantId, id)) throw notFound('inbound hook');
  }

  /**
   * Handles a signed call: verify over the raw body (300 s tolerance, constant-time compare; `v2=` also covers the
   * delivery id), ignore a replayed X-VS-Delivery and a replayed signature (the same signed call under a new delivery id
   * answers the first call's result), then publish the referenced assets that are ready, emitting `asset.published` in
   * the same transaction.
   */
  call(hookId: string, h: { timestamp: string | null; signature: string | null; delivery: string | null }, raw: string): CallResult {
    const hook = isUuid(hookId) ? this.store.byId(hookId) : null;
    if (!hook) throw notFound('inbound hook');
    const problem = verifyHookCall(hook.secret, h, raw, this.ctx.clock.now());
    if (problem) throw new AppError('invalid_credentials', WHY[problem]);
    const delivery = h.delivery?.trim() ?? '';
    if (!/^[A-Za-z0-9._:-]{1,200}$/.test(delivery)) throw new AppError('bad_request', 'X-VS-Delivery (1-200 characters) is required to make calls idempotent');
    let body: unknown;
    try { body = JSON.parse(raw); } catch { throw new AppError('invalid_json', 'request body is not valid JSON'); }
    const mapping = JSON.parse(hook.mapping) as { match: 'external_id' | 'id'; path: string };
    const refs = extractRefs(body, mapping.path);
    const signature = h.signature!.trim();
    return tx(this.ctx.db, () => {
      const now = this.ctx.clock.now();
      if (!this.store.claimCall(hook.id, delivery, signature, now)) {
        // Seen before: this delivery id, or this very signature under a new X-VS-Delivery (a replay): the first call's
        // result answers, with that call's delivery id.
        const first = this.store.callResult(hook.id, delivery) ?? this.store.callBySignature(hook.id, signature)?.result;
        const prev = JSON.parse(first ?? '{}') as Partial<CallResult>;
        return { delivery_id: delivery, published: [], already_published: [], not_ready: [], unknown: [], ...prev, duplicate: true };
      }
      const found = this.store.assets(hook.tenant_id, mapping.match, refs);
      const r: CallResult = { delivery_id: delivery, duplicate: false, published: [], already_published: [], not_ready: [], unknown: [] };
      const seen = new Set(found.map((a) => (mapping.match === 'id' ? a.id : a.external_id)));
      r.unknown = refs.filter((x) => !seen.has(x));
      for (const a of found) {
        if (a.status !== 'ready') { r.not_ready.push(a.id); continue; }
        if (a.published) { r.already_published.push(a.id); continue; }
        this.store.publish(a.seq, now);
        emitEvent(this.ctx.db, hook.tenant_id, 'asset.published', { asset: a.id, external_id: a.external_id, published_at: iso(now) });
        r.published.push(a.id);
      }
      this.store.saveCall(hook.id, delivery, JSON.stringify(r));
      return r;
    });
  }
}
