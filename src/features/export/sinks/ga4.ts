/**
 * GA4 sink (Measurement Protocol): events become GA4 events — name `vs_<type>` with `.` as `_` (at most 40
 * characters), at most 25 parameters of the event's scalar `data` fields (names at most 40 characters, string values
 * cut to 100), grouped by client (the viewer for statistics events, else the tenant) at most 25 events per request
 * and under 130 kB; events older than 72 hours are sent without `timestamp_micros` (GA4 refuses older backdating).
 * GA4 answers 2xx even for bad events, so the payload is checked at creation against `/debug/mp/collect`.
 */
import { BlockedAddressError, safeFetch } from '../../../kernel/net/safe-fetch';
import type { ExportEvent } from '../events';
import { SinkError, type Sink } from './types';

/** GA4 destination settings (`api_secret` sealed at rest). */
export interface Ga4Settings { endpoint: string; measurement_id: string; api_secret: string }

const MAX_EVENTS = 25, MAX_PARAMS = 25, MAX_VALUE = 100, MAX_NAME = 40, MAX_BODY = 130_000;
const BACKDATE_MS = 72 * 3_600_000;

/** One GA4 request body. */
export interface Ga4Payload { client_id: string; events: { name: string; params: Record<string, string | number>; timestamp_micros?: number }[] }

const clean = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');

/** Pure: an exported event as a GA4 event. */
export function ga4Event(e: ExportEvent, now: number): Ga4Payload['events'][number] {
  const params: Record<string, string | number> = { event_id: e.id };
  for (const [k, v] of Object.entries(e.data)) {
    if (Object.keys(params).length >= MAX_PARAMS) break;
    const name = clean(k).slice(0, MAX_NAME);
    if (!/^[A-Za-z]/.test(name)) continue;
    if (typeof v === 'number' && Number.isFinite(v)) params[name] = v;
    else if (typeof v === 'string') params[name] = v.slice(0, MAX_VALUE);
    else if (typeof v === 'boolean') params[name] = v ? 1 : 0;
  }
  const at = Date.parse(e.at);
  return { name: `vs_${clean(e.type)}`.slice(0, MAX_NAME), params, ...(now - at < BACKDATE_MS ? { timestamp_micros: at * 1000 } : {}) };
}

/** Pure: the client a GA4 event is sent for (viewer, else session, else the tenant). */
export function ga4Client(e: ExportEvent): string {
  const d = e.data as { viewer_id?: unknown; sid?: unknown };
  return String(d.viewer_id ?? d.sid ?? e.tenant_id).slice(0, 100);
}

/** Pure: the requests of a batch: grouped by client, at most 25 events and 130 kB each. */
export function ga4Payloads(events: ExportEvent[], now: number): Ga4Payload[] {
  const byClient = new Map<string, Ga4Payload['events']>();
  for (const e of events) {
    const c = ga4Client(e);
    const list = byClient.get(c) ?? [];
    list.push(ga4Event(e, now));
    byClient.set(c, list);
  }
  const out: Ga4Payload[] = [];
  for (const [client_id, list] of byClient) {
    let cur: Ga4Payload = { client_id, events: [] };
    for (const ev of list) {
      const size = JSON.stringify(cur).length + JSON.stringify(ev).length + 1;
      if (cur.events.length >= MAX_EVENTS || (cur.events.length && size > MAX_BODY)) { out.push(cur); cur = { client_id, events: [] }; }
      cur.events.push(ev);
    }
    if (cur.events.length) out.push(cur);
  }
  return out;
}

function collectUrl(s: Ga4Settings, debug: boolean): string {
  const u = new URL(`${debug ? '/debug' : ''}/mp/collect`, s.endpoint);
  u.searchParams.set('measurement_id', s.measurement_id);
  u.searchParams.set('api_secret', s.api_secret);
  return u.toString();
}

/** Sends a sample event to `/debug/mp/collect`; resolves with GA4's validation messages (empty: valid). */
export async function ga4Validate(s: Ga4Settings, allowlist: string[], now: number): Promise<string[]> {
  const sample: ExportEvent = { schema: 'vs.event.v1', id: 'validation', type: 'asset.ready', at: new Date(now).toISOString(), tenant_id: 'validation', data: { asset: 'validation', status: 'ready' } };
  const [body] = ga4Payloads([sample], now);
  const r = await safeFetch(collectUrl(s, true), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), timeoutMs: 10_000, maxBytes: 256 * 1024, maxRedirects: 0, allowlist });
  if (r.status !== 200) return [`debug endpoint answered HTTP ${r.status}`];
  const j = JSON.parse(await r.text()) as { validationMessages?: { description?: string; fieldPath?: string }[] };
  return (j.validationMessages ?? []).map((m) => `${m.fieldPath ?? ''} ${m.description ?? ''}`.trim());
}

/** A GA4 sink for one destination. */
export function ga4Sink(s: Ga4Settings, o: { allowlist: string[]; now: () => number }): Sink {
  return {
    async send(b, signal) {
      let bytes = 0;
      for (const p of ga4Payloads(b.events(), o.now())) {
        const body = JSON.stringify(p);
        bytes += body.length;
        try {
          const r = await safeFetch(collectUrl(s, false), { method: 'POST', headers: { 'content-type': 'application/json' }, body, timeoutMs: 15_000, maxBytes: 64 * 1024, maxRedirects: 0, allowlist: o.allowlist, signal });
          if (r.status < 200 || r.status >= 300) throw new SinkError(`GA4 answered HTTP ${r.status}`);
        } catch (e) {
          if (e instanceof SinkError) throw e;
          if (e instanceof BlockedAddressError) throw new SinkError(`refused: ${e.detail}`);
          throw new SinkError(`GA4: ${String((e as Error)?.message ?? e).slice(0, 200)}`);
        }
      }
      return { bytes };
    },
    async close() {},
  };
}
