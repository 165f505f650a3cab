/**
 * Guide versions: every change that reaches the published guide is recorded as a numbered version (a snapshot of
 * the channel's programmes, its author, what kind of change) and announced with `epg.published` — a reviewed draft
 * being published, a rollback, and, with review mode off, each direct edit, copy, shift and import. The newest
 * `KEPT_SNAPSHOTS` versions of a channel keep their snapshot (what a rollback restores; gzipped JSON, about a tenth of
 * the text); older ones stay listed history. A snapshot holds the programmes that end after `SNAPSHOT_PAST_MS` before
 * it was taken (what is still to air, and the last day for catch-up titles): its cost follows the guide ahead, not the
 * channel's whole history, and a rollback restores that part (programmes older than that stay as they are).
 */
import type { AppContext } from '../../kernel/context';
import { emitEvent } from '../../kernel/events/outbox';
import type { Principal } from '../../kernel/http/auth';
import type { ChannelRow } from '../channels/store';
import type { GuideOp } from './ops';
import type { GuideStore, ProgrammeFields, ProgrammeRow, VersionRow } from './store';
import { queueDeliveries } from './deliveries';

/** The guide fields of a stored programme (what snapshots carry). */
export const fieldsOf = (p: ProgrammeRow): ProgrammeFields => ({ id: p.id, title: p.title, description: p.description, series: p.series, episode: p.episode, images: p.images, start_ms: p.start_ms, end_ms: p.end_ms, source: p.source });

/** Who a version is recorded as: the signed-in person's name (or e-mail), else the API key. */
export const authorOf = (p: Principal): string => (p.session ? p.session.user.name || p.session.user.email : `API key ${p.keyId}`);

/** The version kind of a change applied directly (review mode off): `edit` for one programme, else the bulk kind. */
export const directKind = (op: GuideOp): string => (op.op === 'replace' ? op.kind : 'edit');

/** How far back from its recording a version's snapshot reaches. */
export const SNAPSHOT_PAST_MS = 86_400_000;
/** Versions of a channel whose snapshot is kept (the versions list shows as many): storage stays bounded per channel. */
export const KEPT_SNAPSHOTS = 100;

/** Records the channel's guide as it is now as the next version (inside the caller's transaction); returns its number. */
export function recordVersion(ctx: AppContext, store: GuideStore, ch: ChannelRow, kind: string, changes: number, now: number, author: string | null): number {
  const version = store.lastVersion(ch.id) + 1;
  const snapshot = Bun.gzipSync(JSON.stringify(store.fieldsEndingAfter(ch.id, now - SNAPSHOT_PAST_MS)), { level: 1 });
  store.addVersion({ tenant_id: ch.tenant_id, channel_id: ch.id, version, kind, changes, snapshot, created_at: now, author });
  if (version > KEPT_SNAPSHOTS) store.dropSnapshots(ch.id, version - KEPT_SNAPSHOTS);
  emitEvent(ctx.db, ch.tenant_id, 'epg.published', { channel_id: ch.id, channel: ch.slug, version, kind, changes }, now);
  queueDeliveries(ctx, ch, version, now); // pushed to the channel's publishing destinations (deliveries.ts)
  return version;
}

/**
 * What a version holds: its programmes and the instant they reach back to (`since`: programmes ending after it) — gzipped
 * JSON; the plain JSON text versions were first written as held the whole guide (`since` -Infinity). Null once dropped.
 */
export function snapshotOf(v: Pick<VersionRow, 'snapshot' | 'created_at'>): { since: number; items: ProgrammeFields[] } | null {
  if (!v.snapshot.length) return null;
  if (typeof v.snapshot === 'string') return { since: -Infinity, items: JSON.parse(v.snapshot) as ProgrammeFields[] };
  return { since: v.created_at - SNAPSHOT_PAST_MS, items: JSON.parse(new TextDecoder().decode(Bun.gunzipSync(v.snapshot as Uint8Array<ArrayBuffer>))) as ProgrammeFields[] };
}
