import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import { deliveryPath } from './delivery-table';
import { AppError, notFound } from '../../kernel/errors';
import { AssetService } from '../assets/service';
import { playbackFor } from '../assets/lifecycle';
import { channelBySlug } from '../channels/service';
import type { TargetKind } from './token';

/** A token request's target as given in the body. */
export interface TargetSpec {
  channel?: string;
  asset?: string;
  clip?: string;
  catchup?: { channel: string; start: number; end: number | 'live' };
  startover?: { channel: string; programme: string };
}

/** A resolved target: what the token binds to and the unprotected path it plays. */
export interface ResolvedTarget {
  kind: TargetKind;
  /** Bound id: asset id, channel slug, clip id; catch-up/start-over: channel slug. */
  id: string;
  from?: number;
  to?: number | null;
  programme?: string;
  /** Policy lookup: attach-point kind and ref, and the channel slug for channel-level policies. */
  policy: { kind: string; ref: string; channel: string | null };
  /** Unprotected playback path (with query), relative to the delivery base. */
  path: string;
  /** Thumbnail track path, when the target has one. */
  thumbs: string | null;
}

/** Resolves the target of another kind (registered by the feature that owns it, e.g. clips). */
export type TargetResolver = (ctx: AppContext, tenant: { id: string; slug: string }, spec: TargetSpec) => ResolvedTarget;
const EXTRA = slotKey<Map<TargetKind, TargetResolver>>('playback.targets');

/** The app's registered target resolvers (per application context). */
function extraOf(ctx: Pick<AppContext, 'slots'>): Map<TargetKind, TargetResolver> {
  return ctx.slots.get(EXTRA, () => new Map());
}

/** Lets a feature (clips, start-over) resolve its own targets for tokens and sessions. */
export function registerPlaybackTarget(ctx: Pick<AppContext, 'slots'>, kind: TargetKind, fn: TargetResolver): void {
  extraOf(ctx).set(kind, fn);
}

/** The one target named in a body; none or several answer 422. */
export function targetKindOf(spec: TargetSpec): TargetKind {
  const kinds = (['channel', 'asset', 'clip', 'catchup', 'startover'] as const).filter((k) => spec[k] !== undefined);
  if (kinds.length !== 1) {
    throw new AppError('validation_error', 'name exactly one target: channel, asset, clip, catchup or startover', { errors: [{ field: kinds.length ? kinds.join(',') : 'target', detail: 'exactly one target is required' }] });
  }
  return kinds[0];
}

function channelOf(ctx: AppContext, tenantId: string, slug: string) {
  const ch = channelBySlug(ctx, tenantId, slug);
  if (!ch) throw notFound('channel');
  return ch;
}

/** Resolves the body's target inside the tenant (other tenants' objects answer 404). */
export function resolveTarget(ctx: AppContext, tenant: { id: string; slug: string }, spec: TargetSpec): ResolvedTarget {
  const kind = targetKindOf(spec);
  switch (kind) {
    case 'asset': {
      const a = new AssetService(ctx).get(tenant.id, spec.asset!);
      const pb = playbackFor(ctx, a);
      if (!pb) throw new AppError('conflict', `asset is ${a.status}, not ready for playback`);
      const rel = (u: string) => u.slice(ctx.config.cdnBaseUrl.length);
      return { kind, id: a.id, policy: { kind: 'asset', ref: a.id, channel: null }, path: rel(pb.hls), thumbs: pb.thumbs_vtt ? rel(pb.thumbs_vtt) : null };
    }
    case 'channel': {
      const ch = channelOf(ctx, tenant.id, spec.channel!);
      return { kind, id: ch.slug, policy: { kind: 'channel', ref: ch.slug, channel: ch.slug }, path: deliveryPath('liveMaster', { tenant: tenant.slug, channel: ch.slug }), thumbs: null };
    }
    case 'catchup': {
      const cu = spec.catchup!;
      const ch = channelOf(ctx, tenant.id, cu.channel);
      const end = cu.end === 'live' ? null : cu.end;
      if (end !== null && end <= cu.start) throw new AppError('validation_error', 'catchup.end must be after catchup.start', { errors: [{ field: 'catchup.end', detail: 'must be after start' }] });
      return { kind, id: ch.slug, from: cu.start, to: end, policy: { kind: 'channel', ref: ch.slug, channel: ch.slug }, path: deliveryPath('catchupMaster', { slug: ch.slug, s: cu.start, e: end ?? 'live' }, tenant.slug), thumbs: null };
    }
    default: {
      const fn = extraOf(ctx).get(kind);
      if (fn) return fn(ctx, tenant, spec);
      if (kind === 'startover') {
        const so = spec.startover!;
        const ch = channelOf(ctx, tenant.id, so.channel);
        return { kind, id: ch.slug, programme: so.programme, policy: { kind: 'channel', ref: ch.slug, channel: ch.slug }, path: deliveryPath('startoverMaster', { slug: ch.slug, pid: so.programme }, tenant.slug), thumbs: null };
      }
      throw notFound(kind);
    }
  }
}
