/**
 * The live subtitle rendition of a channel (issue 43), for the live delivery routes: which languages the live master
 * names (those the tenant turned on, not failed), the rendition's playlist (the video's segments whose audio is
 * recognised) and its WebVTT segments (the channel's published cues of the language in the segment's window, on the
 * channel's media time). See src/live/subtitle-playlist.ts.
 */
import type { Db } from '../../kernel/db/sqlite';
import type { SegmentRow } from '../../live/model';
import { liveSubsPlaylist, liveTimestampMap, mediaTime } from '../../live/subtitle-playlist';
import { serializeWebVtt } from '../../text/webvtt';
import { channelCuesInWindow } from './channel-store';
import { trackName } from './delivery';
import { masterWithSubs } from './hls-subs';
import { LiveSubsStore, type LiveSubsRow } from './live-store';

/** The channel's live subtitle languages that a player is offered (turned on and not failed). */
export function liveSubtitleLanguages(db: Db, tenantId: string, channelId: string): LiveSubsRow[] {
  return new LiveSubsStore(db).forChannel(tenantId, channelId).filter((r) => r.state !== 'failed');
}

/** Pure: the live master with one `subs-<language>/index.m3u8` rendition per live language (unchanged when none). */
export function liveMasterWithSubs(master: string, langs: Pick<LiveSubsRow, 'language' | 'kind'>[]): string {
  return masterWithSubs(master, langs.map((l) => ({ uri: `subs-${l.language}/index.m3u8`, language: l.language, kind: l.kind, name: trackName({ label: null, language: l.language }), isDefault: false })));
}

/** The live rendition's playlist of `language`, or null when the channel does not offer it. */
export function liveSubsPlaylistText(db: Db, tenantId: string, channelId: string, language: string, segs: SegmentRow[], o: { targetS: number; ended: boolean }): string | null {
  const row = liveSubtitleLanguages(db, tenantId, channelId).find((r) => r.language === language);
  if (!row) return null;
  return liveSubsPlaylist(segs, { ...o, untilMs: row.until_ms ?? 0 });
}

/**
 * One live WebVTT segment: the channel's published cues of `language` overlapping [startMs, startMs + durMs), whole,
 * on the media timeline (`originMs`: the channel's creation). Null when the language is not offered or the
 * segment's audio is not recognised yet (a player must not keep an empty answer for it).
 */
export function liveVttSegment(db: Db, tenantId: string, channelId: string, language: string, originMs: number, startMs: number, durMs: number): string | null {
  const row = liveSubtitleLanguages(db, tenantId, channelId).find((r) => r.language === language);
  if (!row || row.until_ms === null || startMs + durMs > row.until_ms) return null;
  const cues = channelCuesInWindow(db, tenantId, channelId, startMs, startMs + durMs, { publishedOnly: true, language })
    .map((c) => ({ startMs: mediaTime(c.startMs, originMs), endMs: mediaTime(c.endMs, originMs), text: c.text }));
  return serializeWebVtt(cues, { language }).replace(/^WEBVTT\n/, `WEBVTT\n${liveTimestampMap(mediaTime(startMs, originMs))}\n`);
}
