/**
 * Geo blackouts, pure parts: the rule as the gate and the session issuer read it, the country code check, and the
 * index the playback state keeps (by tenant and channel) with the one question delivery asks of it.
 */

/** One blackout as delivery reads it (times in epoch ms; null = open-ended). */
export interface BlackoutRule {
  id: string; tenantId: string; channel: string; programmeId: string | null; name: string;
  fromMs: number | null; toMs: number | null;
  /** `in`: viewers in the listed countries are refused; `out`: viewers outside them (and of unknown country) are. */
  appliesTo: 'in' | 'out';
  countries: string[];
}

/** What a delivery request or a session covers of a channel's timeline: an air-time span, or a start-over programme. */
export interface BlackoutSpan { fromMs: number; toMs: number; programme?: string | null }

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

// Codes the region table names that are not countries MaxMind reports (UK is reserved; Britain is GB).
const NOT_COUNTRIES = new Set(['ZZ', 'UN', 'EU', 'EZ', 'UK', 'QO']);

/** True for an ISO 3166-1 alpha-2 code that names a region (upper case): `US`, `IL`; not `ZZ`, `USA`, `u1`. */
export function isCountryCode(c: string): boolean {
  if (!/^[A-Z]{2}$/.test(c) || NOT_COUNTRIES.has(c)) return false;
  const name = regionNames.of(c);
  return name !== undefined && name !== c;
}

/** True when the viewer's country (null: unknown) is refused by the rule. */
export function countryBlacked(rule: BlackoutRule, country: string | null): boolean {
  const c = country?.toUpperCase() ?? null;
  if (rule.appliesTo === 'in') return c !== null && rule.countries.includes(c);
  return c === null || !rule.countries.includes(c);
}

/** True when the span falls (partly) inside the rule's window, or names the rule's programme. */
export function spanCovered(rule: BlackoutRule, span: BlackoutSpan): boolean {
  if (rule.programmeId && span.programme === rule.programmeId) return true;
  const from = rule.fromMs ?? -Infinity, to = rule.toMs ?? Infinity;
  return span.fromMs < to && span.toMs > from;
}

/** The refusal text a viewer reads (problem details `detail`). */
export function blackoutDetail(rule: BlackoutRule, country: string | null): string {
  const where = country ? `in your region (${country.toUpperCase()})` : 'where your location is unknown';
  return `blackout: this programme is not available ${where}${rule.toMs ? ` until ${new Date(rule.toMs).toISOString()}` : ''}`;
}

/** The tenant's blackouts by channel slug, as the playback state holds them (rebuilt on every reload). */
export class BlackoutIndex {
  private byChannel = new Map<string, BlackoutRule[]>();
  private tenants = new Set<string>();

  /** Replaces the index with `rules`. */
  load(rules: BlackoutRule[]): void {
    this.byChannel.clear();
    this.tenants.clear();
    for (const r of rules) {
      this.tenants.add(r.tenantId);
      const k = `${r.tenantId}|${r.channel}`;
      const list = this.byChannel.get(k);
      if (list) list.push(r); else this.byChannel.set(k, [r]);
    }
  }

  /** True when the tenant has any blackout (the cheap test before a clip's or an asset's source is looked at). */
  anyOf(tenantId: string): boolean { return this.tenants.has(tenantId); }

  /** True when the channel has any blackout (the cheap test delivery makes first). */
  any(tenantId: string, channel: string): boolean { return this.byChannel.has(`${tenantId}|${channel}`); }

  /** The first blackout of the channel that covers `span` and refuses a viewer of `country`, or null. */
  refusing(tenantId: string, channel: string, span: BlackoutSpan, country: string | null): BlackoutRule | null {
    for (const r of this.byChannel.get(`${tenantId}|${channel}`) ?? []) {
      if (spanCovered(r, span) && countryBlacked(r, country)) return r;
    }
    return null;
  }
}
