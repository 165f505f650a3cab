import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { authenticate, type Principal } from '../../kernel/http/auth';
import { isJsonType } from '../../kernel/http/body';

/** Protocol revisions `MCP-Protocol-Version` may name (the SDK also knows 2024 revisions; the API does not). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** Body limit of /mcp (1 MiB). */
export const MCP_BODY_MAX = 1024 * 1024;
/** Messages a 2025-03-26 batch may carry. */
export const BATCH_MAX = 20;

/** Authenticates an API key (session cookies refused); 401 carries `WWW-Authenticate: Bearer`; a key without a tenant answers 403. */
export function mcpPrincipal(ctx: AppContext, req: Request): Principal {
  let p: Principal;
  try {
    p = authenticate(req, { scope: null, sessions: false, only: 'key' }, ctx.keys, ctx.limiter);
  } catch (e) {
    if (e instanceof AppError && e.code === 'invalid_credentials') throw new AppError('invalid_credentials', e.detail, { headers: { 'www-authenticate': 'Bearer realm="viewstream", error="invalid_token"' } });
    throw e;
  }
  if (!p.tenantId) throw new AppError('forbidden', 'this key belongs to no tenant; /mcp needs a tenant key');
  return p;
}

/**
 * Charges a batch of `n` messages as `n` requests against the key's rate limit (authenticating charged the first): a
 * batch is never cheaper than the same calls sent one by one. Past the limit the whole batch answers 429, with a
 * `Retry-After` long enough for the rest of it; what was charged before the refusal stays charged.
 */
export function chargeBatch(ctx: AppContext, p: Principal, n: number): void {
  for (let i = 1; i < n; i++) {
    const wait = ctx.limiter.take(p.keyId);
    if (wait > 0) {
      const s = Math.max(wait, Math.ceil((n - i) / ctx.config.rateLimit.perSecond));
      throw new AppError('rate_limited', `rate limit exceeded: a batch of ${n} messages counts as ${n} requests; retry in ${s} s`, { headers: { 'retry-after': String(s) } });
    }
  }
}

/** Refuses a browser Origin other than the appliance's own address (DNS-rebinding and cross-site calls). */
export function checkOrigin(ctx: AppContext, req: Request): void {
  const origin = req.headers.get('origin');
  if (origin === null) return;
  let own = '';
  try { own = new URL(ctx.config.baseUrl).origin; } catch { /* no base address: every origin is foreign */ }
  if (origin !== own) throw new AppError('forbidden', `browser origin ${origin.slice(0, 200)} is not allowed on /mcp`);
}

/** True when an Accept header leaves application/json acceptable (absent, * / *, application/*, or named with q > 0). */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept === 'application/json, text/event-stream' || accept.trim() === '') return true;
  // Without parameters every listed range has q=1: JSON is acceptable when one of them matches it.
  if (!accept.includes(';')) {
    for (const part of accept.split(',')) {
      const r = part.trim().toLowerCase();
      if (r === 'application/json' || r === 'application/*' || r === '*/*') return true;
    }
    return false;
  }
  // The most specific range that matches application/json decides (RFC 9110 §12.5.1); q=0 excludes it.
  let spec = 0, q = 0;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';').map((x) => x.trim());
    const s = range === 'application/json' ? 3 : range === 'application/*' ? 2 : range === '*/*' ? 1 : 0;
    if (s <= spec) continue;
    const qp = params.find((x) => x.startsWith('q='));
    spec = s;
    q = qp ? Number(qp.slice(2)) : 1;
  }
  return spec > 0 && q > 0;
}

/** Checks the headers of a POST: Accept (406), Content-Type (415), MCP-Protocol-Version (400). Returns the version sent, or null. */
export function checkHeaders(req: Request): string | null {
  if (!acceptsJson(req.headers.get('accept'))) throw new AppError('bad_request', 'Accept must allow application/json: /mcp answers JSON only', { status: 406 });
  if (!isJsonType(req.headers.get('content-type'))) throw new AppError('unsupported_media_type', '/mcp takes application/json');
  const v = req.headers.get('mcp-protocol-version');
  if (v !== null && !(PROTOCOL_VERSIONS as readonly string[]).includes(v)) throw new AppError('bad_request', `unsupported MCP-Protocol-Version ${v.slice(0, 40)}; supported: ${PROTOCOL_VERSIONS.join(', ')}`);
  return v;
}
