/**
 * Monthly billing usage of a tenant (issue 47): the figures of one month computed from our own records, and the
 * closed months kept once computed (billing_months) so later retention never rewrites a past month.
 */
import type { AppContext } from '../../kernel/context';
import { delivered } from './delivered';
import { monthAt, type Month } from './months';
import { contentTiers, liveInputHours, minutesEncoded, minutesStored, recordedHours } from './records';
import { roundByTier, type ByTier } from './tiers';

/** A month closes this long after its end (statistics flush late; a grace hour lets them land first). */
export const CLOSE_GRACE_MS = 3_600_000;

/** One month's figures. */
export interface MonthUsage {
  month: string;
  from: string;
  to: string;
  /** false while the month (plus the grace hour) has not ended: figures are month to date. */
  complete: boolean;
  computed_at: string;
  minutes_stored: ByTier;
  minutes_encoded: ByTier;
  minutes_delivered: ByTier;
  bytes_delivered: ByTier;
  live_input_hours: ByTier;
  recorded_hours: ByTier;
}

/** The metric names, in answer and CSV order. */
export const METRICS = ['minutes_stored', 'minutes_encoded', 'minutes_delivered', 'bytes_delivered', 'live_input_hours', 'recorded_hours'] as const;

/** Computes one month from the records, up to `now` for the current month. */
async function compute(ctx: AppContext, tenantId: string, m: Month, now: number): Promise<MonthUsage> {
  const tiers = contentTiers(ctx.db, tenantId);
  const d = await delivered(ctx, tenantId, m, now, tiers);
  return {
    month: m.label, from: new Date(m.from).toISOString(), to: new Date(m.to).toISOString(),
    complete: now >= m.to + CLOSE_GRACE_MS, computed_at: new Date(now).toISOString(),
    minutes_stored: roundByTier(minutesStored(ctx.db, tenantId, m, now), 3),
    minutes_encoded: roundByTier(minutesEncoded(ctx.db, tenantId, m), 3),
    minutes_delivered: roundByTier(d.minutes, 3),
    bytes_delivered: roundByTier(d.bytes, 0),
    live_input_hours: roundByTier(liveInputHours(ctx.db, tenantId, m, now), 4),
    recorded_hours: roundByTier(recordedHours(ctx.db, tenantId, m, now), 4),
  };
}

/** The figures of month `m`: a closed month from its kept figures (computed and kept on first need), else live. */
export async function monthUsage(ctx: AppContext, tenantId: string, m: Month): Promise<MonthUsage> {
  const now = ctx.clock.now();
  if (m.from > now) throw new Error('future month');
  const kept = ctx.db.query<{ figures: string }, [string, string]>('SELECT figures FROM billing_months WHERE tenant_id = ? AND month = ?').get(tenantId, m.label);
  if (kept) return JSON.parse(kept.figures) as MonthUsage;
  const u = await compute(ctx, tenantId, m, now);
  if (u.complete) {
    ctx.db.query('INSERT OR IGNORE INTO billing_months (tenant_id, month, figures, computed_at) VALUES (?, ?, ?, ?)').run(tenantId, m.label, JSON.stringify(u), now);
  }
  return u;
}

/**
 * Closes the previous month of every tenant once it is past its grace hour (hourly, in the background), so a month
 * is kept even when nobody reads it before retention removes its records.
 */
export function startBillingCloser(ctx: AppContext): void {
  const run = async () => {
    const now = ctx.clock.now();
    const prev = monthAt(monthAt(now).from - 1);
    if (now < prev.to + CLOSE_GRACE_MS) return;
    const tenants = ctx.db.query<{ id: string }, [string]>(
      'SELECT id FROM tenants t WHERE NOT EXISTS (SELECT 1 FROM billing_months b WHERE b.tenant_id = t.id AND b.month = ?)').all(prev.label);
    for (const t of tenants) {
      try { await monthUsage(ctx, t.id, prev); } catch (e) { ctx.log.warn('billing month close failed', { tenant: t.id, month: prev.label, error: String(e) }); }
    }
  };
  const timer = setInterval(() => void run(), 3_600_000);
  ctx.onStop(() => clearInterval(timer));
  void run();
}
