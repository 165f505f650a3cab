import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { VARIANT_B_DIR } from '../../media/watermark';
import { parseAssetOutput } from '../assets/output';
import { IdentityService } from '../identity/service';
import type { Guarded } from '../playback/gate';
import { playbackState } from '../playback/service';
import { SEGMENT_FILE, tenantMarkKey, variantBit } from './bits';

/** Name of the service secret the tenants' marking keys are derived from. */
export const WATERMARK_SECRET = 'watermark';

/**
 * The delivery side of the A/B watermark: for a VOD file request, the output folder its bytes come from. A video
 * media segment of an output that has variant B (`<dir>/b/`), requested with a token whose session is marked by its
 * asset's policy (`watermark.mode` ab), comes from `b/` when the session's bit for that segment number is 1; anything
 * else (playlists, init segments, audio, images, a request without a token, a policy turned off, an output encoded
 * before marking was on) from the output itself. The answer names the chosen file, so the front's cache keeps one
 * copy per variant, never per session.
 */
export function watermarkChooser(ctx: AppContext) {
  const state = playbackState(ctx);
  const keys = new Map<string, Buffer>();
  // Per output directory (a ready version never changes): how many video renditions it has and whether B is there.
  const outputs = new Map<string, { videoReps: number; marked: boolean }>();
  let secret: string | null = null;
  const keyOf = (tenantId: string) => {
    let k = keys.get(tenantId);
    if (!k) {
      secret ??= new IdentityService(ctx.db, null).secret(WATERMARK_SECRET);
      if (keys.size > 10_000) keys.clear();
      keys.set(tenantId, (k = tenantMarkKey(secret, tenantId)));
    }
    return k;
  };
  const outputOf = (rel: string, output: string | null) => {
    let o = outputs.get(rel);
    if (!o) {
      o = { videoReps: parseAssetOutput(output)?.renditions.length ?? 0, marked: existsSync(join(ctx.config.dataDir, rel, VARIANT_B_DIR)) };
      if (outputs.size > 10_000) outputs.clear();
      outputs.set(rel, o);
    }
    return o;
  };
  return {
    /** The output-relative folder a request's file is served from: `rel` or `rel/b`. */
    dirFor(g: Guarded, rel: string, output: string | null): string {
      if (!g.sid) return rel;
      const m = SEGMENT_FILE.exec(g.params.file);
      if (!m) return rel;
      if (state.rulesFor(g.tenant.id, { kind: 'asset', ref: g.params.asset, channel: null }).rules.watermark.mode === 'off') return rel;
      const o = outputOf(rel, output);
      if (!o.marked || Number(m[1]) >= o.videoReps) return rel;
      return variantBit(keyOf(g.tenant.id), g.params.asset, g.sid, Number(m[2])) ? `${rel}/${VARIANT_B_DIR}` : rel;
    },
  };
}
