/**
 * What flows to export destinations: every event as one `vs.event.v1` line — `{schema, id, type, at, tenant_id,
 * data}` — read back from its durable source for a batch's range: platform events from the outbox (`events`, by
 * seq), statistics events from DuckDB (`player_events` by receive time, `edge_requests` by request time). The `id`
 * is stable (the outbox id; for statistics rows a hash of the row), so receivers can drop duplicates.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import { startFileReader, type FileReader } from './read-thread';
import type { BatchSource } from './store';

/** The schema name every exported event carries. */
export const EVENT_SCHEMA = 'vs.event.v1';

/** Statistics sources (the `source` of a statistics batch). */
export type StatsSource = Exclude<BatchSource, 'platform'>;

/** One exported event. */
export interface ExportEvent { schema: typeof EVENT_SCHEMA; id: string; type: string; at: string; tenant_id: string; data: Record<string, unknown> }

/** Statistics event types, by source. */
export const STATS_TYPES: Record<StatsSource, string> = { player_events: 'stats.player_event', edge_requests: 'stats.edge_request' };

/** Platform events of a tenant with seq in (from, to], optionally only some types, oldest first. */
export function platformEvents(ctx: AppContext, tenantId: string, from: number, to: number, types: string[] | null): ExportEvent[] {
  const rows = ctx.db.query<{ id: string; type: string; at: number; data: string }, [string, number, number]>(
    'SELECT id, type, at, data FROM events WHERE tenant_id = ? AND seq > ? AND seq <= ? ORDER BY seq').all(tenantId, from, to);
  const out: ExportEvent[] = [];
  for (const r of rows) {
    if (types && !types.includes(r.type)) continue;
    out.push({ schema: EVENT_SCHEMA, id: r.id, type: r.type, at: iso(r.at), tenant_id: tenantId, data: JSON.parse(r.data) as Record<string, unknown> });
  }
  return out;
}

/** Columns of each statistics table as exported (tenant_id goes at the envelope's top level). */
const COLUMNS: Record<StatsSource, string[]> = {
  edge_requests: ['ts', 'kind', 'target', 'rendition', 'file', 'method', 'status', 'bytes', 'ttfb_ms', 'sid', 'source', 'ip_hash', 'country', 'asn', 'device', 'browser', 'os', 'user_agent', 'referrer'],
  player_events: ['ts', 'received', 'sid', 'viewer_id', 'page_host', 'page_url', 'kind', 'content_id', 'channel', 'live', 'e', 'pos', 'buf', 'startup_ms', 'dur_ms', 'level', 'pathway', 'error', 'ip_hash', 'country', 'asn', 'device', 'user_agent', 'referrer', 'data'],
};

/** Viewer-level columns, sent only by destinations created with `statistics_pii` (by a key with stats:pii). */
const PII = ['viewer_id', 'ip_hash', 'page_url', 'user_agent', 'referrer'];

/** The time column a statistics source is positioned by. */
export const TIME_COLUMN: Record<StatsSource, string> = { player_events: 'received', edge_requests: 'ts' };

/**
 * Pure: the DuckDB query that builds a statistics range's event lines itself, id included — one VARCHAR per row,
 * `{"id":"<md5>","schema":…}` — so no row and no line is touched in JS (10,000 rows through row objects held the
 * event loop for seconds; even the line text of 10,000 rows handed over through the DuckDB binding cost ~60 ms of
 * main-thread copying and decoding per batch). The id is the MD5 (128 bits, 32 hex digits) of the source name and
 * the row's whole text (every column, viewer-level ones too, so rows differing only there differ). Placeholders:
 * tenant, from, to.
 */
export function statsLinesSql(source: StatsSource, pii: boolean): string {
  const col = TIME_COLUMN[source];
  const data = COLUMNS[source].filter((c) => pii || !PII.includes(c)).map((c) => `'${c}': r.${c}`).join(', ');
  const all = COLUMNS[source].map((c) => `coalesce(r.${c}::VARCHAR, '')`).join(`, '\x1f', `);
  // to_json of a struct literal: about twice as fast as json_object in DuckDB 1.5 (measured on 10,000 rows); its
  // first character is the object's `{`, replaced by the id's opening.
  return `SELECT concat('{"id":"', md5(concat('${source}', '\x1d', ${all})), '",', (to_json({'schema': '${EVENT_SCHEMA}', 'type': '${STATS_TYPES[source]}',
      'at': strftime(make_timestamp(r.ts * 1000), '%Y-%m-%dT%H:%M:%S.%gZ'), 'tenant_id': r.tenant_id, 'data': {${data}}})::VARCHAR)[2:]) AS line
    FROM ${source} r WHERE r.tenant_id = ? AND r.${col} >= ? AND r.${col} < ? ORDER BY r.${col}, r.ts`;
}

/** Pure: a SQL string literal. */
const lit = (v: string) => `'${v.replaceAll("'", "''")}'`;

/**
 * Pure: the COPY that writes a statistics range's lines to `path`, one per line and nothing else: CSV without a
 * header whose quote and delimiter are control characters, which the JSON text never holds raw (to_json escapes
 * every character below U+0020), so no line is ever quoted. COPY takes no parameters, hence the literals.
 */
export function statsCopySql(source: StatsSource, pii: boolean, tenantId: string, from: number, to: number, path: string): string {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new Error('statistics range bounds must be integers');
  const sql = statsLinesSql(source, pii).replace('r.tenant_id = ?', `r.tenant_id = ${lit(tenantId)}`)
    .replace(/>= \? AND (r\.\w+) < \?/, `>= ${from} AND $1 < ${to}`);
  return `COPY (${sql}) TO ${lit(path)} (FORMAT csv, HEADER false, QUOTE '\x01', ESCAPE '\x01', DELIMITER '\x02')`;
}

/** Lines of a batch: the NDJSON bytes (`\n` after every line) and how many. */
export interface BatchBody { body: Uint8Array; count: number }

/** Removes the COPY directories of processes that are gone (a `kill -9` leaves at most one batch's file behind). */
function removeOrphans(root: string): void {
  for (const name of readdirSync(root)) {
    const pid = Number(/^viewstream-export-(\d+)-/.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try { process.kill(pid, 0); continue; } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'ESRCH') continue; }
    rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** The reader thread and COPY directory of an app (one per app context, both gone when it stops). */
const READER = slotKey<{ reader: FileReader; dir: string }>('export.reader');

/**
 * The app's reader thread and the directory its COPY files go to: RAM (`/dev/shm`) where there is one — a batch is
 * written and read back at once, and files on disk added dirty pages whose writeback throttled the metadata
 * database's commits on a busy box — else the data directory's `tmp/export`.
 */
function readerOf(ctx: AppContext): { reader: FileReader; dir: string } {
  return ctx.slots.get(READER, () => {
    const shm = existsSync('/dev/shm');
    if (shm) removeOrphans('/dev/shm');
    const dir = shm ? join('/dev/shm', `viewstream-export-${process.pid}-${randomUUID().slice(0, 8)}`) : join(ctx.config.dataDir, 'tmp', 'export');
    const reader = startFileReader();
    ctx.onStop(async () => { reader.stop(); await rm(dir, { recursive: true, force: true }); });
    return { reader, dir };
  });
}

/**
 * Statistics rows of a tenant with their time column in [from, to), oldest first, as NDJSON bytes: DuckDB writes
 * them to a temporary file on its own threads (COPY), a reader thread reads, counts and removes it (read-thread.ts);
 * the event loop only waits.
 */
export async function statsBody(ctx: AppContext, source: StatsSource, tenantId: string, from: number, to: number, pii: boolean): Promise<BatchBody> {
  const { reader, dir } = readerOf(ctx);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${randomUUID()}.ndjson`);
  try {
    await ctx.stats.run(statsCopySql(source, pii, tenantId, from, to, path), []);
  } catch (e) { await rm(path, { force: true }); throw e; }
  const r = await reader.read(path);
  // A line the CSV writer had to quote would start with \x01: never expected (see statsCopySql), refused if it happens.
  if (r.quoted) throw new Error('statistics export: a line was quoted by the CSV writer');
  return { body: r.body, count: r.count };
}

/**
 * The end of the next statistics batch from `from`: the time of the (max+1)-th row, so the batch holds at most `max`
 * rows (more only when many rows share one instant), capped at `until`; null when no row is waiting.
 */
export async function statsBatchEnd(ctx: AppContext, source: StatsSource, tenantId: string, from: number, until: number, max: number): Promise<{ to: number; first: number } | null> {
  const col = TIME_COLUMN[source];
  const [first] = await ctx.stats.all<{ t: number | bigint }>(`SELECT min(${col}) AS t FROM ${source} WHERE tenant_id = ? AND ${col} >= ? AND ${col} < ?`, [tenantId, from, until]);
  if (first?.t === null || first?.t === undefined) return null;
  const [cut] = await ctx.stats.all<{ t: number | bigint }>(`SELECT ${col} AS t FROM ${source} WHERE tenant_id = ? AND ${col} >= ? AND ${col} < ? ORDER BY ${col} LIMIT 1 OFFSET ?`, [tenantId, from, until, max]);
  const f = Number(first.t);
  if (!cut) return { to: until, first: f };
  const c = Number(cut.t);
  return { to: c > f ? c : c + 1, first: f };
}
