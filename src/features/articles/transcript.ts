/**
 * The one adapter between articles and subtitles: a programme's transcript as numbered cues with times from its
 * playback start (`play_start`). Where the cues come from, in order:
 *  1. a ready channel-recording track of the programme's channel (issue 43, read through the subtitles service): the track
 *     made for this programme first, else the one covering most of it; cues overlapping the programme, re-timed;
 *  2. a ready track of the programme's library asset (published to the library with publish-vod), whose times
 *     already start at the programme's playback start.
 * The source is recorded with the artifact (`source.kind` channel_track | asset_track, `source.id` the track), so
 * the review page and the quote checks read the same cues again.
 */
import type { AppContext } from '../../kernel/context';
import type { ArticleCue } from '../../engines/article/types';
import type { ProgrammeRow } from '../guide/store';
import { channelCuesIn, channelTracksIn, SubtitleService } from '../subtitles/service';

/** Where a transcript came from. */
export interface TranscriptSource { kind: 'channel_track' | 'asset_track'; id: string; language: string }
/** A programme's transcript. */
export interface Transcript { source: TranscriptSource; cues: ArticleCue[] }

/** The programme's playback window (epoch ms). */
export function playWindow(p: ProgrammeRow): { from: number; to: number } {
  return { from: p.play_start_ms ?? p.start_ms, to: p.play_end_ms ?? p.end_ms };
}

const number = (cues: { startMs: number; endMs: number; text: string }[]): ArticleCue[] =>
  cues.filter((c) => c.text.trim()).map((c, i) => ({ id: i + 1, startMs: Math.max(0, c.startMs), endMs: Math.max(0, c.endMs), text: c.text }));

function channelTranscript(ctx: AppContext, p: ProgrammeRow, language?: string, trackId?: string): Transcript | null {
  const { from, to } = playWindow(p);
  const tracks = channelTracksIn(ctx, p.tenant_id, p.channel_id, from, to, { language })
    .filter((t) => t.cue_count > 0 && (!trackId || t.id === trackId));
  const cover = (t: { range_start_ms: number; range_end_ms: number }) => Math.min(to, t.range_end_ms) - Math.max(from, t.range_start_ms);
  const best = tracks.sort((a, b) => Number(b.programme_id === p.id) - Number(a.programme_id === p.id) || cover(b) - cover(a) || b.seq - a.seq)[0];
  if (!best) return null;
  const cues = channelCuesIn(ctx, p.tenant_id, p.channel_id, from, to, { language: best.language })
    .filter((c) => c.trackId === best.id)
    .map((c) => ({ startMs: c.startMs - from, endMs: Math.min(c.endMs, to) - from, text: c.text }));
  return cues.length ? { source: { kind: 'channel_track', id: best.id, language: best.language }, cues: number(cues) } : null;
}

function assetTranscript(ctx: AppContext, p: ProgrammeRow, language?: string, trackId?: string): Transcript | null {
  if (!p.vod_asset_id) return null;
  const svc = new SubtitleService(ctx);
  let tracks;
  try { tracks = svc.list(p.tenant_id, p.vod_asset_id); } catch { return null; } // the asset was purged
  const best = tracks.filter((t) => t.status === 'ready' && t.cue_count > 0 && (!language || t.language === language) && (!trackId || t.id === trackId))
    .sort((a, b) => b.published - a.published || b.seq - a.seq)[0];
  if (!best) return null;
  const cues = svc.store.cues(best.id);
  return cues.length ? { source: { kind: 'asset_track', id: best.id, language: best.language }, cues: number(cues) } : null;
}

/** The programme's transcript (optionally in one language), or null when it has no ready subtitle track. */
export function programmeTranscript(ctx: AppContext, p: ProgrammeRow, language?: string): Transcript | null {
  return channelTranscript(ctx, p, language) ?? assetTranscript(ctx, p, language);
}

/** The transcript from a recorded source again (review page, quote checks); null when the track is gone. */
export function transcriptOf(ctx: AppContext, p: ProgrammeRow, source: TranscriptSource): Transcript | null {
  return source.kind === 'channel_track' ? channelTranscript(ctx, p, source.language, source.id) : assetTranscript(ctx, p, source.language, source.id);
}
