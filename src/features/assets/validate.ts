import { invalid } from '../../kernel/errors';

const EXTERNAL_ID = /^[\p{L}\p{N}._:\/-]{1,200}$/u;
const LADDER = /^[A-Za-z0-9_.-]{1,64}$/;

/** Checks `external_id`: 1-200 characters of letters, digits and `. _ : / -`. */
export function checkExternalId(v: string | null | undefined): string | null {
  if (v === undefined || v === null) return null;
  if (!EXTERNAL_ID.test(v) || [...v].length > 200) throw invalid('external_id', '1-200 characters from letters, digits and . _ : / -');
  return v;
}

/** Checks `title` (at most 500 characters). */
export function checkTitle(v: string | undefined): string | undefined {
  if (v !== undefined && [...v].length > 500) throw invalid('title', 'at most 500 characters');
  return v;
}

/** Checks a ladder name (the media engine resolves it; unknown names fall back to the tenant default there). */
export function checkLadder(v: string | undefined): string | undefined {
  if (v !== undefined && !LADDER.test(v)) throw invalid('ladder', '1-64 characters of letters, digits, . _ -');
  return v;
}

/** Checks `metadata`: a JSON object of at most 16 KB; `ads` = {disabled?: boolean, cues?: [seconds] up to 50}. */
export function checkMetadata(m: Record<string, unknown> | undefined): string | undefined {
  if (m === undefined) return undefined;
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw invalid('metadata', 'must be a JSON object');
  const text = JSON.stringify(m);
  if (Buffer.byteLength(text) > 16 * 1024) throw invalid('metadata', 'at most 16 KB of JSON');
  const ads = (m as { ads?: unknown }).ads;
  if (ads !== undefined) {
    if (!ads || typeof ads !== 'object' || Array.isArray(ads)) throw invalid('metadata.ads', 'must be an object {disabled?, cues?}');
    const { disabled, cues, ...rest } = ads as Record<string, unknown>;
    if (Object.keys(rest).length) throw invalid('metadata.ads', `unknown field: ${Object.keys(rest).join(', ')}`);
    if (disabled !== undefined && typeof disabled !== 'boolean') throw invalid('metadata.ads.disabled', 'must be a boolean');
    if (cues !== undefined) {
      if (!Array.isArray(cues)) throw invalid('metadata.ads.cues', 'must be an array of seconds');
      if (cues.length > 50) throw invalid('metadata.ads.cues', 'at most 50 cues');
      if (cues.some((c) => typeof c !== 'number' || !Number.isFinite(c) || c < 0)) throw invalid('metadata.ads.cues', 'each cue is a number of seconds >= 0');
    }
  }
  return text;
}

/**
 * Normalises `publish` on create/complete to the stored mode: `true` is `on_ready` (published as soon as it is ready),
 * `false` and `manual` stay a draft, `auto` (the default) leaves it to the tenant.
 */
export function publishMode(v: 'auto' | 'manual' | boolean | undefined): 'auto' | 'manual' | 'on_ready' {
  return v === 'manual' || v === false ? 'manual' : v === true ? 'on_ready' : 'auto';
}
