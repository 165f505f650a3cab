import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { doc } from '../../kernel/http/plugin';
import { mediaAnswer } from '../meta/model';
import { ExportQuery, ExportBody, ExportJobView } from './model';
import { ExportJobs } from './export-jobs';
import { answers } from '../meta/model';
import { EXPORT_MAX_RANGE_MS, EXPORT_MAX_ROWS, checkReport, countReport, exportStream } from './export';
import { exportPlan } from './export-windows';
import { AppError, notFound } from '../../kernel/errors';
import { statsQueryOf } from './request';
import { createMailer } from '../../kernel/mail';

const DESCRIPTION = `Streams one report over the range: \`report\` sessions | player_events | edge_requests | site_events | programmes
(an unknown report answers 422 whose detail names the reports), \`format\` csv (UTF-8 with byte order mark, header row,
CRLF) or ndjson. At most 31 days and ${EXPORT_MAX_ROWS.toLocaleString('en')} rows (then \`X-Export-Truncated: true\`).
\`X-Export-Total-Rows\` is the number of rows the range holds (the body has min(total, limit) rows). Viewer-level
columns (viewer id, hashed IP, page URL, user agent, referrer) only for a key with stats:pii. An interrupted
transfer aborts the connection (never a short file that looks complete) and counts as failed. The \`X-Export-Rows\`
trailer is not sent (Bun's HTTP server cannot write trailers): a prepared export (POST /v1/stats/exports) reports the
rows of its file in \`rows\` and as the \`X-Export-Rows\` header of its download.`;

const JOBS_DOC = `Prepares a gzip file of one report in the background: 202 \`{id, status: queued, ...}\`. Limits per tenant:
one export running (409), 10 created per hour and 3 ready files not yet downloaded (429 with \`Retry-After: 600\`); at
most 31 days and 1,000,000 rows per export; files kept 7 days. Viewer-level columns only for keys with stats:pii,
and only such a caller may download such a file. \`email: true\` mails the signed link to the signed-in person when the
file is ready (studio sessions only: 422 for API keys; needs the SMTP server of VS_SMTP_URL). The download answers
\`X-Export-Rows\` (rows in the file).`;

/** GET /v1/stats/export (streamed) and the prepared exports (POST /v1/stats/exports, GET .../{id}, .../{id}/download). */
export function exportRoute(ctx: AppContext) {
  const counts = { ok: 0, failed: 0 };
  const jobs = new ExportJobs(ctx, createMailer(ctx.config, ctx.log));
  const sweep = setInterval(() => { void jobs.sweep().catch(() => {}); }, 3_600_000);
  sweep.unref?.();
  ctx.onStop(() => clearInterval(sweep));
  return new Elysia()
    .use(ctx.http)
    .get('/export', async ({ principal: p, query }) => {
      const report = checkReport(query.report);
      const sq = statsQueryOf(ctx, p, query as Record<string, string | undefined>, EXPORT_MAX_RANGE_MS);
      const format = query.format ?? 'csv';
      // One scan of the time column gives the total and the windows the stream reads (export-windows.ts).
      const plan = await exportPlan(ctx, report, sq, EXPORT_MAX_ROWS);
      const total = plan ? plan.total : await countReport(ctx, report, sq);
      const pii = p.scopes.has('stats:pii');
      const body = exportStream(ctx, report, sq, { format, pii, maxRows: EXPORT_MAX_ROWS, plan, onEnd: (_rows, ok) => { if (ok) counts.ok++; else { counts.failed++; ctx.log.warn('statistics export failed or interrupted', { report, tenant: p.tenantId }); } } });
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
    })
    .post('/exports', async ({ principal: p, body, set }) => {
      const report = checkReport(body.report);
      if (body.email && p.kind !== 'session') throw new AppError('validation_error', 'email: only for signed-in studio users', { errors: [{ field: 'email', detail: 'only for signed-in studio users' }] });
      const sq = statsQueryOf(ctx, p, { from: body.from, to: body.to, ...(body.filters ?? {}) } as Record<string, string | undefined>, EXPORT_MAX_RANGE_MS);
      const j = await jobs.create(sq, report, body.format ?? 'csv', p.scopes.has('stats:pii'), body.email ? p.session?.user.email ?? null : null);
      set.status = 202;
      return jobs.view(j);
    }, {
      auth: { scope: 'stats:read' }, body: ExportBody,
      detail: doc('Statistics', 'Prepare an export file', 'הכנת קובץ ייצוא', JOBS_DOC, { 'x-problems': [403, 409, 422, 429], ...answers({ 202: ExportJobView }) }),
    })
    .get('/exports/:id', async ({ principal: p, params }) => {
      statsQueryOf(ctx, p, {});
      const j = await jobs.get(p.tenantId, params.id);
      if (!j) throw notFound('export');
      return jobs.view(j);
    }, {
      auth: { scope: 'stats:read' }, params: t.Object({ id: t.String({ maxLength: 64 }) }),
      detail: doc('Statistics', 'Export job state', 'מצב ייצוא', '`queued`, `running`, then `ready` with a signed `download_url` (valid 15 minutes; read the job again for a fresh one) and the gzip `file_name`; `failed` with `error`; `expired` after 7 days.', { 'x-problems': [403, 404], ...answers({ 200: ExportJobView }) }),
    })
    .get('/exports/:id/download', async ({ principal: p, params, query }) => {
      statsQueryOf(ctx, p, {});
      const f = await jobs.download(p.tenantId, params.id, Number(query.exp), query.sig, p.scopes.has('stats:pii'));
      return new Response(Bun.file(f.path), { headers: { 'content-type': 'application/gzip', 'content-disposition': `attachment; filename="${f.name}"`, 'x-export-rows': String(f.rows ?? 0), 'cache-control': 'no-store' } });
    }, {
      auth: { scope: 'stats:read' }, params: t.Object({ id: t.String({ maxLength: 64 }) }),
      query: t.Object({ exp: t.String({ pattern: '^[0-9]{1,15}$' }), sig: t.String({ maxLength: 100 }) }),
      detail: doc('Statistics', 'Download an export file', 'הורדת קובץ ייצוא', 'The gzip file of a ready export, through the signed URL of its job (expired or altered → 403; a file with viewer-level columns needs stats:pii).', { 'x-problems': [403, 404], ...mediaAnswer(200, 'application/gzip', t.String({ description: 'gzip of the CSV or NDJSON report' }), 'the file') }),
    });
}
