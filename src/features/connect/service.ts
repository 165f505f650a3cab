import { AppError } from '../../kernel/errors';
import { randomToken } from '../../kernel/ids';
import { hashKey, type Principal } from '../../kernel/http/auth';
import { isRole, isScope, scopesForRole, type Scope } from '../../kernel/http/scopes';
import type { AppContext } from '../../kernel/context';
import { identityService } from '../identity/service';
import { PeopleService } from '../people/service';
import { ConnectStore } from './store';
import { PKCE_RE, s256, siteOrigin } from './redirect';

/** A connection code is valid 60 seconds. */
export const CODE_TTL_MS = 60_000;

/** What a site asks for (POST /v1/connect/authorize). */
export interface AuthorizeInput { redirect_uri: string; state: string; code_challenge: string; code_challenge_method: string; scopes: string[]; site_name?: string }

const grant = (detail: string) => new AppError('bad_request', `invalid_grant: ${detail}`);

/** Site connection: a person approves a site (PKCE S256 code), the site exchanges the code for a scoped key. */
export class ConnectService {
  private store: ConnectStore;
  constructor(private ctx: AppContext) { this.store = new ConnectStore(ctx.db); }

  /** Checks a request's PKCE fields, redirect and scopes; returns the site origin and the scope list. */
  check(p: Principal, b: AuthorizeInput): { origin: string; scopes: Scope[] } {
    const origin = siteOrigin(b.redirect_uri);
    if (!b.state) throw new AppError('validation_error', 'state: required', { errors: [{ field: 'state', detail: 'required (non-empty)' }] });
    if (b.code_challenge_method !== 'S256') throw new AppError('validation_error', 'code_challenge_method: only S256', { errors: [{ field: 'code_challenge_method', detail: 'only S256' }] });
    if (!PKCE_RE.test(b.code_challenge)) throw new AppError('validation_error', 'code_challenge: 43-128 base64url characters', { errors: [{ field: 'code_challenge', detail: '43-128 base64url characters' }] });
    const bad = b.scopes.filter((s) => !isScope(s));
    if (bad.length) throw new AppError('validation_error', `scopes: unknown ${bad.join(', ')}`, { errors: [{ field: 'scopes', detail: `unknown ${bad.join(', ')}` }] });
    const scopes = [...new Set(b.scopes as Scope[])];
    const missing = scopes.filter((s) => !p.scopes.has(s));
    if (missing.length) throw new AppError('insufficient_scope', `cannot grant scopes you lack: ${missing.join(', ')}`);
    return { origin, scopes };
  }

  /** Issues a one-time code (60 s, stored hashed) for a signed-in person with `keys:manage`. */
  authorize(p: Principal, b: AuthorizeInput): { code: string; state: string; redirect_to: string; expires_in: number; origin: string; scopes: Scope[] } {
    const { origin, scopes } = this.check(p, b);
    const code = randomToken(32);
    const now = this.ctx.clock.now();
    this.store.sweep(now - 86_400_000);
    this.store.insert({
      hash: hashKey(code), tenant_id: p.tenantId, user_id: p.userId!, site_origin: origin, site_name: (b.site_name ?? '').slice(0, 200),
      redirect_uri: b.redirect_uri, code_challenge: b.code_challenge, scopes: JSON.stringify(scopes), created_at: now, expires_at: now + CODE_TTL_MS,
    });
    const to = new URL(b.redirect_uri);
    to.searchParams.set('code', code);
    to.searchParams.set('state', b.state);
    return { code, state: b.state, redirect_to: to.toString(), expires_in: CODE_TTL_MS / 1000, origin, scopes };
  }

  /**
   * Exchanges a code, its PKCE verifier and the identical redirect address for a key with the granted scopes. A code
   * works once; a wrong verifier or address burns it. The person must still hold every granted scope.
   */
  token(b: { code: string; code_verifier: string; redirect_uri: string }) {
    const hash = hashKey(b.code);
    const c = this.store.byHash(hash);
    const now = this.ctx.clock.now();
    if (!c) throw grant('unknown code');
    if (c.used_at) throw grant('code already used');
    if (c.expires_at <= now) { this.store.burn(hash, now); throw grant('code expired'); }
    if (!PKCE_RE.test(b.code_verifier) || s256(b.code_verifier) !== c.code_challenge) { this.store.burn(hash, now); throw grant('code_verifier does not match; the code is now void'); }
    if (b.redirect_uri !== c.redirect_uri) { this.store.burn(hash, now); throw grant('redirect_uri differs from the one approved; the code is now void'); }
    if (!this.store.burn(hash, now)) throw grant('code already used');
    const role = new PeopleService(this.ctx).roleIn(c.tenant_id, c.user_id);
    const have = new Set(role && isRole(role) ? scopesForRole(role) : []);
    const scopes = JSON.parse(c.scopes) as Scope[];
    if (!role || !scopes.every((s) => have.has(s))) throw new AppError('forbidden', 'the approving person no longer holds these scopes');
    const ids = identityService(this.ctx);
    const key = ids.createKey(c.tenant_id, { scopes, name: `site ${c.site_origin}`.slice(0, 200) });
    return { key, tenantId: c.tenant_id, userId: c.user_id, origin: c.site_origin, tenant: ids.tenant(c.tenant_id).slug };
  }
}
