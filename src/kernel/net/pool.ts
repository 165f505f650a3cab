/**
 * Connection reuse for the safe fetcher without giving up the no-rebinding rule. Each (scheme, host, port,
 * checked address) gets its own keep-alive agent whose `lookup` can only answer that address, so a kept-alive
 * connection serves a later request only when that request's own fresh check produced the same address. (Bun's
 * node:http runs on its fetch client, which pools by the connected IP and, for TLS, the verified host name;
 * measured: a pooled connection is never used for another IP or another TLS name.)
 *
 * Name resolutions are cached for a short time only (RESOLVE_TTL_MS); every request still checks the answer
 * against the private-address table and its own allowlist.
 */
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';

/** How long a host's resolution is reused (the address is re-checked on every use). */
export const RESOLVE_TTL_MS = 2_000;
const MAX_AGENTS = 256;
const MAX_NAMES = 1_024;

/** A lookup function that can only answer `address`: the socket connects to what was checked. */
export function pinned(address: string, family: 4 | 6): LookupFunction {
  return ((_h: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as unknown as LookupFunction;
}

const agents = new Map<string, http.Agent>();

/** The keep-alive agent of one (scheme, host, port, checked address); least recently used agents are closed. */
export function agentFor(protocol: string, host: string, port: string, to: { address: string; family: 4 | 6 }): http.Agent {
  const key = `${protocol}//${host}:${port}@${to.address}`;
  let a = agents.get(key);
  if (a) {
    agents.delete(key); // re-insert: Map order is the recency order
  } else {
    const opts = { keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000, scheduling: 'lifo' as const, lookup: pinned(to.address, to.family) };
    a = protocol === 'https:' ? new https.Agent(opts) : new http.Agent(opts);
    if (agents.size >= MAX_AGENTS) {
      const [oldKey, old] = agents.entries().next().value as [string, http.Agent];
      agents.delete(oldKey);
      old.destroy();
    }
  }
  agents.set(key, a);
  return a;
}

const names = new Map<string, { at: number; answer: Promise<{ address: string; family: number }[]> }>();

/** Resolves a host name (all addresses, resolver order); answers younger than RESOLVE_TTL_MS are shared. */
export function resolveName(host: string, now = Date.now()): Promise<{ address: string; family: number }[]> {
  const hit = names.get(host);
  if (hit && now - hit.at < RESOLVE_TTL_MS) return hit.answer;
  const answer = dnsLookup(host, { all: true, verbatim: true });
  names.delete(host);
  if (names.size >= MAX_NAMES) names.delete(names.keys().next().value as string);
  names.set(host, { at: now, answer });
  answer.catch(() => { if (names.get(host)?.answer === answer) names.delete(host); }); // failures are not cached
  return answer;
}
