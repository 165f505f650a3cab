/** Billing usage as CSV (RFC 4180, UTF-8 with a byte order mark, CRLF): one row per month, metric and tier. */
import { TIERS } from './tiers';
import { METRICS, type MonthUsage } from './usage';

/** Pure: the CSV text of the months; columns month, complete, metric, tier, value (the total as tier `total`). */
export function usageCsv(months: MonthUsage[]): string {
  const lines = ['month,complete,metric,tier,value'];
  for (const u of months) {
    for (const metric of METRICS) {
      for (const tier of [...TIERS, 'total'] as const) lines.push(`${u.month},${u.complete},${metric},${tier},${u[metric][tier]}`);
    }
  }
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}
