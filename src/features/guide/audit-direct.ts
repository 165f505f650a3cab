/**
 * Direct guide changes on the audit log: with review mode off an edit, copy, shift or import goes live at once as a
 * version (versions.ts) without passing a publish, so the route records it here as `guide.changed` (the channel's
 * name, the version's kind, number and changes), as a publish is recorded as `guide.published`.
 */
import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import { audit } from '../audit/service';
import type { ChannelRow } from '../channels/store';
import type { GuideStore } from './store';
import { authorOf } from './versions';

/** A direct change about to be made: the channel's newest version before it (compare with after the change). */
export interface DirectChange { p: Principal; request: Request; ch: ChannelRow; store: GuideStore; before: number; kind: string }

/** Notes the channel's newest version before a change (for auditDirect). */
export const beforeChange = (p: Principal, request: Request, ch: ChannelRow, store: GuideStore, kind: string): DirectChange =>
  ({ p, request, ch, store, before: store.lastVersion(ch.id), kind });

/**
 * Records `guide.changed` when the change went live as a new version by this caller (nothing when it was staged for
 * review or changed nothing, both of which record no version).
 */
export function auditDirect(ctx: AppContext, c: DirectChange): void {
  const last = c.store.lastVersion(c.ch.id);
  if (last <= c.before) return;
  const v = c.store.version(c.ch.id, last);
  if (!v || v.kind !== c.kind || v.author !== authorOf(c.p)) return;
  audit(ctx, { tenantId: c.p.tenantId, action: 'guide.changed', actor: c.p, request: c.request, target: c.ch.id, details: { name: c.ch.name, kind: v.kind, version: v.version, changes: v.changes } });
}
