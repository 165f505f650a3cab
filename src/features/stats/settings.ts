import type { AppContext } from '../../kernel/context';

/** Analytics settings (config `analytics:`; defaults documented in docs/metrics.md). */
export interface AnalyticsSettings {
  /** The analytics store is on; off → every /v1/stats route answers 403 feature_disabled and nothing is recorded. */
  enabled: boolean;
  /** The origin request log (one row per delivery response). */
  originLog: boolean;
  /** Queued rows are written at least this often (ms); after `kill -9` at most this much is lost. */
  flushMs: number;
  /** A batch is written early once this many rows are queued. */
  flushRows: number;
  /** Rows queued per table before back-pressure (offers refused: beacons answer 503 not_ready). */
  queueMax: number;
  /** Days kept per table. */
  retentionDays: { edge_requests: number; player_events: number; rollups: number };
}

/** Built-in defaults (Plausible-like: flush every 5 s or 10,000 rows). */
export const ANALYTICS_DEFAULTS: AnalyticsSettings = {
  enabled: true, originLog: true, flushMs: 5000, flushRows: 10_000, queueMax: 200_000,
  retentionDays: { edge_requests: 90, player_events: 400, rollups: 800 },
};

/** The deployment's analytics settings: config `analytics` over the defaults. */
export function analyticsSettings(ctx: Pick<AppContext, 'config'>): AnalyticsSettings {
  const c: Partial<AnalyticsSettings> = ctx.config.analytics ?? {};
  return { ...ANALYTICS_DEFAULTS, ...c, retentionDays: { ...ANALYTICS_DEFAULTS.retentionDays, ...(c.retentionDays ?? {}) } };
}
