/** Feed health: what the ingest ffmpeg says of the feed's video, and whether browsers can play it unchanged. */

/** The feed's first video stream as ffmpeg describes it. */
export interface VideoStream { codec: string; profile: string | null; pixFmt: string | null; width: number | null; height: number | null }

/** A reason the feed will not play everywhere, shown as `input.warnings` and sent with `channel.feed_changed`. */
export interface FeedWarning { code: 'video_codec_unplayable' | 'video_profile_unplayable'; detail: string }

/** H.264 profiles every browser's decoder takes (ffmpeg's names). */
const PLAYABLE_PROFILES = new Set(['Baseline', 'Constrained Baseline', 'Main', 'High', 'Progressive High', 'Constrained High']);
/** Pixel formats browsers decode from H.264: 8-bit 4:2:0 (full-range JPEG variant included). */
const PLAYABLE_PIXFMTS = new Set(['yuv420p', 'yuvj420p']);

/** Removes parenthesised groups (one nesting level deep) from an ffmpeg stream description. */
const stripParens = (s: string) => s.replace(/\([^()]*(\([^()]*\)[^()]*)*\)/g, '');

/**
 * Pure: parses an ffmpeg input stream line, e.g.
 * `Stream #0:0[0x100]: Video: h264 (High 4:4:4 Predictive) ([27][0][0][0] / 0x001B), yuv444p(tv, progressive), 320x240 ...`.
 * Null for any other line.
 */
export function parseVideoStream(line: string): VideoStream | null {
  const at = /Stream #\d+:\d+.*?: Video: /.exec(line);
  if (!at) return null;
  const rest = line.slice(at.index + at[0].length);
  const head = /^(\w+)(?: \(([^()]*)\))?/.exec(rest);
  if (!head) return null;
  const profile = head[2] && !/ \/ 0x[0-9a-f]+$/i.test(head[2]) ? head[2] : null; // a codec tag (`avc1 / 0x31637661`) is not a profile
  const parts = stripParens(rest).split(',').map((x) => x.trim());
  const pix = parts[1] && /^[a-z0-9_]+$/.test(parts[1]) && !/^\d/.test(parts[1]) ? parts[1] : null;
  const size = /(?:^|[\s,])(\d{2,5})x(\d{2,5})(?:[\s,]|$)/.exec(parts.slice(1).join(', '));
  return { codec: head[1], profile, pixFmt: pix, width: size ? Number(size[1]) : null, height: size ? Number(size[2]) : null };
}

/**
 * Pure: the warnings for a feed's video. A ladder channel transcodes to 8-bit 4:2:0 H.264 High (no warning);
 * passthrough copies the video unchanged, so a codec, profile or pixel format browsers cannot decode is reported.
 */
export function feedWarnings(v: VideoStream | null, passthrough: boolean): FeedWarning[] {
  if (!v || !passthrough) return [];
  const fix = 'passthrough copies it unchanged; give the channel a ladder (`abr` or rungs) to transcode it, or set the encoder to 8-bit 4:2:0 H.264 (Baseline, Main or High)';
  if (v.codec !== 'h264') return [{ code: 'video_codec_unplayable', detail: `${v.codec} video plays in few browsers: ${fix}` }];
  const badProfile = v.profile !== null && !PLAYABLE_PROFILES.has(v.profile);
  const badPix = v.pixFmt !== null && !PLAYABLE_PIXFMTS.has(v.pixFmt);
  if (!badProfile && !badPix) return [];
  const what = [v.profile && `H.264 ${v.profile}`, v.pixFmt].filter(Boolean).join(', ');
  return [{ code: 'video_profile_unplayable', detail: `${what} plays in no browser (they decode 8-bit 4:2:0 H.264 only): ${fix}` }];
}
