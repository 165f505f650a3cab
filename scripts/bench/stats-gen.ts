/**
 * Synthetic statistics tables for the benchmark, built by DuckDB SQL from range() in one pass per table (no sort):
 * row i of the range is mapped to (session, event) so that the rows come out already ordered by time, as beacons
 * land; the sessions and the minute rollups are computed in SQL (sessions in closed form, checked against the
 * sessionizer on a sample).
 */
import type { StatsStore } from '../../src/kernel/stats';
import { deriveSessionsSql } from '../../src/features/stats/sessions';
import { ROLLUP_FROM_SCRATCH } from '../../src/features/stats/sessionizer';
import { EDGE_FLUSH } from '../../src/features/stats/rows';
import { rebuildDayRollups } from '../../src/features/stats/rollup-day';

/** Events per synthetic session (one every 15 s: a 10-minute view). */
export const PER_SESSION = 40;
const STEP = 15_000;

/**
 * The grid: session s starts at start + s·STEP/m (m sessions start per event step), event k is k·STEP later, so
 * row i → j = i // 40 (the time slot), k = i % 40, s = j − k·m, ts = start + floor(j·STEP/m): ts grows with i.
 */
function grid(n: number, days: number, start: number) {
  const sessions = Math.ceil(n / PER_SESSION);
  const span = days * 86_400_000 - PER_SESSION * STEP;
  const m = Math.max(1, Math.ceil((STEP * sessions) / span));
  const slots = sessions + (PER_SESSION - 1) * m;
  const tsOf = (j: string) => `(${start} + (${j}) * ${STEP} // ${m})::BIGINT`;
  return { sessions, m, rows: slots * PER_SESSION, tsOf };
}

/** Time of one step (progress lines). */
async function timed(label: string, f: () => Promise<unknown>): Promise<number> {
  const a = performance.now();
  await f();
  const s = (performance.now() - a) / 1000;
  console.log(`   ${label}: ${s.toFixed(1)} s`);
  return s;
}

/** Builds player_events, edge_requests, viewer_sessions and the rollups for `n` events over `days` days ending at `end`. */
export async function generate(st: StatsStore, o: { n: number; days: number; end: number; tenant: string }): Promise<{ sessions: number; start: number }> {
  const start = o.end - o.days * 86_400_000;
  const g = grid(o.n, o.days, start);
  const S = g.sessions, V = Math.max(1, Math.floor(S / 3));
  // Row i of a range, as (j, k, s): filtered to real sessions.
  const slot = `(SELECT i // ${PER_SESSION} AS j, i % ${PER_SESSION} AS k, i // ${PER_SESSION} - (i % ${PER_SESSION}) * ${g.m} AS s FROM range(${g.rows}) r(i)) WHERE s >= 0 AND s < ${S}`;
  const live = 's % 5 = 0';
  const content = `CASE WHEN ${live} THEN 'channel-' || (s % 7) ELSE 'asset-' || (s % 500) END`;
  await timed(`player_events (${o.n.toLocaleString('en')} rows, ordered by ts)`, () => st.run(`INSERT INTO player_events
    SELECT ${g.tsOf('j')}, ${g.tsOf('j')}, '${o.tenant}', 'sid-' || s, 'viewer-' || (s % ${V}), ['news.example', 'sport.example', 'blog.example'][1 + s % 3], NULL,
      CASE WHEN ${live} THEN 'live' ELSE 'vod' END, ${content}, CASE WHEN ${live} THEN 'channel-' || (s % 7) END, ${live},
      CASE WHEN k = 0 THEN 'view_start' WHEN k = 1 THEN 'play_request' WHEN k = 2 THEN 'first_frame' WHEN k = ${PER_SESSION - 1} THEN 'ended'
           WHEN k % 9 = 0 THEN 'rebuffer_start' WHEN k % 9 = 1 THEN 'rebuffer_end' ELSE 'heartbeat' END,
      k * 15.0, 8.0, CASE WHEN k = 2 THEN 300 + s % 2000 END, CASE WHEN k % 9 = 1 AND k > 1 THEN 500 + s % 1500 END, '3', NULL, NULL,
      NULL, ['IL', 'US', 'DE', 'FR'][1 + s % 4], NULL, ['desktop', 'mobile', 'tablet', 'tv'][1 + s % 4], NULL, NULL, NULL
    FROM ${slot}`));
  // Each session's segment requests: one per event slot, 2 s after it.
  await timed(`edge_requests (${o.n.toLocaleString('en')} rows, ordered by ts)`, () => st.run(`INSERT INTO edge_requests
    SELECT ${g.tsOf('j')} + 2000, '${o.tenant}', CASE WHEN ${live} THEN 'channel' ELSE 'asset' END, ${content}, '720p', 'seg.m4s', 'GET',
      CASE WHEN (s + k) % 100 = 0 THEN 404 ELSE 200 END, 1000000 + (s * 40 + k) % 1000000, 2.5, 'sid-' || s, CASE WHEN k % 10 = 0 THEN 'memory' ELSE 'disk' END, NULL,
      ['IL', 'US', 'DE', 'FR'][1 + s % 4], NULL, ['desktop', 'mobile', 'tablet', 'tv'][1 + s % 4], NULL, NULL, NULL, NULL
    FROM ${slot}`));
  // Sessions in closed form (what the sessionizer derives from the 40 events above), in order of their start.
  const t0 = g.tsOf('s'), tLast = g.tsOf(`s + ${(PER_SESSION - 1) * g.m}`), t1 = g.tsOf(`s + ${g.m}`);
  await timed(`viewer_sessions (${S.toLocaleString('en')})`, () => st.run(`INSERT INTO viewer_sessions BY NAME
    SELECT '${o.tenant}' AS tenant_id, 'sid-' || s AS sid, 'viewer-' || (s % ${V}) AS viewer_id, ${t0} AS started, ${tLast} AS last_ts, 'ended' AS last_e,
      CASE WHEN ${live} THEN 'live' ELSE 'vod' END AS kind, ${content} AS content_id, CASE WHEN ${live} THEN 'channel-' || (s % 7) END AS channel, ${live} AS live,
      ['news.example', 'sport.example', 'blog.example'][1 + s % 3] AS page_host, ['IL', 'US', 'DE', 'FR'][1 + s % 4] AS country,
      ['desktop', 'mobile', 'tablet', 'tv'][1 + s % 4] AS device, NULL AS pathway, true AS attempted, true AS played, (300 + s % 2000)::DOUBLE AS startup_ms,
      4 AS rebuffers, (4 * (500 + s % 1500))::DOUBLE AS rebuffer_ms, 0 AS errors, true AS completed, 0 AS ad_impressions,
      ${tLast} - ${t1} AS watch_ms, ${(PER_SESSION - 1) * 15}.0 AS max_pos, '3' AS last_level
    FROM range(${S}) r(s)`));
  // The closed form must be what the sessionizer derives: compare on a sample of sessions.
  const sample = `SELECT DISTINCT tenant_id, sid FROM viewer_sessions USING SAMPLE 200 ROWS`;
  await st.run(`CREATE OR REPLACE TEMP TABLE gen_sample AS ${sample}`);
  const [{ n: bad }] = await st.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM (
    (SELECT * EXCLUDE (max_pos) FROM (${deriveSessionsSql('SELECT * FROM gen_sample')}))
    EXCEPT ALL (SELECT * EXCLUDE (max_pos, prev_started) FROM viewer_sessions SEMI JOIN gen_sample USING (tenant_id, sid)))`);
  if (bad) throw new Error(`generator: ${bad} of 200 sampled sessions differ from the sessionizer's derivation`);
  await timed('session_minute', () => st.run(`INSERT INTO session_minute ${ROLLUP_FROM_SCRATCH} ORDER BY minute`));
  // The origin rollup one day at a time (the log is ordered by ts: each day reads its own row groups; modest memory).
  await timed('edge_minute (per day)', async () => {
    for (let d = 0; d < o.days + 1; d++) {
      const a = start + d * 86_400_000;
      await st.run(`${EDGE_FLUSH[1].sql.replace('FROM edge_stage', `FROM edge_requests WHERE ts >= ${a} AND ts < ${a + 86_400_000}`)} ORDER BY 2`);
    }
  });
  // Events are "received" at their own time: the sessionizer's next pass looks at the last 30 s only.
  await st.run('INSERT INTO sessionizer_state SELECT 1, max(received) FROM player_events ON CONFLICT DO UPDATE SET watermark = excluded.watermark');
  await timed('day rollups and prev_started', () => rebuildDayRollups(st));
  return { sessions: S, start };
}
