import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId, randomToken, isUuid } from '../../kernel/ids';
import { tx } from '../../kernel/db/sqlite';
import { appendEvent } from '../../kernel/events/outbox';
import { outboxHead } from '../../kernel/events/cursors';
import type { Page } from '../../kernel/http/pagination';
import { isEventType } from './event-types';
import { checkWebhookUrl } from './url-policy';
import { WebhookStore, type DeliveryRow, type EndpointRow } from './store';

/** Most endpoints one tenant may register. */
export const MAX_ENDPOINTS = 100;

/** Endpoint view (no secret). */
export function endpointView(e: EndpointRow) {
  return {
    id: e.id, url: e.url, events: JSON.parse(e.events) as string[], enabled: e.enabled === 1,
    secret_hint: `whsec_…${e.secret.slice(-4)}`, created_at: iso(e.created_at), updated_at: iso(e.updated_at),
  };
}

/** Delivery view. */
export function deliveryView(d: DeliveryRow) {
  const t = (v: number | null) => (v === null ? null : iso(v));
  return {
    id: d.id, event_id: d.event_id, event_type: d.event_type, status: d.status, attempts: d.attempts,
    last_response_code: d.last_code, last_error: d.last_error, last_attempt_at: t(d.last_at),
    next_attempt_at: d.status === 'delivered' || d.status === 'dead' ? null : t(d.next_at),
    delivered_at: t(d.delivered_at), created_at: iso(d.created_at),
  };
}

function checkEvents(events: string[]): string[] {
  const uniq = [...new Set(events)];
  if (uniq.includes('*')) {
    if (uniq.length > 1) throw invalid('events', '"*" stands alone');
    return uniq;
  }
  const bad = uniq.filter((e) => !isEventType(e));
  if (bad.length) throw invalid('events', `unknown event type: ${bad.join(', ')} (see event_types in GET /v1/webhooks)`);
  return uniq;
}

/** Webhook endpoints: create, read, change, delete, test, deliveries and redelivery. */
export class WebhookService {
  private store: WebhookStore;
  constructor(private ctx: AppContext) { this.store = new WebhookStore(ctx.db); }

  private get(tenantId: string, id: string): EndpointRow {
    const e = isUuid(id) ? this.store.endpoint(tenantId, id) : null;
    if (!e) throw notFound('webhook');
    return e;
  }

  /** Registers an endpoint; the answer carries the secret once. Events before creation are never sent to it. */
  async create(tenantId: string, body: { url: string; events: string[] }) {
    const events = checkEvents(body.events);
    const url = await checkWebhookUrl(body.url, this.ctx.config.privateAllowlist);
    const now = this.ctx.clock.now();
    const row: Omit<EndpointRow, 'seq'> = {
      id: newId(), tenant_id: tenantId, url, events: JSON.stringify(events), secret: `whsec_${randomToken(24)}`,
      enabled: 1, from_seq: 0, created_at: now, updated_at: now,
    };
    tx(this.ctx.db, () => {
      if (this.store.countEndpoints(tenantId) >= MAX_ENDPOINTS) throw new AppError('conflict', `at most ${MAX_ENDPOINTS} webhooks per tenant`);
      row.from_seq = outboxHead(this.ctx.db);
      this.store.insertEndpoint(row);
    });
    return { ...endpointView({ ...row, seq: 0 }), secret: row.secret };
  }

  /** One endpoint. */
  read(tenantId: string, id: string) { return endpointView(this.get(tenantId, id)); }

  /** Endpoints newest first; `page` builds the cursor page. */
  list<T>(tenantId: string, limit: number, cursor: number | null, page: (rows: EndpointRow[]) => Page<T>): Page<T> {
    return page(this.store.listEndpoints(tenantId, cursor, limit));
  }

  /** Enables/disables, changes `events` or `url` (checked like at creation). */
  async patch(tenantId: string, id: string, body: { enabled?: boolean; events?: string[]; url?: string }) {
    this.get(tenantId, id);
    const events = body.events ? JSON.stringify(checkEvents(body.events)) : undefined;
    const url = body.url !== undefined ? await checkWebhookUrl(body.url, this.ctx.config.privateAllowlist) : undefined;
    const enabled = body.enabled === undefined ? undefined : body.enabled ? 1 : 0;
    this.store.updateEndpoint(tenantId, id, { url, events, enabled }, this.ctx.clock.now());
    return endpointView(this.get(tenantId, id));
  }

  /** Deletes an endpoint and its delivery log; nothing more is sent to it. */
  remove(tenantId: string, id: string): void {
    if (!isUuid(id) || !this.store.deleteEndpoint(tenantId, id)) throw notFound('webhook');
  }

  /** Emits a `ping` event addressed to this endpoint only and queues its delivery in the same transaction. */
  ping(tenantId: string, id: string): { event_id: string; delivery_id: string } {
    const e = this.get(tenantId, id);
    if (!e.enabled) throw new AppError('conflict', 'webhook is disabled; enable it first');
    return tx(this.ctx.db, () => {
      const now = this.ctx.clock.now();
      const ev = appendEvent(this.ctx.db, tenantId, 'ping', { webhook_id: e.id }, now);
      const deliveryId = newId();
      this.store.insertDelivery({ id: deliveryId, tenant_id: tenantId, endpoint_id: e.id, event_seq: ev.seq, event_id: ev.id, event_type: 'ping', at: now });
      return { event_id: ev.id, delivery_id: deliveryId };
    });
  }

  /** Deliveries of an endpoint, newest first. */
  deliveries<T>(tenantId: string, id: string, status: string | null, limit: number, cursor: number | null, page: (rows: DeliveryRow[]) => Page<T>): Page<T> {
    this.get(tenantId, id);
    return page(this.store.listDeliveries(id, status, cursor, limit));
  }

  /** Makes a delivery due now with a fresh budget of attempts; same delivery id. */
  redeliver(tenantId: string, id: string, deliveryId: string) {
    this.get(tenantId, id);
    const d = isUuid(deliveryId) ? this.store.delivery(id, deliveryId) : null;
    if (!d) throw notFound('delivery');
    this.store.redeliver(d.id, this.ctx.clock.now());
    return deliveryView(this.store.delivery(id, deliveryId)!);
  }
}
