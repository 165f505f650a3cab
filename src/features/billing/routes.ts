import { Elysia, t } from 'elysia';
import type { AppContext } from '../../kernel/context';
import { invalid } from '../../kernel/errors';
import { doc } from '../../kernel/http/plugin';
import { usageCsv } from './csv';
import { UsageQuery, UsageView } from './model';
import { monthAt, monthsBetween, parseMonth, type Month } from './months';
import { monthUsage } from './usage';

/** The longest range one call may ask for. */
const MAX_MONTHS = 24;

const DESCRIPTION = `Monthly usage figures of the tenant, computed from the platform's own records, by resolution tier
(\`audio\`, \`up_to_720p\`, \`1080p\`, \`above_1080p\`; short side of the picture): minutes stored (prorated by the part of
the month each asset existed), minutes encoded, minutes delivered (viewers' watch time), bytes delivered (origin log),
live input hours and recorded hours. \`month\` (default the current month, month to date) or \`from\`..\`to\` (at most
${MAX_MONTHS} months, oldest first). A month that has ended is computed once and kept, so retention never changes it.
\`format=csv\` or \`Accept: text/csv\`: RFC 4180 CSV with a byte order mark, one row per month, metric and tier. Every
formula: docs/billing.md.`;

/** Pure: the months a query asks for (422 naming the field otherwise). */
export function requestedMonths(q: { month?: string; from?: string; to?: string }, now: number): Month[] {
  if (q.month !== undefined && (q.from !== undefined || q.to !== undefined)) throw invalid('month', 'give month, or from and to, not both');
  if ((q.from === undefined) !== (q.to === undefined)) throw invalid(q.from === undefined ? 'from' : 'to', 'from and to go together');
  const current = monthAt(now);
  const first = q.from !== undefined ? parseMonth('from', q.from) : q.month !== undefined ? parseMonth('month', q.month) : current;
  const last = q.to !== undefined ? parseMonth('to', q.to) : first;
  if (last.from < first.from) throw invalid('to', 'must not be before from');
  if (last.from > current.from) throw invalid(q.to !== undefined ? 'to' : 'month', 'must not be after the current month');
  const months = monthsBetween(first, last);
  if (months.length > MAX_MONTHS) throw invalid('to', `at most ${MAX_MONTHS} months`);
  return months;
}

/** GET /v1/billing/usage (scope billing:read). */
export function billingRoutes(ctx: AppContext) {
  return new Elysia({ prefix: '/v1/billing' })
    .use(ctx.http)
    .get('/usage', async ({ principal: p, query, request }) => {
      const months = requestedMonths(query, ctx.clock.now());
      const items = [];
      for (const m of months) items.push(await monthUsage(ctx, p.tenantId, m));
      const csv = query.format === 'csv' || (query.format === undefined && /\btext\/csv\b/.test(request.headers.get('accept') ?? ''));
      if (!csv) return { items };
      const name = months.length === 1 ? months[0]!.label : `${months[0]!.label}_${months[months.length - 1]!.label}`;
      return new Response(usageCsv(items), { headers: {
        'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="usage-${name}.csv"`, 'cache-control': 'no-store',
      } });
    }, {
      auth: { scope: 'billing:read' }, query: UsageQuery,
      detail: doc('Billing', 'Monthly usage', 'שימוש חודשי', DESCRIPTION, {
        'x-problems': [403, 422], operationId: 'getBillingUsage',
        responses: { 200: { description: 'the months', content: { 'application/json': { schema: UsageView }, 'text/csv': { schema: t.String() } } } },
      }),
    });
}
