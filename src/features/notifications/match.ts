/** Pure routing of one event to notification rules: severity, channel and title of an event, and rule matching. */

/** Severities, lowest first. */
export const SEVERITIES = ['info', 'warning', 'critical'] as const;
/** One severity. */
export type Severity = (typeof SEVERITIES)[number];
/** Where a rule sends what it matches. */
export const DELIVERIES = ['inbox', 'email'] as const;
/** One delivery channel of a rule. */
export type Delivery = (typeof DELIVERIES)[number];

/** A rule as the matcher needs it. */
export interface RuleLike { id: string; user_id: string; event_types: string[]; channels: string[]; min_severity: Severity; deliver: Delivery[] }

/** What the inbox shows of an event: its severity, channel (if any) and a one-line title. */
export interface EventFacts { severity: Severity; channel_id: string | null; title: string }

type Data = Record<string, unknown> | null;
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/**
 * Severity, channel and title of an event. Alerts carry their own severity; failures and security events are
 * warnings; everything else is info. The channel is `data.channel_id`, or the target of a channel alert.
 */
export function eventFacts(type: string, raw: unknown): EventFacts {
  const d = (raw && typeof raw === 'object' ? raw : null) as Data;
  const own = str(d?.severity);
  const severity: Severity = own && (SEVERITIES as readonly string[]).includes(own) ? own as Severity
    : /(_failed|\.failed|leak_suspected|ingest_failover)$/.test(type) ? 'warning' : 'info';
  const channel = str(d?.channel_id) ?? (d?.target_kind === 'channel' ? str(d?.target_id) : null);
  const subject = str(d?.monitor_name) ?? str(d?.title) ?? str(d?.name) ?? str(d?.asset_id) ?? channel ?? '';
  const what = str(d?.summary) ?? str(d?.reason) ?? '';
  const title = [type, subject, what].filter(Boolean).join(' · ').slice(0, 300);
  return { severity, channel_id: channel, title };
}

/** True when `type` is named by the pattern: exact (`asset.ready`), a family (`alert.*`) or `*`. */
export function typeMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** The rules (of any people) that take an event with these facts. */
export function matchingRules<R extends RuleLike>(rules: R[], type: string, f: EventFacts): R[] {
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return rules.filter((r) => r.event_types.some((p) => typeMatches(p, type))
    && (!r.channels.length || (f.channel_id !== null && r.channels.includes(f.channel_id)))
    && rank(f.severity) >= rank(r.min_severity));
}

/** Per person: the union of what their matching rules deliver, and which rules matched. */
export function deliveriesByPerson(matched: RuleLike[]): Map<string, { deliver: Set<Delivery>; rules: string[] }> {
  const out = new Map<string, { deliver: Set<Delivery>; rules: string[] }>();
  for (const r of matched) {
    const e = out.get(r.user_id) ?? { deliver: new Set<Delivery>(), rules: [] };
    for (const d of r.deliver) e.deliver.add(d);
    e.rules.push(r.id);
    out.set(r.user_id, e);
  }
  return out;
}
