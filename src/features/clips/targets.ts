import type { AppContext } from '../../kernel/context';
import { deliveryPath } from '../playback/delivery-table';
import { channelById } from '../channels/service';
import { registerPlaybackTarget, type ResolvedTarget, type TargetSpec } from '../playback/targets';
import { ClipService } from './service';

/** Resolves a `clip` playback-token target inside the tenant (unknown clips answer 404 through the service). */
export function clipPlaybackTarget(c: AppContext, tenant: { id: string; slug: string }, spec: TargetSpec): ResolvedTarget {
  const clip = new ClipService(c).get(tenant.id, String(spec.clip));
  const ch = channelById(c, tenant.id, clip.channel_id);
  return { kind: 'clip', id: clip.id, policy: { kind: 'clip', ref: clip.id, channel: ch?.slug ?? null }, path: deliveryPath('clipMaster', { id: clip.id }, tenant.slug), thumbs: null };
}

/** Registers the clips feature's playback target (called once by app.ts while it builds the app, not by a route). */
export function registerClipTargets(ctx: AppContext): void {
  registerPlaybackTarget(ctx, 'clip', clipPlaybackTarget);
}
