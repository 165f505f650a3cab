/**
 * What a policy's `watermark` mode marks, as the policy answer states it (issue 46). Only VOD assets encoded by this
 * machine's ladder job can have variant B, live-to-VOD assets included (they go through the same encode). Live
 * channels, catch-up and clips of recordings are served from the channel's one recording, so no per-session variant
 * exists for them; clips of library assets are refused altogether (POST /v1/clips `asset_id`: 422).
 */

/** What `watermark.mode` covers: `assets` under ab, nothing when off. */
export type WatermarkTarget = 'assets';

/** Pure: the `applies_to` list of a policy's watermark rule. */
export function watermarkAppliesTo(mode: 'off' | 'ab'): WatermarkTarget[] {
  return mode === 'ab' ? ['assets'] : [];
}

/** The field's description (OpenAPI): what is marked, and what never is. */
export const APPLIES_TO_DOC = 'Read-only: what the mode marks. `assets` (mode ab): VOD assets encoded on this machine after the policy applied to them, live-to-VOD assets included (their recording is encoded like an upload). Never marked, whatever the mode: live channels and catch-up (served from the one recording every viewer shares), clips of recordings (cut from it), assets encoded on cluster workers or kept in a bucket media store (served as A only); clips of library assets are refused (422). Empty when off.';
