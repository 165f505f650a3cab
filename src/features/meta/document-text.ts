/** English prose of the management API document: the introduction, tag descriptions and the delivery URL shapes. */

/** The introduction (`info.description`) before the delivery section. */
export function intro(): string {
  return [
    'The ViewStream management API. Every request carries `Authorization: Bearer <API_KEY>` unless the operation says it is public; errors are RFC 9457 problem details (`application/problem+json`) with a stable `type` code and `request_id`.',
    '',
    '- Lists use opaque cursors: `{items, next_cursor}`, newest first; pass `next_cursor` back unchanged as `cursor` (`null` means the end).',
    '- Requests are strict: an unknown body field answers 400; invalid values answer 422 with `errors[]` (`{field, detail}`).',
    '- 20 requests per second per key, burst 100; over it 429 with `Retry-After`.',
    '- Timestamps are RFC 3339 in UTC; ids are UUIDs.',
  ].join('\n');
}

/** The "Delivery URLs" section: every playback address shape the origin serves, with examples. */
/** Example delivery URLs (one per target kind), shared by the English and Hebrew documents. */
export const DELIVERY_EXAMPLES = `\`\`\`
https://{cdn_hostname}/live/default/news/master.m3u8
https://{cdn_hostname}/live/default/news/720p/index.m3u8
https://{cdn_hostname}/live/default/news/archive-1767261600-3600.m3u8
https://{cdn_hostname}/m/catchup/news/1767261600000/1767265200000/master.m3u8?c=default
https://{cdn_hostname}/m/catchup/news/1767261600000/live/master.m3u8?c=default
https://{cdn_hostname}/m/startover/news/6f1c2d3e-0000-4000-8000-000000000001/master.m3u8?c=default
https://{cdn_hostname}/m/clips/0b7c2e11-0000-4000-8000-000000000002/master.m3u8?c=default
https://{cdn_hostname}/m/9a1d0c4e-0000-4000-8000-000000000003/assets/5e2f8b70-0000-4000-8000-000000000004/v1/master.m3u8
https://{cdn_hostname}/m/9a1d0c4e-0000-4000-8000-000000000003/assets/5e2f8b70-0000-4000-8000-000000000004/v1/aes/master.m3u8
https://{cdn_hostname}/t/v1.eyJ2IjoxLCJr....Q2hS/live/default/news/master.m3u8
\`\`\`
`;

/** The delivery URL section of the API document (English). */
export const DELIVERY_URLS_EN = `## Delivery URLs

Playback addresses live on the tenant delivery host \`{cdn_hostname}\` (GET /v1/me, \`current_tenant.cdn_hostname\`). They need no API key. Players follow the relative URIs inside the playlists, so one address is all a player needs. \`<tenant>\` is the tenant slug unless a line says otherwise; \`<rendition>\` is \`src\` (passthrough) or \`<height>p\` (encoded ladders).

| What | Address |
|---|---|
| Live master playlist | \`/live/<tenant>/<channel_slug>/master.m3u8\` |
| Live variant playlist | \`/live/<tenant>/<channel_slug>/<rendition>/index.m3u8\` |
| Live init segment | \`/live/<tenant>/<channel_slug>/<rendition>/init/<init_ms>.mp4\` |
| Live media segment (CMAF) | \`/live/<tenant>/<channel_slug>/<rendition>/seg/<start_ms>.m4s\` |
| VOD, clear HLS | \`/m/<tenant_id>/assets/<asset_id>/v<version>/master.m3u8\` (\`<tenant_id>\` is the tenant id) |
| VOD, DASH, poster, sprite, thumbnails, download | the same folder: \`manifest.mpd\`, \`poster.jpg\`, \`poster.webp\`, \`sprite.jpg\`, \`thumbs.vtt\`, \`download.mp4\` |
| VOD, AES-128 HLS | \`/m/<tenant_id>/assets/<asset_id>/v<version>/aes/master.m3u8\` (key at \`aes/key.bin\`, relative) |
| VOD preview while encoding | \`/m/<tenant_id>/assets/<asset_id>/preview/master.m3u8\` (from about a second after the upload: a browser-ready H.264/AAC source remuxed as it is, else the ladder's growing EVENT playlist; once ready the same URL answers the ladder's master) |
| Clip | \`/m/clips/<clip_id>/master.m3u8?c=<tenant>\` |
| Catch-up range | \`/m/catchup/<channel_slug>/<start_ms>/<end_ms>/master.m3u8?c=<tenant>\`; \`live\` instead of \`<end_ms>\` grows to the live edge |
| Start-over of the programme on air | \`/m/startover/<channel_slug>/<programme_id>/master.m3u8?c=<tenant>\` |
| Archive (Flussonic style) | \`/live/<tenant>/<channel_slug>/archive-<from_s>-<duration_s>.m3u8\` (Unix seconds, duration in seconds) |
| Signed (token) form of any of these | \`/t/<token>/\` followed by the path above, e.g. \`/t/<token>/live/<tenant>/<channel_slug>/master.m3u8\` |

Catch-up, start-over and clip variants follow the same pattern as live under their own folder: \`<rendition>/index.m3u8\`, \`<rendition>/init/<ms>.mp4\`, \`<rendition>/seg/<ms>.m4s\` (each with \`?c=<tenant>\`). Times \`<start_ms>\`/\`<end_ms>\` are epoch milliseconds (\`play_start\`/\`play_end\` of a catch-up item). Published subtitle tracks are HLS subtitle renditions of the master (\`SUBTITLES="subs"\`): on VOD \`subs_<track>.m3u8\`, \`subs_<track>_<n>.vtt\` and the whole \`subs_<track>.vtt\` beside \`master.m3u8\` (and text adaptation sets of the MPD); on catch-up and start-over \`subs-<language>-<first_ms>/index.m3u8\` with \`vtt/<start_ms>-<duration_ms>.vtt\` segments.

Examples (tenant \`default\`, channel \`news\`):

${DELIVERY_EXAMPLES}
A target with a policy that requires tokens answers 403 on the unsigned forms; sign one with POST /v1/playback/tokens (its \`src\` is the \`/t/<token>/...\` address). A token opens only its own target (a catch-up token only sub-ranges of its window) until it expires or its session is revoked.`;

/** Tag descriptions (English). */
export const TAGS_EN: Record<string, string> = {
  Meta: 'Liveness and the documents themselves.',
  Sites: 'Public websites: sites, domains, theme, pages with versions and scheduling, shows, people, menus, routes and preview tokens.',
  'Sites Delivery': 'The public, read-only API a website front end reads (no key), cacheable by a CDN.',
  Identity: 'The calling key and API key management.',
  Assets: 'Video-on-demand assets: register, list and search, edit, publish, trash and re-encode.',
  Uploads: 'Multipart uploads of asset sources (API key or browser token).',
  Jobs: 'Background work (probe, encode, fetch): progress, history, retry and cancel.',
  Playback: 'Signed playback URLs, player sessions, revocations, signing keys and playback policies. See "Delivery URLs" in the introduction for the address shapes.',
  Webhooks: 'Outbound webhooks (signed deliveries with retries) and inbound hooks from content systems.',
  Events: 'The server-sent event stream.',
  'Live channels': 'Live channels fed over SRT or RTMP, with continuous recording.',
  Guide: 'The programme guide: programmes, review and publishing, XMLTV import, catch-up exclusions.',
  'Catch-up': 'Recorded programmes (catch-up), search and publishing programmes to the library.',
  Clips: 'Clips cut from a channel recording.',
  'AI articles': 'Article drafts of programmes written from their subtitles (built-in extractive engine or a chat model), reviewed, corrected and approved by editors; approval emits `artifact.published` with JSON-LD. Guide: docs/articles.md.',
  Players: 'Player configurations (skin, theme, controls, ads, beacons, embedding) and where each applies.',
  Library: 'Library sections that group assets.',
  Team: 'The people of the tenant: members, roles and invitations.',
  Assistant: 'The assistant endpoint (Model Context Protocol) for AI assistants with a scoped API key.',
  Support: 'Support requests to the operators of the appliance: open (at most 10 new per tenant per hour), reply, close.',
  Monitors: 'Monitors and alerts: checks on live channels, recording, disk and audience quality; alert destinations (e-mail, Telegram); alert history; service status. Guide: docs/monitors.md.',
  'Event export': 'Destinations that receive platform and statistics events as vs.event.v1 lines (S3, Kafka, HTTPS, GA4), with their delivery log, dead letters and replays. Guide: docs/event-export.md.',
  'Library imports': 'Imports from a website: a video sitemap, sitemap index or media RSS feed read into items for review (new, or skipped when already in the library), selected and started into URL assets. Guide: docs/imports.md.',
  'Storage keys': 'S3-style access keys for the tenant ingest area: standard S3 clients put source files under ingest/<prefix>/in/ at /s3/<tenant slug>/... Guide: docs/storage-keys.md.',
  Billing: 'Monthly usage figures (minutes stored, encoded and delivered, bytes delivered, live and recorded hours) by resolution tier, as JSON or CSV. Formulas: docs/billing.md.',
  CDN: 'The edge cache of the delivery front: purge cached objects by URL, prefix, asset, clip or tag, and pre-warm an asset, clip, channel or URLs so viewers get cache hits. Guide: docs/edge.md.',
  Statistics: 'Audience and origin statistics from DuckDB (viewer sessions from the player beacon, the origin request log), realtime numbers and exports. Formulas: docs/metrics.md.',
};
