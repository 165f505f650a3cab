import type { AppContext } from '../../kernel/context';
import { invalid } from '../../kernel/errors';
import type { StatsParam, TextCursor } from '../../kernel/stats';
import { edgeWhere, type StatsQuery } from './query';
import { statsRuntime } from './runtime';
import { exportPlan, rowsOf, type ExportPlan } from './export-windows';

/** Report names of the exports (the 422 detail lists them: clients read them from there). */
export const REPORTS = ['sessions', 'player_events', 'edge_requests', 'site_events', 'programmes'] as const;
/** An export report. */
export type Report = (typeof REPORTS)[number];
/** Most rows of one export. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** Longest range of one export. */
export const EXPORT_MAX_RANGE_MS = 31 * 86_400_000;
/** Longest run of one export. */
export const EXPORT_MAX_MS = 20 * 60_000;

/** Viewer-level columns: only for `stats:pii`. */
export const PII_COLUMNS = new Set(['viewer_id', 'ip_hash', 'page_url', 'user_agent', 'referrer']);

/** Checks a report name (422 whose detail names every report). */
export function checkReport(r: string): Report {
  if (!(REPORTS as readonly string[]).includes(r)) throw invalid('report', `unknown report "${r}"; reports: ${REPORTS.join(', ')}`);
  return r as Report;
}

const ts = (c: string) => `strftime(make_timestamp(${c} * 1000), '%Y-%m-%dT%H:%M:%S.%g') || 'Z' AS ${c}`;

/**
 * A report's query: `sql` (the rows in order, without LIMIT), its params and columns; row reports also give `sorted`:
 * the same rows unsorted (`inner`) with their sort key as extra columns (`keys`), so lines can be built before the sort.
 */
export interface ReportQuery { sql: string; params: StatsParam[]; columns: string[]; sorted?: { inner: string; keys: string[] } }

/** The SELECT of a report. */
export function reportQuery(report: Report, q: StatsQuery, pii: boolean): ReportQuery {
  const keep = (cols: string[]) => cols.filter((c) => pii || !PII_COLUMNS.has(c));
  // One row report: its columns (times formatted) over the table, filter and time column the export plan counts
  // (rowsOf), sorted by that column (then `tiebreak`).
  const rows = (cols: string[], timeCols: string[], tiebreak: string[] = []): ReportQuery => {
    const { table, col, w } = rowsOf(report, q)!;
    const list = cols.map((c) => (timeCols.includes(c) ? ts(c) : c)).join(', ');
    const order = [col, ...tiebreak];
    const keys = order.map((_, i) => `_o${i + 1}`);
    return {
      sql: `SELECT ${list} FROM ${table} WHERE ${w.sql} ORDER BY ${order.map((o) => `${table}.${o}`).join(', ')}`,
      sorted: { inner: `SELECT ${list}, ${order.map((o, i) => `${table}.${o} AS ${keys[i]}`).join(', ')} FROM ${table} WHERE ${w.sql}`, keys },
      params: w.params, columns: cols,
    };
  };
  switch (report) {
    case 'edge_requests':
      return rows(keep(['ts', 'kind', 'target', 'rendition', 'file', 'method', 'status', 'bytes', 'ttfb_ms', 'sid', 'source', 'ip_hash', 'country', 'asn', 'device', 'browser', 'os', 'user_agent', 'referrer']), ['ts']);
    case 'player_events':
      return rows(keep(['ts', 'sid', 'viewer_id', 'e', 'kind', 'content_id', 'channel', 'live', 'pos', 'buf', 'startup_ms', 'dur_ms', 'level', 'pathway', 'error', 'page_host', 'page_url', 'country', 'asn', 'device', 'ip_hash', 'user_agent', 'referrer']), ['ts']);
    case 'site_events':
      return rows(keep(['ts', 'page_host', 'page_url', 'referrer', 'sid', 'viewer_id', 'e', 'kind', 'content_id']), ['ts']);
    case 'sessions':
      // The sessions the sessionizer materialized, by start then sid.
      return rows(keep(['sid', 'viewer_id', 'started', 'last_ts', 'kind', 'content_id', 'channel', 'page_host', 'country', 'device', 'pathway', 'attempted', 'played', 'startup_ms', 'watch_ms', 'rebuffers', 'rebuffer_ms', 'errors', 'completed', 'ad_impressions', 'last_level']), ['started', 'last_ts'], ['sid']);
    case 'programmes': {
      const cols = ['kind', 'channel', 'programme', 'viewers', 'bytes', 'requests'];
      const w = edgeWhere(q, 'ts');
      return {
        sql: `SELECT kind, split_part(target, '/', 1) AS channel, CASE WHEN kind = 'startover' THEN split_part(target, '/', 2) END AS programme,
          count(DISTINCT coalesce(sid, ip_hash)) AS viewers, coalesce(sum(bytes), 0) AS bytes, count(*) AS requests
          FROM edge_requests WHERE ${w.sql} AND kind IN ('startover', 'catchup') GROUP BY ALL ORDER BY viewers DESC, channel, programme`,
        params: w.params, columns: cols,
      };
    }
  }
}

/** One CSV cell (RFC 4180 quoting; text starting with = + - @ is prefixed with ' so spreadsheets do not run it). */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'string' ? v : String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Encodes rows in the export format. */
export function encodeRows(rows: Record<string, unknown>[], columns: string[], format: 'csv' | 'ndjson'): string {
  let out = '';
  if (format === 'csv') for (const r of rows) out += columns.map((c) => csvCell(r[c])).join(',') + '\r\n';
  else for (const r of rows) { const o: Record<string, unknown> = {}; for (const c of columns) o[c] = r[c] ?? null; out += JSON.stringify(o) + '\n'; }
  return out;
}

/**
 * Columns whose text never needs quoting or a formula prefix: numbers, booleans and the formatted times (digits
 * first). Their cell is the plain text, which skips four searches and a CASE per cell (most of a CSV export's cost).
 */
const PLAIN = new Set(['ts', 'started', 'last_ts', 'pos', 'buf', 'startup_ms', 'dur_ms', 'asn', 'status', 'bytes', 'ttfb_ms', 'live', 'attempted', 'played',
  'watch_ms', 'rebuffers', 'rebuffer_ms', 'errors', 'completed', 'ad_impressions', 'viewers', 'requests']);

/** SQL text of one CSV cell (what csvCell does, inside DuckDB: formula prefix for text, RFC 4180 quoting). */
function csvSql(col: string): string {
  const c = `x."${col}"`;
  if (PLAIN.has(col)) return `coalesce(${c}::VARCHAR, '')`;
  const v = `CASE WHEN typeof(${c}) = 'VARCHAR' AND left(${c}::VARCHAR, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${c}::VARCHAR ELSE ${c}::VARCHAR END`;
  const special = `(contains(${c}::VARCHAR, '"') OR contains(${c}::VARCHAR, ',') OR contains(${c}::VARCHAR, chr(10)) OR contains(${c}::VARCHAR, chr(13)))`;
  return `coalesce(CASE WHEN ${special} THEN '"' || replace(${v}, '"', '""') || '"' ELSE ${v} END, '')`;
}

/** The text of one line: an NDJSON object (keys in column order) or a CSV record, over the columns of `x`. */
function lineSql(columns: string[], format: 'csv' | 'ndjson'): string {
  return format === 'ndjson'
    ? `json_object(${columns.map((c) => `'${c}', x."${c}"`).join(', ')})::VARCHAR`
    // One concat_ws builds the record once (a chain of || made an intermediate string per cell: 5.5 -> 3.4 CPU-s a
    // million rows); every cell is already coalesced to text, so concat_ws skips nothing.
    : `concat_ws(',', ${columns.map(csvSql).join(', ')})`;
}

/** Any query's rows (its first `maxRows`, in its order) turned into one text line per row, built by DuckDB. */
export function lineQuery(sql: string, columns: string[], format: 'csv' | 'ndjson', maxRows: number): string {
  return `SELECT ${lineSql(columns, format)} AS line FROM (${sql} LIMIT ${maxRows}) x`;
}

/**
 * A report's first `maxRows` lines in order. Row reports build each line below the sort (the expressions run in the
 * parallel scan pipeline, the top-N carries the text): built after a LIMIT, the lines were made by one thread.
 */
export function reportLineQuery(rq: ReportQuery, format: 'csv' | 'ndjson', maxRows: number): string {
  if (!rq.sorted) return lineQuery(rq.sql, rq.columns, format, maxRows);
  return `SELECT ${lineSql(rq.columns, format)} AS line FROM (${rq.sorted.inner}) x ORDER BY ${rq.sorted.keys.map((k) => `x.${k}`).join(', ')} LIMIT ${maxRows}`;
}

/** Counts the rows of a report (for X-Export-Total-Rows). */
export async function countReport(ctx: AppContext, report: Report, q: StatsQuery): Promise<number> {
  await statsRuntime(ctx).ready;
  const { sql, params } = reportQuery(report, q, true);
  const [r] = await ctx.stats.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM (${sql})`, params);
  return r?.n ?? 0;
}

/**
 * Streams a report as CSV (UTF-8 with byte order mark and a header row) or NDJSON, at most `maxRows` rows, reading
 * DuckDB chunk by chunk as the client reads (back-pressure). A failure or the time limit errors the stream, which
 * aborts the connection (the client sees a broken transfer, never a short file that looks complete).
 */
export function exportStream(ctx: AppContext, report: Report, q: StatsQuery, o: { format: 'csv' | 'ndjson'; pii: boolean; maxRows: number; plan?: ExportPlan | null; onEnd: (rows: number, ok: boolean) => void }): ReadableStream<Uint8Array> {
  const { columns } = reportQuery(report, q, o.pii);
  const enc = new TextEncoder();
  let wake: (() => void) | null = null;
  let cancelled = false;
  const started = Date.now();
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    start(c) {
      if (o.format === 'csv') c.enqueue(enc.encode('\uFEFF' + columns.join(',') + '\r\n'));
      void (async () => {
        try {
          const eol = o.format === 'csv' ? '\r\n' : '\n';
          // Window by window (export-windows.ts): each is sorted on its own; aggregate reports are one window.
          const plan = o.plan !== undefined ? o.plan : await exportPlan(ctx, report, q, o.maxRows);
          const windows = plan ? plan.windows : [{ from: q.from, to: q.to, limit: o.maxRows }];
          const open = (i: number) => {
            const w = windows[i];
            const part = reportQuery(report, { ...q, from: w.from, to: w.to }, o.pii);
            return ctx.stats.openText(reportLineQuery(part, o.format, w.limit), part.params, eol);
          };
          /** Sends one window's text as the client reads it, then closes its cursor. */
          const send = async (cur: TextCursor) => {
            try {
              for (let part = await cur.next(); part && !cancelled; part = await cur.next()) {
                if (Date.now() - started > EXPORT_MAX_MS) throw new Error('export ran past 20 minutes');
                c.enqueue(enc.encode(part.text));
                sent += part.rows;
                while (!cancelled && (c.desiredSize ?? 1) <= 0) await new Promise<void>((r) => { wake = r; });
              }
            } finally { cur.close(); }
          };
          // The next window's query runs (its sort, in DuckDB's threads) while this one's text is being sent.
          let next: Promise<TextCursor> | null = windows.length ? open(0) : null;
          try {
            for (let i = 0; next && !cancelled; i++) {
              const cur = await next;
              next = i + 1 < windows.length ? open(i + 1) : null;
              next?.catch(() => {}); // awaited on the next turn; a failure there errors the stream then
              await send(cur);
            }
          } finally {
            // A read-ahead cursor left by a cancel or an error is closed too.
            if (next) void next.then((x) => x.close(), () => {});
          }
          if (cancelled) { o.onEnd(sent, false); return; }
          c.close();
          o.onEnd(sent, true);
        } catch (e) {
          o.onEnd(sent, false);
          try { c.error(e); } catch { /* already closed */ }
        }
      })();
    },
    pull() { const w = wake; wake = null; w?.(); },
    cancel() { cancelled = true; const w = wake; wake = null; w?.(); },
  }, { highWaterMark: 4 });
}
