import type { AppContext } from '../../kernel/context';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import type { Gate } from './gate';
import { geoOf } from './geo';
import { LeakStore, type LeakRow } from './leak-store';
import { LeakWatch, type LeakFinding } from './leak-watch';
import { PlaybackService, playbackState } from './service';

/** What a suspicion names: the session's target (`asset`, `clip`, or the channel of live, catch-up and start-over). */
function targetField(kind: string, id: string): Record<string, string> {
  if (kind === 'asset' || kind === 'clip') return { [kind]: id };
  return { channel: id.split('/')[0] };
}

/** Leak suspicions: recorded by the leak watch, listed, dismissed and revoked. */
export class LeakService {
  private store: LeakStore;
  constructor(private ctx: AppContext) { this.store = new LeakStore(ctx.db); }

  /** The API view of a row. */
  view(r: LeakRow) {
    return {
      id: r.id, sid: r.sid, status: r.status, target_kind: r.target_kind, target_id: r.target_id, ...targetField(r.target_kind, r.target_id),
      policy_id: r.policy_id, reason: r.reason, evidence: JSON.parse(r.evidence) as Record<string, unknown>, auto_revoked: r.auto === 1,
      detected_at: iso(r.detected_at), updated_at: iso(r.updated_at), resolved_at: r.resolved_at === null ? null : iso(r.resolved_at), resolved_by: r.resolved_by,
    };
  }

  private row(tenantId: string, id: string): LeakRow {
    const r = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!r) throw notFound('leak');
    return r;
  }

  /** One suspicion. */
  one(tenantId: string, id: string) { return this.view(this.row(tenantId, id)); }

  /** Rows for a cursor page, newest first (of one status when named). */
  rows(tenantId: string, status: string | null, beforeSeq: number | null, limit: number) { return this.store.list(tenantId, status, beforeSeq, limit); }

  /**
   * Records what the watch found for a session: a new suspicion (`security.leak_suspected`; revoked at once when the
   * policy says `auto_revoke`), or fresher evidence for the open one.
   */
  record(tenantId: string, sid: string, target: { kind: string; id: string }, policyId: string | null, f: LeakFinding, autoRevoke: boolean): void {
    const now = this.ctx.clock.now();
    const existing = this.store.bySid(tenantId, sid);
    if (existing) { this.store.updateEvidence(existing.id, f.reason, JSON.stringify(f.evidence), now); return; }
    const row: LeakRow = {
      seq: 0, id: newId(), tenant_id: tenantId, sid, target_kind: target.kind, target_id: target.id, policy_id: policyId, reason: f.reason,
      evidence: JSON.stringify(f.evidence), status: 'open', auto: 0, detected_at: now, updated_at: now, resolved_at: null, resolved_by: null,
    };
    const inserted = tx(this.ctx.db, () => {
      if (!this.store.insert(row)) return false;
      emitEvent(this.ctx.db, tenantId, 'security.leak_suspected', { leak: row.id, ...targetField(target.kind, target.id), session: sid, reason: f.reason, counts: f.counts, auto_revoke: autoRevoke }, now);
      return true;
    });
    if (inserted && autoRevoke) this.revokeRow(row, null, true);
  }

  private revokeRow(r: LeakRow, by: string | null, auto: boolean): void {
    new PlaybackService(this.ctx).revoke(r.tenant_id, r.sid, `leak suspected: ${r.reason}`.slice(0, 500), { known: true, extra: { leak: r.id } });
    this.store.resolve(r.id, 'revoked', this.ctx.clock.now(), by, auto);
  }

  /** Marks an open suspicion as not a leak (409 when it is not open). */
  dismiss(tenantId: string, id: string, by: string) {
    const r = this.row(tenantId, id);
    if (r.status !== 'open') throw new AppError('conflict', `the leak is already ${r.status}`);
    this.store.resolve(r.id, 'dismissed', this.ctx.clock.now(), by);
    return this.one(tenantId, id);
  }

  /** Revokes the suspicion's session (its next request is refused everywhere; `security.revoked`). */
  revoke(tenantId: string, id: string, by: string) {
    const r = this.row(tenantId, id);
    if (r.status === 'revoked') throw new AppError('conflict', 'the session is already revoked');
    this.revokeRow(r, by, false);
    return this.one(tenantId, id);
  }
}

/**
 * Watches every token delivery answer (the gate's observers: this process's, the delivery workers' and the front's
 * own answers alike) for sessions seen from more addresses, networks or countries than their policy's `leaks` limits
 * allow within its window, and records what it finds. Policies without limits cost one rules lookup per answer.
 */
export function watchLeaks(ctx: AppContext, gate: Gate): void {
  const watch = new LeakWatch();
  const state = playbackState(ctx);
  const svc = new LeakService(ctx);
  const geo = geoOf(ctx);
  state.onChange((sid) => { if (sid) watch.forget(sid); });
  gate.observe((s) => {
    if (!s.sid || !s.ip || !s.guarded || state.isRevoked(s.sid)) return;
    const t = s.guarded.target, tenant = s.guarded.tenant.id;
    const kind = t.kind === 'asset' || t.kind === 'clip' ? t.kind : 'channel';
    const { rules, policyId } = state.rulesFor(tenant, { kind, ref: t.id, channel: null });
    const L = rules.leaks;
    if (!L.max_addresses && !L.max_networks && !L.max_countries) return;
    const ip = s.ip;
    const f = watch.see(s.sid, ip, s.ua, () => geo.lookup(ip), L, s.atMs ?? ctx.clock.now());
    if (!f) return;
    try { svc.record(tenant, s.sid, { kind: t.kind, id: t.programme ? `${t.id}/${t.programme}` : t.id }, policyId, f, L.auto_revoke); } catch (e) { ctx.log.warn('leak record failed', { error: String(e) }); }
  });
}
