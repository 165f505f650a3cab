/** OpenAPI prose of the FAST schedule operations (English; the Hebrew lives in meta/he/operations-fast.ts). */
export const FAST_DOC = {
  put: `Creates or replaces the channel's FAST schedule: a playlist of ready library assets of the tenant (\`items\`, each
aired \`loops\` times, the whole list looped for ever from the moment it is saved), optional \`dayparts\` (time-of-day
blocks in the channel's time zone with their own playlists, not overlapping) and ad \`breaks\` at each asset's
\`metadata.ads.cues\` (at the first segment boundary at or after the cue: the slate asset for \`duration_s\`, default its
own length; without a slate only SCTE-35 markers are placed, for \`duration_s\`, default 30). While a schedule is
enabled, a started channel airs it instead of its ingest: the assets' CMAF segments are stitched into the live
playlists by wall clock without re-encoding (EXT-X-DISCONTINUITY at joins, EXT-X-DATERANGE with SCTE35-OUT/IN at
breaks), recorded like any feed, so start-over, catch-up, clips and statistics work unchanged, and the guide is generated
\`guide_hours\` ahead (source \`fast\`). The channel's renditions are those of the first item's asset; an asset whose
renditions differ, or that has no audio, is conformed once (a re-encode job); the others are only remuxed (stream
copy). Unknown or other tenants' assets answer 404; a malformed id, an asset not ready or overlapping dayparts 422.
201 when the channel had no schedule. docs/fast-channels.md.`,
  get: 'The schedule with each item\'s title, duration, ad cues and preparation (`pending`, `ready`, `failed`; `copy` or `conform`), the channel renditions, and `status` (`preparing`, `ready`, `failed`).',
  delete: 'Removes the schedule; a started channel goes back to its ingest inputs. The generated guide entries stay.',
  preview: 'What the schedule airs from `from` (default now) for `hours` (default 6, at most 48): each airing of an asset and each break with its wall-clock span and daypart, in order, at most 2,000 entries (`truncated` beyond). 409 while nothing is prepared yet.',
} as const;
