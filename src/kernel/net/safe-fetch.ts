/**
 * Safe outbound HTTP for customer-supplied URLs (URL ingest, webhooks, exports). http(s) only; the host is
 * resolved once, every address is checked against the private/internal table (src/kernel/net/ip.ts) unless the
 * operator's allowlist exempts it, and the socket connects to exactly the checked address (a custom `lookup`
 * hands node:http the pre-checked address, while Host and TLS SNI keep the host name), so DNS rebinding cannot
 * swap it. Every redirect hop is checked again. Time and size are bounded. Connections are kept alive and reused
 * only for the same checked address (src/kernel/net/pool.ts).
 */
import http from 'node:http';
import https from 'node:https';
import { AppError } from '../errors';
import { blockedReason, formatIp, parseCidr, parseIp, type Cidr, type Ip } from './ip';
import { responseBody, type SafeResponse } from './safe-body';
import { agentFor, pinned, resolveName } from './pool';

/** Options of one safe request. */
export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Whole exchange deadline: resolve, connect, headers and reading the body. */
  timeoutMs: number;
  /** Largest response body accepted; a larger declared or streamed body fails. */
  maxBytes: number;
  /** 0 = never follow; the 3xx is returned as is. */
  maxRedirects: number;
  /** CIDRs exempt from the refusal (VS_PRIVATE_ALLOWLIST = ctx.config.privateAllowlist). */
  allowlist?: string[];
  signal?: AbortSignal;
  /** Optional socket inactivity limit (defaults to timeoutMs); lets long downloads use a large timeoutMs. */
  idleTimeoutMs?: number;
}

/** A response whose body is bounded by `maxBytes` and by the deadline (defined beside the body reader). */
export type { SafeResponse } from './safe-body';

/** A URL or address the fetcher refuses (scheme, private/internal address, malformed host). 422. */
export class BlockedAddressError extends AppError {
  constructor(detail: string) {
    super('validation_error', detail, { errors: [{ field: 'url', detail }] });
  }
}

/** The remote did not answer (or finish) in time. 503 not_ready. */
export class FetchTimeoutError extends AppError {
  constructor(ms: number) { super('not_ready', `remote did not answer within ${ms} ms`); }
}

/** The remote sent (or declared) more than maxBytes. 413. */
export class FetchTooLargeError extends AppError {
  constructor(max: number) { super('payload_too_large', `remote body exceeds ${max} bytes`); }
}

/** The operator's allowlist, parsed. */
export function allowCidrs(list: string[] | undefined): Cidr[] {
  return (list ?? []).map((c) => parseCidr(c));
}

/** The URL parsed and its shape checked (scheme, host spelling, IP literals, localhost); throws BlockedAddressError. */
export function shape(url: string, allow: Cidr[]): URL {
  let u: URL;
  try { u = new URL(url); } catch { throw new BlockedAddressError('not a valid absolute URL'); }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new BlockedAddressError(`scheme ${u.protocol} not allowed; use http or https`);
  const host = u.hostname.toLowerCase();
  if (!host) throw new BlockedAddressError('URL has no host');
  if (/[\0\s%]/.test(host)) throw new BlockedAddressError('host contains forbidden characters');
  const ip = parseIp(host);
  if (ip) {
    const why = blockedReason(ip, allow);
    if (why) throw new BlockedAddressError(`address ${formatIp(ip)} is ${why}; not allowed`);
    return u;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.') {
    throw new BlockedAddressError('localhost is not allowed');
  }
  return u;
}

/** Synchronous checks (scheme, IP-literal hosts in every spelling, localhost) for validating a URL at creation. */
export function checkUrlShape(url: string, allowlist?: string[]): void {
  shape(url, allowCidrs(allowlist));
}

/** The address to connect to: `host` resolved, every answer checked against the private table (BlockedAddressError). */
export async function resolveChecked(host: string, allow: Cidr[]): Promise<{ address: string; family: 4 | 6 }> {
  const literal = parseIp(host);
  if (literal) return { address: formatIp(literal), family: literal.v };
  let addrs: { address: string; family: number }[];
  try { addrs = await resolveName(host); } catch (e) {
    throw new BlockedAddressError(`host ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!addrs.length) throw new BlockedAddressError(`host ${host} does not resolve`);
  const parsed: Ip[] = [];
  for (const a of addrs) {
    const ip = parseIp(a.address);
    if (!ip) throw new BlockedAddressError(`host ${host} resolved to an unreadable address`);
    const why = blockedReason(ip, allow);
    if (why) throw new BlockedAddressError(`host ${host} resolves to ${a.address} (${why}); not allowed`);
    parsed.push(ip);
  }
  return { address: formatIp(parsed[0]), family: parsed[0].v };
}

/** Checks the URL's shape, resolves its host and refuses when any address is private/internal. */
export async function assertPublicUrl(url: string, allowlist?: string[]): Promise<void> {
  const allow = allowCidrs(allowlist);
  const u = shape(url, allow);
  await resolveChecked(u.hostname, allow);
}

function send(u: URL, to: { address: string; family: 4 | 6 }, method: string, headers: Record<string, string>,
  body: string | Uint8Array | undefined, signal: AbortSignal, idleMs: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = u.protocol === 'https:' ? https : http;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const req = mod.request({
      protocol: u.protocol, host, port: u.port || undefined,
      path: u.pathname + u.search, method, headers, lookup: pinned(to.address, to.family), family: to.family,
      auth: u.username ? `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}` : undefined,
      agent: agentFor(u.protocol, host, u.port, to), signal,
    }, resolve);
    // Our own listeners: rejection must not depend on how the runtime maps `signal` or socket timeouts (Bun emits
    // 'close' on the request once it is sent, so the abort listener is dropped only when a response arrives).
    const onAbort = () => { reject(signal.reason); req.destroy(); };
    signal.addEventListener('abort', onAbort, { once: true });
    req.once('response', () => signal.removeEventListener('abort', onAbort));
    req.setTimeout(idleMs, () => { reject(new FetchTimeoutError(idleMs)); req.destroy(); });
    req.on('error', (e) => reject(signal.aborted && signal.reason instanceof AppError ? signal.reason : e));
    if (body !== undefined) req.end(body); else req.end();
  });
}

/** A transport failure as the AppError callers see (503 not_ready naming the host and the error code). */
export function connectError(e: unknown, host: string): AppError {
  if (e instanceof AppError) return e;
  const code = (e as NodeJS.ErrnoException)?.code ?? (e as Error)?.name ?? 'error';
  return new AppError('not_ready', `could not fetch from ${host}: ${code}`);
}

/**
 * The signal of one whole exchange: aborted by FetchTimeoutError after `timeoutMs`, or with the caller's reason when
 * `outer` aborts; `done()` clears the timer and the listener.
 */
export function exchangeDeadline(timeoutMs: number, outer?: AbortSignal): { signal: AbortSignal; done(): void } {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new FetchTimeoutError(timeoutMs)), timeoutMs);
  const onOuter = () => ac.abort(outer?.reason ?? new AppError('not_ready', 'request cancelled'));
  if (outer?.aborted) onOuter(); else outer?.addEventListener('abort', onOuter, { once: true });
  return { signal: ac.signal, done: () => { clearTimeout(timer); outer?.removeEventListener('abort', onOuter); } };
}

/** The headers every outgoing request starts from (our user agent, no compression), then the caller's, lower-cased. */
export function outgoingHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': 'ViewStream/1', 'accept-encoding': 'identity' };
  for (const [k, v] of Object.entries(given ?? {})) headers[k.toLowerCase()] = v;
  return headers;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Fetches a customer-supplied URL safely (see the file comment); throws BlockedAddressError for refused URLs. */
export async function safeFetch(url: string, o: SafeFetchOptions): Promise<SafeResponse> {
  const allow = allowCidrs(o.allowlist);
  const { signal, done } = exchangeDeadline(o.timeoutMs, o.signal);
  let method = (o.method ?? 'GET').toUpperCase();
  let body = o.body;
  let headers = outgoingHeaders(o.headers);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const u = shape(current, allow);
      const to = await raceAbort(resolveChecked(u.hostname, allow), signal);
      const res = await send(u, to, method, headers, body, signal, o.idleTimeoutMs ?? o.timeoutMs).catch((e) => { throw connectError(e, u.host); });
      const status = res.statusCode ?? 0;
      const loc = res.headers.location;
      if (REDIRECTS.has(status) && loc && o.maxRedirects > 0) {
        res.destroy();
        if (hop >= o.maxRedirects) throw new AppError('validation_error', `more than ${o.maxRedirects} redirects`);
        const next = new URL(loc, u);
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
          delete headers['content-type']; delete headers['content-length'];
        }
        if (next.origin !== u.origin) {
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !['authorization', 'cookie', 'proxy-authorization'].includes(k)));
        }
        current = next.toString();
        continue;
      }
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > o.maxBytes) { res.destroy(); throw new FetchTooLargeError(o.maxBytes); }
      return responseBody(res, current, o.maxBytes, method === 'HEAD', done, () => new FetchTooLargeError(o.maxBytes), signal);
    }
  } catch (e) {
    done();
    throw e instanceof AppError ? e : connectError(e, current);
  }
}

/** `p`, or the signal's reason once it aborts first. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const on = () => reject(signal.reason);
    signal.addEventListener('abort', on, { once: true });
    p.then((v) => { signal.removeEventListener('abort', on); resolve(v); }, (e) => { signal.removeEventListener('abort', on); reject(e); });
  });
}
