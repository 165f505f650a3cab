import type { StatsParam } from '../../kernel/stats';

/**
 * Beacon staging: one row per beacon (the columns every event of it shares, and its events as JSON text), appended
 * in batches and moved to `player_events` by one SQL statement that unnests the events inside DuckDB. Measured on
 * the 2-core box: the appender's per-value calls for 26 columns × every event were the ingest's limit (~150k rows/s
 * at best, one core); a beacon row is 17 values for up to 300 events and DuckDB parses the JSON in C++.
 */
export const BEACON_STAGE_DDL = `CREATE TABLE IF NOT EXISTS beacon_stage (
    received BIGINT NOT NULL, tenant_id VARCHAR NOT NULL, sid VARCHAR NOT NULL, viewer_id VARCHAR, page_host VARCHAR, page_url VARCHAR,
    kind VARCHAR, content_id VARCHAR, channel VARCHAR, live BOOLEAN, ip_hash VARCHAR, country VARCHAR, asn INTEGER, device VARCHAR,
    user_agent VARCHAR, referrer VARCHAR, events VARCHAR NOT NULL)`;

/** The JSON shape of one staged event (`data`: the event's extra fields as JSON text, when it had any). */
const EVENT_SHAPE = JSON.stringify([{ e: 'VARCHAR', t: 'BIGINT', pos: 'DOUBLE', buf: 'DOUBLE', startup_ms: 'DOUBLE', dur_ms: 'DOUBLE', level: 'VARCHAR', pathway: 'VARCHAR', error: 'VARCHAR', data: 'VARCHAR' }]);

/** One flush: staged beacons become player_events rows (event order kept) and the stage is emptied, in one transaction. */
export const BEACON_MOVE = [
  {
    sql: `INSERT INTO player_events SELECT ev.t, s.received, s.tenant_id, s.sid, s.viewer_id, s.page_host, s.page_url, s.kind, s.content_id,
      s.channel, s.live, ev.e, ev.pos, ev.buf, ev.startup_ms, ev.dur_ms, ev.level, ev.pathway, ev.error, s.ip_hash, s.country, s.asn, s.device,
      s.user_agent, s.referrer, ev.data
      FROM (SELECT *, unnest(from_json(events, '${EVENT_SHAPE}')) AS ev FROM beacon_stage) s`,
  },
  { sql: 'DELETE FROM beacon_stage' },
];

/** A staged beacon in `beacon_stage` column order. */
export type StageRow = StatsParam[];
