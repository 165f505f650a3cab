/** English documentation served as `viewstream://docs/en/{topic}` (short, task-oriented Markdown). */
export const DOCS_EN: Readonly<Record<string, { title: string; text: string }>> = Object.freeze({
  'getting-started': {
    title: 'Getting started',
    text: `# Getting started

ViewStream is a self-hosted video platform: a management API under \`/v1\`, live ingest over SRT and RTMP with continuous recording, a transcode queue, playback delivery and statistics.

1. Create an API key in the studio (Settings → API keys) or with \`POST /v1/api-keys\` (scope \`keys:manage\`). The full key is shown once; only its hash is stored.
2. Send it on every request: \`Authorization: Bearer vs_...\`. A missing, unknown or revoked key answers 401; a key without the needed scope answers 403 \`insufficient_scope\` with the scope in \`detail\`.
3. Register a video: \`POST /v1/assets\` with \`{"source": {"kind": "url", "url": "https://..."}, "title": "..."}\`, then poll \`GET /v1/assets/{id}\` until \`status\` is \`ready\`; the answer then carries \`playback.hls\`.
4. Lists are newest first and paged with \`limit\` and \`next_cursor\` (pass it back as \`cursor\`).

The full reference is \`/openapi.json\` (Hebrew: \`/openapi.he.json\`) and the interactive page \`/docs/\`. Assistants read the same catalogue as \`viewstream://openapi\`.`,
  },
  uploads: {
    title: 'Uploads',
    text: `# Uploads

Two ways to bring a file in:

- **From a URL**: \`POST /v1/assets\` with \`source.kind: url\` (scope \`assets:write\`). The server fetches the file itself; private and internal addresses are refused. A duplicate \`external_id\` answers 409, so a retry is safe.
- **Multipart upload** for files on your machine (scope \`assets:write\` or \`uploads\`):
  1. \`POST /v1/uploads\` with \`{filename, size_bytes, content_type}\` → \`upload_id\`, \`key\`, \`part_size\` (64 MiB) and the part list.
  2. \`PUT /v1/uploads/{upload_id}/parts/{n}?key=<key>\` with the raw bytes of each part (exactly \`Content-Length\` bytes, at most \`part_size\`; URL-encode \`upload_id\` and \`key\`). Each answer is \`{part_number, etag}\`. Parts may go in parallel; a failed part answers 409 and is sent again.
  3. \`POST /v1/uploads/{upload_id}/complete\` with \`{key, parts: [{part_number, etag}], title?, external_id?, metadata?}\` → 201 with the asset (\`status: probing\`).

A file may be up to 200 GB and the upload must complete within one hour. Processing then runs as jobs (\`GET /v1/jobs?subject=<asset id>\`); the webhook \`asset.ready\` or \`asset.failed\` tells you the outcome.`,
  },
  'live-ingest': {
    title: 'Live ingest',
    text: `# Live ingest

1. Create a channel: \`POST /v1/channels\` with \`{name}\` (scope \`channels:write\`). It gets two SRT listener ports (primary and backup), an SRT passphrase and two RTMP stream keys.
2. Read the ingest addresses with \`GET /v1/channels/{id}/ingest\` (scope \`channels:operate\`; these are secrets).
3. Start it: \`POST /v1/channels/{id}/start\`. The channel is \`waiting\` until a feed arrives, then \`live\`.
4. Point the encoder at the primary address (SRT caller to the listener port with the passphrase, or RTMP with the stream key); a backup encoder on the backup address takes over when the primary stops.

\`GET /v1/channels\` shows \`status\` (stopped, waiting, live, failed), the feed in use, recording state, and the input bitrate, resolution, codecs and warnings. Everything received is recorded: catch-up (\`GET /v1/channels/{id}/catchup\`) and clips (\`POST /v1/clips\`) play from the recording within its retention. Live playback: \`playback.hls\` of the channel.`,
  },
  'playback-tokens': {
    title: 'Playback tokens',
    text: `# Playback tokens

Addresses in \`playback\` play unprotected unless a playback policy requires tokens. Then issue one per viewer with \`POST /v1/playback/tokens\` (scope \`playback:sign\`). The body names exactly one target: \`channel: <slug>\`, \`asset: <id>\`, \`clip: <id>\`, \`catchup: {channel, start, end}\` (epoch ms; \`end\` may be \`live\`) or \`startover: {channel, programme}\`. Options: \`ttl_s\` (0-604800; 0 = policy default), \`viewer_ip\`, \`viewer_asn\`, \`viewer_id\`.

The answer is \`{src, url, token, sid, expires_at, protected, thumbs}\`. The token sits in the URL path (\`/t/<token>/...\`) so relative segment addresses inherit it. \`sid\` identifies the playback session; \`POST /v1/security/revocations\` (scope \`security:manage\`) revokes it. An owner can download the signing key and sign tokens in their own backend.`,
  },
  webhooks: {
    title: 'Webhooks',
    text: `# Webhooks

Register an endpoint with \`POST /v1/webhooks\` (scope \`webhooks:manage\`) and choose event types (\`asset.ready\`, \`asset.failed\`, \`clip.ready\`, \`channel.feed_changed\`, ...; the list is \`event_types\` of \`GET /v1/webhooks\`).

Each delivery is a POST with the envelope \`{id, type, at, customer_id, data}\` and the headers \`X-VS-Event\`, \`X-VS-Delivery\` (stable across retries), \`X-VS-Timestamp\` (Unix seconds) and \`X-VS-Signature: sha256=<hex>\`: HMAC-SHA256 with the endpoint secret over the timestamp, a dot and the raw body. Verify it over the raw body before parsing, compare in constant time, and reject timestamps more than 300 s away.

Answer any 2xx within 10 s; redirects are not followed. Failed deliveries are retried after 10 s, 1 min, 5 min, 30 min, 2 h and 12 h; after the 7th failure the delivery is \`dead\`. Deliveries can arrive out of order: order by \`at\` and de-duplicate by \`X-VS-Delivery\`.`,
  },
  errors: {
    title: 'Errors',
    text: `# Errors

Errors are RFC 9457 problem details (\`application/problem+json\`): \`{type, title, status, detail, request_id}\`; validation failures add \`errors: [{field, detail}]\`. Quote \`request_id\` (also the \`X-Request-Id\` header) when asking for help.

| code | status | meaning |
|---|---|---|
| invalid_credentials | 401 | missing, malformed, unknown or revoked key |
| insufficient_scope | 403 | the key lacks the scope named in \`detail\` |
| forbidden | 403 | not allowed for this tenant or object |
| feature_disabled | 403/503 | not available here (CDN-only tenant, analytics off) |
| not_found | 404 | no such object in the tenant |
| conflict | 409 | duplicate \`external_id\`, not-ready asset, closed request |
| validation_error | 422 | invalid body or query; see \`errors[]\` |
| rate_limited | 429 | wait \`Retry-After\` seconds |
| internal_error | 500 | server fault |
| not_ready | 503 | a dependency is unavailable; retry with backoff |

A key may make 20 requests per second (bursts up to 100). Back off exponentially on 429 and 503. Through the assistant endpoint a failed tool answers \`isError: true\` with the same problem detail.`,
  },
});
