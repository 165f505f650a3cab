import type { AppContext } from '../../kernel/context';
import { invalid, notFound } from '../../kernel/errors';
import { newId, isUuid } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { AssetService } from '../assets/service';
import { channelBySlug } from '../channels/service';
import { watermarkAppliesTo } from '../watermark/applies';
import { PlaybackStore, type PolicyRow } from './store';
import { normalizeRules, type RulesInput } from './policy';
import { playbackState } from './service';

/** A policy as the API shows it. */
export function policyView(p: PolicyRow, attachments: { target_kind: string; target_ref: string }[] = []) {
  const rules = normalizeRules(JSON.parse(p.rules) as RulesInput);
  return { id: p.id, name: p.name, ...rules, watermark: { ...rules.watermark, applies_to: watermarkAppliesTo(rules.watermark.mode) }, attached_to: attachments.map((a) => ({ target_kind: a.target_kind, target_id: a.target_kind === 'tenant' ? null : a.target_ref })), created_at: iso(p.created_at), updated_at: iso(p.updated_at) };
}

/** Playback policies and their attach points (tenant, channel, asset). Changes emit `policy.changed`. */
export class PolicyService {
  private store: PlaybackStore;
  constructor(private ctx: AppContext) { this.store = new PlaybackStore(ctx.db); }

  private get(tenantId: string, id: string): PolicyRow {
    const p = isUuid(id) ? this.store.policy(tenantId, id) : null;
    if (!p) throw notFound('playback policy');
    return p;
  }
  private attachmentsOf(tenantId: string, id: string) {
    return this.store.attachmentsOf(tenantId).filter((a) => a.policy_id === id);
  }
  private changed(tenantId: string, id: string, action: string) {
    emitEvent(this.ctx.db, tenantId, 'policy.changed', { policy: id, action });
  }

  /** One policy with its attach points. */
  one(tenantId: string, id: string) {
    return policyView(this.get(tenantId, id), this.attachmentsOf(tenantId, id));
  }

  /** Rows for a cursor page, newest first. */
  rows(tenantId: string, beforeSeq: number | null, limit: number) { return this.store.listPolicies(tenantId, beforeSeq, limit); }

  /** Creates a policy. */
  create(tenantId: string, body: { name: string } & RulesInput) {
    const { name, ...rules } = body;
    const now = this.ctx.clock.now();
    const row = { id: newId(), tenant_id: tenantId, name, rules: JSON.stringify(normalizeRules(rules)), created_at: now, updated_at: now };
    tx(this.ctx.db, () => { this.store.insertPolicy(row); this.changed(tenantId, row.id, 'created'); });
    playbackState(this.ctx).reload();
    return policyView({ ...row, seq: 0 });
  }

  /** Changes a policy's name or rules. */
  patch(tenantId: string, id: string, body: { name?: string } & RulesInput) {
    const p = this.get(tenantId, id);
    const { name, ...rules } = body;
    const merged = normalizeRules(rules, normalizeRules(JSON.parse(p.rules)));
    tx(this.ctx.db, () => { this.store.updatePolicy(tenantId, id, name ?? p.name, JSON.stringify(merged), this.ctx.clock.now()); this.changed(tenantId, id, 'updated'); });
    playbackState(this.ctx).reload();
    return this.one(tenantId, id);
  }

  /** Deletes a policy and its attach points. */
  remove(tenantId: string, id: string): void {
    this.get(tenantId, id);
    tx(this.ctx.db, () => { this.store.deletePolicy(tenantId, id); this.changed(tenantId, id, 'deleted'); });
    playbackState(this.ctx).reload();
  }

  /** Applies a policy to the tenant, a channel (slug) or an asset (id); replaces what was attached there. */
  attach(tenantId: string, id: string, kind: 'tenant' | 'channel' | 'asset', targetId?: string) {
    this.get(tenantId, id);
    let ref = '*';
    if (kind !== 'tenant') {
      if (!targetId) throw invalid('target_id', `required for ${kind}`);
      if (kind === 'channel' && !channelBySlug(this.ctx, tenantId, targetId)) throw notFound('channel');
      if (kind === 'asset') new AssetService(this.ctx).get(tenantId, targetId);
      ref = targetId;
    }
    tx(this.ctx.db, () => { this.store.attach({ tenant_id: tenantId, target_kind: kind, target_ref: ref, policy_id: id, created_at: this.ctx.clock.now() }); this.changed(tenantId, id, 'attached'); });
    playbackState(this.ctx).reload();
    return this.one(tenantId, id);
  }

  /** Removes what is attached at a point. */
  detach(tenantId: string, id: string, kind: string, targetId?: string) {
    this.get(tenantId, id);
    const ok = tx(this.ctx.db, () => { const r = this.store.detach(tenantId, kind, kind === 'tenant' ? '*' : targetId ?? ''); if (r) this.changed(tenantId, id, 'detached'); return r; });
    if (!ok) throw notFound('attachment');
    playbackState(this.ctx).reload();
    return this.one(tenantId, id);
  }
}
