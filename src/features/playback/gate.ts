import type { AppContext } from '../../kernel/context';
import { AppError } from '../../kernel/errors';
import { clientIp } from '../../kernel/http/server';
import { splitUrl } from '../../kernel/http/url';
import { IdentityService } from '../identity/service';
import { classifyPath, isDeliveryPath, type PathTarget } from './paths';
import { verifyToken, type Claims } from './token';
import { playbackState } from './service';

const verified = new WeakMap<Request, { claims: Claims; ip: string | null }>();

function normIp(ip: string | null): string | null {
  return ip ? ip.replace(/^::ffff:/, '') : null;
}

/** Hides the token of a /t/<token>/ path (for logs: tokens are never written out). */
export function redactToken(path: string): string {
  return path.replace(/\/t\/[^/]+\//, '/t/<redacted>/');
}

/**
 * The delivery gate. `/t/<token>/<path>` is verified (signature, expiry, revocation, viewer IP) and re-dispatched
 * as `<path>`; every delivery path is then checked against its target: a token must be bound to the same tenant
 * and target, and an unsigned path is refused when the target's policy requires tokens. Reads memory only.
 */
export function createGate(ctx: AppContext) {
  const state = playbackState(ctx);
  const identity = new IdentityService(ctx.db, null);
  const tenantIds = new Map<string, string | null>();
  const tenantId = (ref: string | null): string | null => {
    if (!ref) return null;
    if (!tenantIds.has(ref)) { try { tenantIds.set(ref, identity.tenant(ref).id); } catch { return null; } }
    return tenantIds.get(ref) ?? null;
  };
  const deny = (detail: string) => new AppError('forbidden', detail);

  const bound = (c: Claims, t: PathTarget): boolean => {
    if (c.k !== t.kind) return false;
    switch (t.kind) {
      case 'startover': return c.i === `${t.id}/${t.programme}`;
      case 'catchup': {
        if (c.i !== t.id || c.a === undefined || t.from === undefined) return false;
        if (t.from < c.a) return false;
        if (c.b === null || c.b === undefined) return true;
        return t.to !== undefined && t.to <= c.b;
      }
      default: return c.i === t.id;
    }
  };

  return {
    /** Verifies the token of a /t/ request and returns the inner request to dispatch. */
    unwrap(req: Request): Request {
      const url = new URL(req.url);
      const m = /^\/t\/([^/]+)(\/.*)$/.exec(url.pathname);
      if (!m) throw deny('malformed token path');
      const r = verifyToken(m[1], (kid) => state.keyFor(kid), Math.floor(ctx.clock.now() / 1000));
      if (!r.ok) throw deny(r.fault === 'expired' ? 'playback token expired' : 'playback token invalid');
      if (state.isRevoked(r.claims.s)) throw deny('playback session revoked');
      const ip = normIp(clientIp(req));
      if (r.claims.ip && normIp(r.claims.ip) !== ip) throw deny('playback token is bound to another viewer address');
      const inner = new Request(`${url.origin}${m[2]}${url.search}`, { method: req.method, headers: req.headers });
      verified.set(inner, { claims: r.claims, ip });
      return inner;
    },

    /** Checks a delivery request against its target (token binding or policy); throws 403/404 when refused. */
    check(req: Request): void {
      const { path, query } = splitUrl(req.url);
      if (!isDeliveryPath(path)) return;
      if (path.includes('/../') || path.includes('%2e%2e') || path.includes('%2E%2E')) throw new AppError('not_found', 'no such file');
      const target = classifyPath(path, new URLSearchParams(query));
      if (!target) return; // not a guarded layout: the delivery route itself answers (404)
      const tid = tenantId(target.tenant);
      const v = verified.get(req);
      if (v && (tid !== v.claims.t || !bound(v.claims, target))) throw deny('playback token does not open this content');
      if (!tid) return;
      const kind = target.kind === 'asset' || target.kind === 'clip' ? target.kind : 'channel';
      const { rules } = state.rulesFor(tid, { kind, ref: target.id, channel: null });
      if (!v && rules.require_token) throw deny('this content needs a playback token');
      if (rules.require_encryption && target.kind === 'asset' && !target.encrypted && /\.(m3u8|m4s|mpd|mp4)$/.test(target.file ?? '.m4s')) {
        throw deny('this content is delivered only as AES-128 HLS (.../aes/master.m3u8)');
      }
    },
  };
}
