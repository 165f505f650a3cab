import type { StatsStore } from '../../kernel/stats';
import { ensureDayRollups } from './rollup-day';

/** Columns of the origin request log, in append order (times are epoch milliseconds). */
export const EDGE_COLUMNS = [
  'ts', 'tenant_id', 'kind', 'target', 'rendition', 'file', 'method', 'status', 'bytes', 'ttfb_ms', 'sid', 'source',
  'ip_hash', 'country', 'asn', 'device', 'browser', 'os', 'user_agent', 'referrer',
] as const;

/** Columns of the player (beacon) event table, in append order (the player feature's /b/v1 ingest appends them). */
export const EVENT_COLUMNS = [
  'ts', 'received', 'tenant_id', 'sid', 'viewer_id', 'page_host', 'page_url', 'kind', 'content_id', 'channel', 'live', 'e', 'pos', 'buf',
  'startup_ms', 'dur_ms', 'level', 'pathway', 'error', 'ip_hash', 'country', 'asn', 'device', 'user_agent', 'referrer', 'data',
] as const;

const DDL = [
  `CREATE TABLE IF NOT EXISTS edge_requests (
    ts BIGINT NOT NULL, tenant_id VARCHAR NOT NULL, kind VARCHAR, target VARCHAR, rendition VARCHAR, file VARCHAR,
    method VARCHAR, status SMALLINT, bytes BIGINT, ttfb_ms DOUBLE, sid VARCHAR, source VARCHAR, ip_hash VARCHAR,
    country VARCHAR, asn INTEGER, device VARCHAR, browser VARCHAR, os VARCHAR, user_agent VARCHAR, referrer VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS player_events (
    ts BIGINT NOT NULL, received BIGINT NOT NULL, tenant_id VARCHAR NOT NULL, sid VARCHAR NOT NULL, viewer_id VARCHAR,
    page_host VARCHAR, page_url VARCHAR, kind VARCHAR, content_id VARCHAR, channel VARCHAR, live BOOLEAN, e VARCHAR NOT NULL,
    pos DOUBLE, buf DOUBLE, startup_ms DOUBLE, dur_ms DOUBLE, level VARCHAR, pathway VARCHAR, error VARCHAR,
    ip_hash VARCHAR, country VARCHAR, asn INTEGER, device VARCHAR, user_agent VARCHAR, referrer VARCHAR, data VARCHAR)`,
  // Minute rollup of the origin log per tenant × minute × filter dimensions; additive columns only. Each flush appends
  // its own sums (no unique key: an upsert against an index costs far more than the few extra rows; reads sum them).
  `CREATE TABLE IF NOT EXISTS edge_minute (
    tenant_id VARCHAR NOT NULL, minute BIGINT NOT NULL, kind VARCHAR NOT NULL, target VARCHAR NOT NULL,
    country VARCHAR NOT NULL, device VARCHAR NOT NULL, requests BIGINT NOT NULL, errors BIGINT NOT NULL,
    bytes BIGINT NOT NULL, memory_requests BIGINT NOT NULL, memory_bytes BIGINT NOT NULL, ttfb_ms_sum DOUBLE NOT NULL)`,
  // Staging tables: the appender writes here; a flush moves them (and their rollup) in one transaction.
  `CREATE TABLE IF NOT EXISTS edge_stage AS SELECT * FROM edge_requests LIMIT 0`,
  // Viewer sessions, materialized from player_events by the sessionizer (one row per tenant × sid).
  `CREATE TABLE IF NOT EXISTS viewer_sessions (
    tenant_id VARCHAR NOT NULL, sid VARCHAR NOT NULL, viewer_id VARCHAR, started BIGINT NOT NULL, last_ts BIGINT NOT NULL, last_e VARCHAR,
    kind VARCHAR, content_id VARCHAR, channel VARCHAR, live BOOLEAN, page_host VARCHAR, country VARCHAR, device VARCHAR, pathway VARCHAR,
    attempted BOOLEAN, played BOOLEAN, startup_ms DOUBLE, rebuffers BIGINT, rebuffer_ms DOUBLE, errors BIGINT, completed BOOLEAN,
    ad_impressions BIGINT, watch_ms BIGINT, max_pos DOUBLE, last_level VARCHAR)`,
  // Minute rollup of sessions by the minute of their first event × filter dimensions; additive columns only.
  `CREATE TABLE IF NOT EXISTS session_minute (
    tenant_id VARCHAR NOT NULL, minute BIGINT NOT NULL, kind VARCHAR, content_id VARCHAR, channel VARCHAR, live BOOLEAN,
    page_host VARCHAR, country VARCHAR, device VARCHAR, pathway VARCHAR, sessions BIGINT, attempts BIGINT, plays BIGINT,
    watch_ms DOUBLE, rebuffer_ms DOUBLE, rebuffers BIGINT, error_attempts BIGINT, exits BIGINT, completed_plays BIGINT,
    startup_sum DOUBLE, startup_n BIGINT, ad_impressions BIGINT)`,
  `CREATE TABLE IF NOT EXISTS sess_touched (tenant_id VARCHAR, sid VARCHAR)`,
  `CREATE TABLE IF NOT EXISTS sess_minutes (tenant_id VARCHAR, minute BIGINT)`,
  `CREATE TABLE IF NOT EXISTS sessionizer_state (id INTEGER PRIMARY KEY, watermark BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ip_salts (day BIGINT PRIMARY KEY, salt VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS export_jobs (
    id VARCHAR PRIMARY KEY, tenant_id VARCHAR NOT NULL, report VARCHAR NOT NULL, format VARCHAR NOT NULL,
    "from" BIGINT NOT NULL, "to" BIGINT NOT NULL, pii BOOLEAN NOT NULL, status VARCHAR NOT NULL, rows BIGINT,
    file VARCHAR, file_name VARCHAR, created BIGINT NOT NULL, finished BIGINT, downloaded BIGINT, error VARCHAR, filters VARCHAR)`,
];

/** Creates the statistics tables when missing (idempotent; run at start). */
export async function ensureTables(stats: StatsStore): Promise<void> {
  for (const sql of DDL) await stats.run(sql);
  await ensureDayRollups(stats);
}

/** Deletes rows past each table's retention (days); returns nothing, runs in the background daily. */
export async function applyRetention(stats: StatsStore, now: number, days: { edge_requests: number; player_events: number; rollups: number }): Promise<void> {
  const day = 86_400_000;
  await stats.run('DELETE FROM edge_requests WHERE ts < ?', [now - days.edge_requests * day]);
  await stats.run('DELETE FROM player_events WHERE ts < ?', [now - days.player_events * day]);
  await stats.run('DELETE FROM edge_minute WHERE minute < ?', [now - days.rollups * day]);
  await stats.run('DELETE FROM viewer_sessions WHERE started < ?', [now - days.player_events * day]);
  await stats.run('DELETE FROM session_minute WHERE minute < ?', [now - days.rollups * day]);
  for (const t of ['session_day', 'edge_day', 'startup_day']) await stats.run(`DELETE FROM ${t} WHERE day < ?`, [now - days.rollups * day]);
  await stats.run('DELETE FROM ip_salts WHERE day < ?', [now - 2 * day]);
}
