import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { PlaybackStore } from './store';
import { PlaybackState } from './state';
import { signToken, type Claims } from './token';
import { networkRefusal, referrerAllowed } from './policy';
import { resolveTarget, type TargetSpec } from './targets';
import { geoOf } from './geo';
import { SESSION_LIMITS, sessionRate, sweepIfDue } from './session-limits';
import { targetBlackout } from './blackout-gate';
import { recordMarkedSession } from '../watermark/sessions';

/** Answer of POST /v1/playback/tokens and /v1/playback/session. */
export interface TokenAnswer { src: string; url: string; token: string; sid: string; expires_at: string; protected: boolean; thumbs: string | null }

/** Options of a token request besides its target. */
export interface TokenOptions { ttl_s?: number; viewer_ip?: string; viewer_asn?: number; viewer_id?: string }

const STATE = slotKey<PlaybackState>('playback.state');

/** The playback state of an app (one per application context, kept in its slots). */
export function playbackState(ctx: AppContext): PlaybackState {
  return ctx.slots.get(STATE, () => PlaybackState.over(ctx.db));
}

/** Issues tokens and sessions, revokes sessions, manages signing keys. */
export class PlaybackService {
  private store: PlaybackStore;
  private state: PlaybackState;
  constructor(private ctx: AppContext) {
    this.store = new PlaybackStore(ctx.db);
    this.state = playbackState(ctx);
  }

  /** The tenant's active signing key id, created on first use. */
  activeKeyId(tenantId: string): string {
    const kid = this.state.activeKey(tenantId);
    if (kid) return kid;
    return this.rotateKey(tenantId).id;
  }

  /** Makes a new active signing key; older keys keep verifying until retired. */
  rotateKey(tenantId: string): { id: string; created_at: string } {
    const id = `pk_${randomBytes(6).toString('hex')}`;
    const now = this.ctx.clock.now();
    tx(this.ctx.db, () => this.store.insertKey({ id, tenant_id: tenantId, secret: randomBytes(32).toString('base64url'), active: 1, created_at: now }));
    this.state.reload();
    return { id, created_at: iso(now) };
  }

  /** Signing keys with their secrets (owners sign tokens in their own backend). */
  listKeys(tenantId: string) {
    this.activeKeyId(tenantId);
    return this.store.keysOf(tenantId).map((k) => ({ id: k.id, alg: 'HS256', secret: k.secret, active: k.active === 1, created_at: iso(k.created_at), retired_at: k.retired_at ? iso(k.retired_at) : null }));
  }

  /** Retires an inactive key: tokens signed with it stop verifying at once. */
  retireKey(tenantId: string, kid: string): void {
    if (!this.store.keysOf(tenantId).some((k) => k.id === kid)) throw notFound('signing key');
    if (this.state.activeKey(tenantId) === kid) throw new AppError('conflict', 'rotate before retiring the active key');
    this.store.retireKey(tenantId, kid, this.ctx.clock.now());
    this.state.reload();
  }

  /** POST /v1/playback/tokens: a signed URL for exactly one target. */
  issue(tenant: { id: string; slug: string }, spec: TargetSpec, o: TokenOptions, via: 'api' | 'session' | 'studio' = 'api'): TokenAnswer {
    if (o.viewer_ip !== undefined && !isIP(o.viewer_ip)) throw invalid('viewer_ip', 'must be an IPv4 or IPv6 address');
    const target = resolveTarget(this.ctx, tenant, spec);
    const { rules } = this.state.rulesFor(tenant.id, target.policy);
    if (via === 'api' && (o.viewer_asn !== undefined || o.viewer_ip !== undefined)) {
      // The customer's backend names the viewer: check network rules on what it says (and what the address tells).
      const net = geoOf(this.ctx).lookup(o.viewer_ip ?? null);
      const refusal = networkRefusal(rules, { country: net.country, asn: o.viewer_asn ?? net.asn });
      if (refusal) throw new AppError('forbidden', refusal);
      if (o.viewer_ip !== undefined) { const b = targetBlackout(this.ctx, this.state.blackouts, tenant.id, target, net.country); if (b) throw b; }
    }
    const ttl = o.ttl_s && o.ttl_s > 0 ? o.ttl_s : rules.default_ttl_s;
    const nowMs = this.ctx.clock.now();
    const exp = Math.floor(nowMs / 1000) + ttl;
    const sid = newId();
    const claims: Claims = { v: 1, kid: this.activeKeyId(tenant.id), t: tenant.id, k: target.kind, i: target.id, e: exp, s: sid };
    if (target.from !== undefined) { claims.a = target.from; claims.b = target.to ?? null; }
    if (target.programme) claims.i = `${target.id}/${target.programme}`;
    if (o.viewer_ip && (rules.bind_viewer_ip || via === 'api')) claims.ip = o.viewer_ip;
    const token = signToken(claims, this.state.keyFor(claims.kid)!);
    this.store.insertSession({ sid, tenant_id: tenant.id, target_kind: target.kind, target_id: claims.i, viewer_id: o.viewer_id ?? null, via, issued_at: nowMs, expires_at: exp * 1000 });
    // A marked asset's sessions are kept for tracing (watermark_sessions outlives the session row).
    if (target.kind === 'asset' && rules.watermark.mode !== 'off') recordMarkedSession(this.ctx.db, { sid, tenant_id: tenant.id, asset_id: claims.i, viewer_id: o.viewer_id ?? null, via, issued_at: nowMs });
    sweepIfDue(this.ctx); // rows of expired sessions go at most a minute after they are due, whatever issues them
    const base = this.ctx.config.cdnBaseUrl;
    const path = target.kind === 'asset' && rules.require_encryption ? target.path.replace(/(?<!\/aes)\/master\.m3u8$/, '/aes/master.m3u8') : target.path;
    const src = `${base}/t/${token}${path}`;
    return { src, url: src, token, sid, expires_at: iso(exp * 1000), protected: rules.require_token || rules.require_encryption, thumbs: target.thumbs ? `${base}/t/${token}${target.thumbs}` : null };
  }

  /** POST /v1/playback/session: the hosted player's public issuer; checks referrer, network and rate rules. */
  session(tenant: { id: string; slug: string }, spec: TargetSpec, pageOrigin: string, viewer: { ip: string | null; origin: string | null; country: string | null; asn: number | null }, refusalHeaders: Record<string, string> = {}): TokenAnswer {
    const target = resolveTarget(this.ctx, tenant, spec);
    const { rules, policyId } = this.state.rulesFor(tenant.id, target.policy);
    if (!referrerAllowed(rules, pageOrigin) || (viewer.origin && !referrerAllowed(rules, viewer.origin))) {
      throw new AppError('forbidden', 'this page is not allowed to play the content (referrer policy)');
    }
    const refusal = networkRefusal(rules, { country: viewer.country, asn: viewer.asn });
    if (refusal) throw new AppError('forbidden', refusal);
    const blackout = targetBlackout(this.ctx, this.state.blackouts, tenant.id, target, viewer.country, refusalHeaders);
    if (blackout) throw blackout;
    // Every address is limited (no key stands behind this route): under a policy's own figure, counted per policy, or
    // under the default, counted across everything that has none.
    const own = rules.sessions_per_ip_per_min > 0;
    sessionRate(this.ctx).take(own ? `p:${policyId}` : 'default', viewer.ip, own ? rules.sessions_per_ip_per_min : SESSION_LIMITS.defaultPerIpPerMin, this.ctx.clock.now());
    return this.issue(tenant, spec, { ttl_s: 0, viewer_ip: rules.bind_viewer_ip && viewer.ip ? viewer.ip : undefined }, 'session');
  }

  /** The session the issuer created under `sid` (tenant, target, how it was issued), or null: beacons bind to it. */
  sessionRecord(sid: string) { return this.store.sessionBySid(sid); }

  /**
   * POST /v1/security/revocations: the session's next request is refused on every path; emits `security.revoked`
   * (once per session). `extra` is added to the event (the leak that caused it). A session the issuer has no row of
   * answers 404 unless `known` (a leak's session, seen on a verified token of this tenant).
   */
  revoke(tenantId: string, sid: string, reason: string | null, o: { known?: boolean; extra?: Record<string, unknown> } = {}): { sid: string; revoked_at: string } {
    if (!o.known && !this.store.session(tenantId, sid)) throw notFound('playback session');
    const at = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      if (this.store.revoke(tenantId, sid, reason, at)) emitEvent(this.ctx.db, tenantId, 'security.revoked', { session: sid, reason, ...o.extra }, at);
    });
    this.state.markRevoked(sid);
    return { sid, revoked_at: iso(at) };
  }

  /** Recent revocations of a tenant. */
  revocations(tenantId: string) {
    return this.store.listRevocations(tenantId, 200).map((r) => ({ sid: r.sid, reason: r.reason, revoked_at: iso(r.revoked_at) }));
  }
}
