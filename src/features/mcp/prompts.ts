import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

const user = (text: string) => ({ messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] });

/** Registers prompts for common tasks (they only shape the request; the tools do the work). */
export function registerPrompts(mcp: McpServer): void {
  mcp.registerPrompt('clip_last_goal', {
    title: 'Clip the last goal',
    description: 'Find the most recent goal (or any moment) on a channel and cut a clip of it.',
    argsSchema: { channel_id: z.string().describe('channel id'), moment: z.string().optional().describe('what to look for (default: goal)'), seconds: z.string().optional().describe('clip length in seconds (default 30)') },
  }, ({ channel_id, moment, seconds }) => user(
    `On channel ${channel_id}, find the last ${moment ?? 'goal'}. Use search_catchup with words such as "${moment ?? 'goal'}" (and the Hebrew "${moment ? moment : 'גול'}"), or list_catchup for the programme on air, to pick the moment. `
    + `Then call create_clip with channel_id ${channel_id}, start_at about ${Math.round(Number(seconds ?? 30) * 0.7)} s before the moment and end_at about ${Math.round(Number(seconds ?? 30) * 0.3)} s after it (RFC 3339). `
    + 'Give me the clip id and its playback.hls address. If nothing is recorded in that range, say so instead of guessing.'),
  );
  mcp.registerPrompt('why_channel_down', {
    title: 'Why is this channel down?',
    description: 'Diagnose a channel that does not play: status, feed, recording, input warnings, recent catch-up coverage.',
    argsSchema: { channel_id: z.string().describe('channel id or slug') },
  }, ({ channel_id }) => user(
    `Channel ${channel_id} seems down. Call list_channels and find it: report status (stopped, waiting, live, failed), whether it is started, which feed is in use (primary, backup, none), recording, and input warnings. `
    + 'Explain in plain words: stopped → someone must start it; waiting → no encoder is pushing (check the encoder and the ingest address); failed → the listeners failed; live with warnings → the feed may not play in browsers. '
    + `Then call list_catchup for the last hours of ${channel_id} to see where coverage dropped. If the cause is unclear, offer to open a support request with open_support_request.`),
  );
  mcp.registerPrompt('asset_not_ready', {
    title: 'Why is this asset not ready?',
    description: 'Explain the processing state of an asset from its jobs.',
    argsSchema: { asset_id: z.string() },
  }, ({ asset_id }) => user(`Call get_asset for ${asset_id} and list_asset_jobs for it. Tell me its status, which job is running or failed, its progress and the error text, and what to do next.`));
  mcp.registerPrompt('weekly_report', {
    title: 'Weekly audience report',
    description: 'Summarise the last 7 days: headline numbers against the week before and the top content.',
    argsSchema: {},
  }, () => user('Call stats_overview for the last 7 days (from = now minus 7 days), stats_top for assets, clips and channels by plays, and stats_timeseries for viewers with interval 1d. Write a short report: the headline changes, the top five items and anything unusual.'));
}
