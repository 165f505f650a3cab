import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { mediaAnswer } from '../meta/model';
import { ExportQuery } from './model';
import { EXPORT_MAX_RANGE_MS, EXPORT_MAX_ROWS, checkReport, countReport, exportStream } from './export';
import { statsQueryOf } from './request';

const DESCRIPTION = `Streams one report over the range: \`report\` sessions | player_events | edge_requests | site_events | programmes
(an unknown report answers 422 whose detail names the reports), \`format\` csv (UTF-8 with byte order mark, header row,
CRLF) or ndjson. At most 31 days and ${EXPORT_MAX_ROWS.toLocaleString('en')} rows (then \`X-Export-Truncated: true\`).
\`X-Export-Total-Rows\` is the number of rows the range holds (the body has min(total, limit) rows). Viewer-level
columns (viewer id, hashed IP, page URL, user agent, referrer) only for a key with stats:pii. An interrupted
transfer aborts the connection (never a short file that looks complete) and counts as failed. The \`X-Export-Rows\`
trailer is not sent: Bun's HTTP server cannot write trailers.`;

/** GET /v1/stats/export: the streamed export. */
export function exportRoute(ctx: AppContext) {
  const counts = { ok: 0, failed: 0 };
  return new Elysia()
    .use(ctx.http)
    .get('/export', async ({ principal: p, query }) => {
      const report = checkReport(query.report);
      const sq = statsQueryOf(ctx, p, query as Record<string, string | undefined>, EXPORT_MAX_RANGE_MS);
      const format = query.format ?? 'csv';
      const total = await countReport(ctx, report, sq);
      const pii = p.scopes.has('stats:pii');
      const body = exportStream(ctx, report, sq, { format, pii, maxRows: EXPORT_MAX_ROWS, onEnd: (_rows, ok) => { if (ok) counts.ok++; else { counts.failed++; ctx.log.warn('statistics export failed or interrupted', { report, tenant: p.tenantId }); } } });
      const stamp = new Date(sq.from).toISOString().slice(0, 10);
      return new Response(body, {
        headers: {
          'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
          'content-disposition': `attachment; filename="${report}-${stamp}.${format}"`,
          'x-export-total-rows': String(total), 'x-export-truncated': String(total > EXPORT_MAX_ROWS), 'cache-control': 'no-store',
        },
      });
    }, {
      auth: { scope: 'stats:read' }, query: ExportQuery,
      detail: doc('Statistics', 'Export a report (streamed)', 'ייצוא דוח (בהזרמה)', DESCRIPTION, { 'x-problems': [403, 422], ...mediaAnswer(200, 'text/csv', t.String({ description: 'CSV with BOM, or NDJSON (application/x-ndjson)' }), 'the report') }),
    });
}
