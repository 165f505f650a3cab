import { newId } from '../../kernel/ids';
import { iso } from '../../kernel/clock';
import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import { clientIp } from '../../kernel/http/server';
import { AuditStore, type AuditRow } from './store';

/** Audit actions recorded so far (an open set: MCP adds `mcp.tool_call`). */
export type AuditAction =
  | 'key.created' | 'key.revoked' | 'member.added' | 'member.removed' | 'member.role_changed'
  | 'invitation.created' | 'invitation.revoked' | 'settings.changed' | 'connect.approved' | 'connect.disconnected'
  | 'signin.failed' | 'signin.throttled' | 'password.reset' | 'password.reset_sent' | 'asset.published' | 'asset.unpublished'
  | 'asset.trashed' | 'asset.restored' | 'asset.purged' | 'asset.trash_emptied' | 'programme.to_library' | 'guide.published' | 'guide.rolled_back' | 'guide.changed'
  | 'channel.started' | 'channel.stopped' | (string & {});

/** One entry to record. `actor` is the caller (key or person); null for anonymous events such as failed sign-ins. */
export interface AuditEntry {
  tenantId: string | null;
  action: AuditAction;
  actor: Principal | null;
  /** Shown when there is no principal (e.g. the e-mail address of a failed sign-in). */
  actorLabel?: string;
  /** The request (for the client IP) or the IP itself. */
  request?: Request | null;
  ip?: string | null;
  target?: string | null;
  details?: Record<string, unknown>;
}

/** An audit entry as the API shows it. */
export interface AuditView {
  id: string; at: string; action: string; actor: { kind: 'user' | 'key' | 'anonymous'; id: string | null; label: string };
  ip: string | null; target: string | null; details: Record<string, unknown>;
}

/** Records one audit entry (any feature may call this; failures are logged, never thrown into the caller). */
export function audit(ctx: AppContext, e: AuditEntry): void {
  const a = e.actor;
  const kind = a ? (a.kind === 'session' ? 'user' : 'key') : 'anonymous';
  const actorId = a ? (a.kind === 'session' ? a.userId : a.keyId) : null;
  const label = e.actorLabel ?? (a?.session ? a.session.user.email : '');
  try {
    new AuditStore(ctx.db).insert({
      id: newId(), tenant_id: e.tenantId, at: ctx.clock.now(), action: e.action, actor_kind: kind, actor_id: actorId,
      actor_label: label, ip: e.ip ?? (e.request ? clientIp(e.request) : null), target: e.target ?? null,
      details: JSON.stringify(e.details ?? {}),
    });
  } catch (err) {
    ctx.log.error('audit entry not recorded', { action: e.action, error: String(err) });
  }
}

/** Maps a row to its API view. */
export function auditView(r: AuditRow): AuditView {
  return {
    id: r.id, at: iso(r.at), action: r.action, actor: { kind: r.actor_kind as AuditView['actor']['kind'], id: r.actor_id, label: r.actor_label },
    ip: r.ip, target: r.target, details: JSON.parse(r.details) as Record<string, unknown>,
  };
}
