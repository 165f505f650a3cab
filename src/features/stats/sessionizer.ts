import type { StatsStore } from '../../kernel/stats';
import { deriveSessionsSql } from './sessions';
import { DAY_PASS } from './rollup-day';

/** Events received up to this long before the watermark are looked at again (batches that committed late). */
export const SESSIONIZE_OVERLAP_MS = 30_000;

const MINUTE = 'started // 60000 * 60000';

/** The rollup row of a group of sessions (dimensions, then additive measures). */
const ROLLUP_SELECT = `SELECT tenant_id, ${MINUTE} AS minute, kind, content_id, channel, live, page_host, country, device, pathway,
    count(*) AS sessions, count(*) FILTER (WHERE attempted) AS attempts, count(*) FILTER (WHERE played) AS plays,
    sum(watch_ms) AS watch_ms, sum(rebuffer_ms) AS rebuffer_ms, sum(rebuffers) AS rebuffers,
    count(*) FILTER (WHERE errors > 0 AND attempted) AS error_attempts, count(*) FILTER (WHERE attempted AND NOT played AND errors = 0) AS exits,
    count(*) FILTER (WHERE played AND completed) AS completed_plays, coalesce(sum(startup_ms) FILTER (WHERE played), 0) AS startup_sum,
    count(startup_ms) FILTER (WHERE played) AS startup_n, sum(ad_impressions) AS ad_impressions`;

/**
 * One incremental pass: every session with an event received since the watermark (less an overlap) is derived again
 * from all its events and replaced in `viewer_sessions`; every minute such a session started in (before or after)
 * is rebuilt in `session_minute` from `viewer_sessions`, and their days in the day rollups (rollup-day.ts). One transaction: readers see the old or the new state.
 * Idempotent, so overlapping passes are harmless. Returns the sessions touched.
 */
export async function sessionize(stats: StatsStore): Promise<number> {
  const [st] = await stats.all<{ w: number | null; hi: number | null }>(
    `SELECT (SELECT watermark FROM sessionizer_state WHERE id = 1)::DOUBLE AS w, (SELECT max(received) FROM player_events)::DOUBLE AS hi`);
  if (st.hi === null) return 0;
  const from = st.w === null ? -1 : st.w - SESSIONIZE_OVERLAP_MS;
  await stats.transaction([
    { sql: 'DELETE FROM sess_touched' },
    { sql: 'DELETE FROM sess_minutes' },
    { sql: 'DELETE FROM sess_viewers' },
    { sql: 'INSERT INTO sess_touched SELECT DISTINCT tenant_id, sid FROM player_events WHERE received > ? AND received <= ?', params: [from, st.hi] },
    { sql: `INSERT INTO sess_minutes SELECT DISTINCT v.tenant_id, v.${MINUTE} FROM viewer_sessions v SEMI JOIN sess_touched t ON v.tenant_id = t.tenant_id AND v.sid = t.sid` },
    { sql: 'INSERT INTO sess_viewers SELECT DISTINCT v.tenant_id, v.viewer_id FROM viewer_sessions v SEMI JOIN sess_touched t ON v.tenant_id = t.tenant_id AND v.sid = t.sid' },
    { sql: 'DELETE FROM viewer_sessions v USING sess_touched t WHERE v.tenant_id = t.tenant_id AND v.sid = t.sid' },
    { sql: `INSERT INTO viewer_sessions BY NAME ${deriveSessionsSql('SELECT tenant_id, sid FROM sess_touched')}` },
    { sql: `INSERT INTO sess_minutes SELECT DISTINCT v.tenant_id, v.${MINUTE} FROM viewer_sessions v SEMI JOIN sess_touched t ON v.tenant_id = t.tenant_id AND v.sid = t.sid` },
    { sql: 'INSERT INTO sess_viewers SELECT DISTINCT v.tenant_id, v.viewer_id FROM viewer_sessions v SEMI JOIN sess_touched t ON v.tenant_id = t.tenant_id AND v.sid = t.sid' },
    { sql: 'DELETE FROM session_minute r USING (SELECT DISTINCT * FROM sess_minutes) m WHERE r.tenant_id = m.tenant_id AND r.minute = m.minute' },
    { sql: `INSERT INTO session_minute ${ROLLUP_SELECT} FROM viewer_sessions v SEMI JOIN (SELECT DISTINCT * FROM sess_minutes) m ON v.tenant_id = m.tenant_id AND v.${MINUTE} = m.minute GROUP BY ALL` },
    ...DAY_PASS,
    { sql: 'INSERT INTO sessionizer_state VALUES (1, ?) ON CONFLICT DO UPDATE SET watermark = excluded.watermark', params: [st.hi] },
  ]);
  const [n] = await stats.all<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM sess_touched');
  return n.n;
}

/** The rollup rebuilt from scratch from `viewer_sessions` (the reference the property test compares with). */
export const ROLLUP_FROM_SCRATCH = `${ROLLUP_SELECT} FROM viewer_sessions GROUP BY ALL`;
