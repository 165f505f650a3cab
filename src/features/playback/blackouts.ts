import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { channelBySlug } from '../channels/service';
import { parseTime, programmeOf } from '../guide/service';
import { isCountryCode } from './blackout-rules';
import { BlackoutStore, type BlackoutRow } from './blackout-store';
import { playbackState } from './service';

/** Most blackouts one tenant may keep. */
export const MAX_BLACKOUTS = 1000;
const LATEST_MS = Date.UTC(9999, 0, 1);

/** Input of a blackout (create and patch share it; patch fields may be null to clear a window end). */
export interface BlackoutInput {
  channel?: string; name?: string; programme_id?: string; starts_at?: string | null; ends_at?: string | null;
  applies_to?: 'in' | 'out'; countries?: string[]; enabled?: boolean;
}

/** Upper-cases, checks and de-duplicates country codes; 422 naming each bad entry. */
export function checkCountries(list: string[]): string[] {
  const errors = list.flatMap((c, i) => (isCountryCode(c.toUpperCase()) ? [] : [{ field: `countries[${i}]`, detail: `not an ISO 3166-1 alpha-2 country code: ${JSON.stringify(c.slice(0, 8))}` }]));
  if (errors.length) throw new AppError('validation_error', errors[0].field + ': ' + errors[0].detail, { errors: errors.slice(0, 20) });
  return [...new Set(list.map((c) => c.toUpperCase()))];
}

function timeOf(field: string, v: string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const ms = parseTime(field, v);
  if (ms < 0 || ms > LATEST_MS) throw invalid(field, 'must be between 1970 and 9999');
  return ms;
}

/** Geo blackouts of channels (a window, a programme or always; countries in or out). Changes emit `policy.changed`. */
export class BlackoutService {
  private store: BlackoutStore;
  constructor(private ctx: AppContext) { this.store = new BlackoutStore(ctx.db); }

  /** The API view of a row. */
  view(r: BlackoutRow) {
    const now = this.ctx.clock.now();
    return {
      id: r.id, channel: r.channel, name: r.name, programme_id: r.programme_id,
      starts_at: r.from_ms === null ? null : iso(r.from_ms), ends_at: r.to_ms === null ? null : iso(r.to_ms),
      applies_to: r.applies_to, countries: JSON.parse(r.countries) as string[], enabled: r.enabled === 1,
      active_now: r.enabled === 1 && (r.from_ms === null || r.from_ms <= now) && (r.to_ms === null || now < r.to_ms),
      created_at: iso(r.created_at), updated_at: iso(r.updated_at),
    };
  }

  private row(tenantId: string, id: string): BlackoutRow {
    const r = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!r) throw notFound('blackout');
    return r;
  }

  /** One blackout. */
  one(tenantId: string, id: string) { return this.view(this.row(tenantId, id)); }

  /** Rows for a cursor page, newest first (of one channel when named). */
  rows(tenantId: string, channel: string | null, beforeSeq: number | null, limit: number) { return this.store.list(tenantId, channel, beforeSeq, limit); }

  private changed(tenantId: string, r: BlackoutRow, change: string) {
    emitEvent(this.ctx.db, tenantId, 'policy.changed', { policy: null, blackout: r.id, channel: r.channel, change });
  }

  /** Creates a blackout (channel and programme must be the tenant's: 404 otherwise). */
  create(tenantId: string, b: BlackoutInput & { channel: string; countries: string[] }) {
    const ch = channelBySlug(this.ctx, tenantId, b.channel);
    if (!ch) throw notFound('channel');
    const countries = checkCountries(b.countries);
    let from = timeOf('starts_at', b.starts_at), to = timeOf('ends_at', b.ends_at);
    let programme: string | null = null, name = b.name;
    if (b.programme_id !== undefined) {
      if (from !== null || to !== null) throw invalid('programme_id', 'give a programme or a window (starts_at, ends_at), not both');
      const p = programmeOf(this.ctx, tenantId, ch.id, b.programme_id);
      if (!p) throw notFound('programme');
      programme = p.id; from = p.play_start_ms ?? p.start_ms; to = p.play_end_ms ?? p.end_ms;
      name ??= p.title;
    }
    if (from !== null && to !== null && to <= from) throw invalid('ends_at', 'must be after starts_at');
    if (this.store.count(tenantId) >= MAX_BLACKOUTS) throw new AppError('conflict', `a tenant keeps at most ${MAX_BLACKOUTS} blackouts; delete old ones first`);
    const now = this.ctx.clock.now();
    const row: BlackoutRow = {
      seq: 0, id: newId(), tenant_id: tenantId, channel: ch.slug, programme_id: programme, name: name ?? `${ch.slug} blackout`,
      from_ms: from, to_ms: to, applies_to: b.applies_to ?? 'in', countries: JSON.stringify(countries), enabled: b.enabled === false ? 0 : 1, created_at: now, updated_at: now,
    };
    tx(this.ctx.db, () => { this.store.insert(row); this.changed(tenantId, row, 'blackout.created'); });
    playbackState(this.ctx).reload();
    return this.view(row);
  }

  /** Changes a blackout: fields given replace the stored ones. */
  patch(tenantId: string, id: string, b: BlackoutInput) {
    const r = { ...this.row(tenantId, id) };
    if (b.name !== undefined) r.name = b.name;
    if (b.starts_at !== undefined) r.from_ms = timeOf('starts_at', b.starts_at);
    if (b.ends_at !== undefined) r.to_ms = timeOf('ends_at', b.ends_at);
    if (r.from_ms !== null && r.to_ms !== null && r.to_ms <= r.from_ms) throw invalid('ends_at', 'must be after starts_at');
    if (b.applies_to !== undefined) r.applies_to = b.applies_to;
    if (b.countries !== undefined) r.countries = JSON.stringify(checkCountries(b.countries));
    if (b.enabled !== undefined) r.enabled = b.enabled ? 1 : 0;
    r.updated_at = this.ctx.clock.now();
    tx(this.ctx.db, () => { this.store.update(r); this.changed(tenantId, r, 'blackout.updated'); });
    playbackState(this.ctx).reload();
    return this.view(r);
  }

  /** Deletes a blackout. */
  remove(tenantId: string, id: string): void {
    const r = this.row(tenantId, id);
    tx(this.ctx.db, () => { this.store.delete(tenantId, id); this.changed(tenantId, r, 'blackout.deleted'); });
    playbackState(this.ctx).reload();
  }
}
