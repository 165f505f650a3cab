import type { Migration } from '../migration';

/**
 * Issue 41: expired player-session rows are swept (src/features/playback/session-limits.ts), so their expiry is
 * indexed; inbound hook calls remember the signature that carried them, so a replay of the same signed call under a
 * new X-VS-Delivery is recognised within the timestamp window (src/features/hooks/service.ts).
 */
export const m0113: Migration = {
  version: 113,
  name: 'playback_session_expiry_hook_signatures',
  sql: `
CREATE INDEX playback_sessions_expiry ON playback_sessions(expires_at);
ALTER TABLE inbound_hook_calls ADD COLUMN signature TEXT;
CREATE UNIQUE INDEX inbound_hook_calls_signature ON inbound_hook_calls(hook_id, signature) WHERE signature IS NOT NULL;
`,
};
