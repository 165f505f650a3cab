/**
 * Guide versions: every change that reaches the published guide is recorded as a numbered version (a snapshot of
 * the channel's programmes, its author, what kind of change) and announced with `epg.published` — a reviewed draft
 * being published, a rollback, and, with review mode off, each direct edit, copy, shift and import.
 */
import type { AppContext } from '../../kernel/context';
import { emitEvent } from '../../kernel/events/outbox';
import type { Principal } from '../../kernel/http/auth';
import type { ChannelRow } from '../channels/store';
import type { GuideOp } from './ops';
import type { GuideStore, ProgrammeFields, ProgrammeRow } from './store';

/** The guide fields of a stored programme (what snapshots carry). */
export const fieldsOf = (p: ProgrammeRow): ProgrammeFields => ({ id: p.id, title: p.title, description: p.description, series: p.series, episode: p.episode, images: p.images, start_ms: p.start_ms, end_ms: p.end_ms, source: p.source });

/** Who a version is recorded as: the signed-in person's name (or e-mail), else the API key. */
export const authorOf = (p: Principal): string => (p.session ? p.session.user.name || p.session.user.email : `API key ${p.keyId}`);

/** The version kind of a change applied directly (review mode off): `edit` for one programme, else the bulk kind. */
export const directKind = (op: GuideOp): string => (op.op === 'replace' ? op.kind : 'edit');

/** Records the channel's guide as it is now as the next version (inside the caller's transaction); returns its number. */
export function recordVersion(ctx: AppContext, store: GuideStore, ch: ChannelRow, kind: string, changes: number, now: number, author: string | null): number {
  const version = store.lastVersion(ch.id) + 1;
  const snapshot = JSON.stringify(store.all(ch.id).map(fieldsOf));
  store.addVersion({ tenant_id: ch.tenant_id, channel_id: ch.id, version, kind, changes, snapshot, created_at: now, author });
  emitEvent(ctx.db, ch.tenant_id, 'epg.published', { channel_id: ch.id, channel: ch.slug, version, kind, changes }, now);
  return version;
}
