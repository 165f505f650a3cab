/**
 * Subtitle tracks of channel recordings (issue 43): a track for a guide programme or a wall-clock range of a channel,
 * created by speech recognition of the recorded segments (`subtitles.recognise_channel`) or by upload, then listed,
 * read, exported, published, translated and deleted like asset tracks. Cue times are relative to the range start.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { serializeSrt } from '../../text/srt';
import { serializeWebVtt } from '../../text/webvtt';
import { channelById, recordedRenditions, segmentsInRange } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { parseTime, programmeOf } from '../guide/service';
import { ChannelTrackStore, type ChannelTrackRow } from './channel-store';
import { parseUpload } from './service';
import { SubtitleStore } from './store';
import { queueTranslation, type TranslationRequest } from './translate';

/** Longest range a channel track covers. */
const MAX_RANGE_MS = 12 * 3_600_000;
const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** A new channel track: what it covers and says about itself. */
export interface NewChannelTrack {
  language: string; kind?: 'subtitles' | 'captions'; label?: string | null;
  programme_id?: string; start_at?: string; end_at?: string;
  content?: string; format?: 'vtt' | 'srt'; prompt?: string;
}

/** Channel-recording subtitle tracks. Throws AppError. */
export class ChannelSubtitleService {
  private readonly store: ChannelTrackStore;
  private readonly tracks: SubtitleStore;
  constructor(private readonly ctx: AppContext) { this.store = new ChannelTrackStore(ctx.db); this.tracks = new SubtitleStore(ctx.db); }

  private channel(tenantId: string, channelId: string): ChannelRow {
    const ch = channelById(this.ctx, tenantId, channelId);
    if (!ch) throw notFound('channel');
    return ch;
  }

  /** The range a request names: a programme's played range (or slot), or start_at/end_at. */
  private range(ch: ChannelRow, b: NewChannelTrack): { from: number; to: number; programmeId: string | null } {
    if (b.programme_id !== undefined) {
      if (b.start_at !== undefined || b.end_at !== undefined) throw invalid('programme_id', 'give either programme_id or start_at and end_at');
      const p = programmeOf(this.ctx, ch.tenant_id, ch.id, b.programme_id);
      if (!p) throw notFound('programme');
      return { from: p.play_start_ms ?? p.start_ms, to: p.play_end_ms ?? p.end_ms, programmeId: p.id };
    }
    if (b.start_at === undefined || b.end_at === undefined) throw invalid(b.start_at === undefined ? 'start_at' : 'end_at', 'give programme_id, or both start_at and end_at');
    const from = parseTime('start_at', b.start_at), to = parseTime('end_at', b.end_at);
    if (to <= from) throw invalid('end_at', 'must be after start_at');
    if (to - from > MAX_RANGE_MS) throw invalid('end_at', 'a channel track covers at most 12 hours');
    return { from, to, programmeId: null };
  }

  /**
   * Creates a track: with `content` a ready `upload` track (cue times from the range start; a cue past the range end
   * is a 422); without, an `asr` track queued for recognition of the recorded speech (409 while the range has not
   * ended, 422 when nothing is recorded in it).
   */
  create(tenantId: string, channelId: string, b: NewChannelTrack): ChannelTrackRow {
    const ch = this.channel(tenantId, channelId);
    if (!LANG.test(b.language)) throw invalid('language', 'a BCP 47 language tag such as "he", "en" or "en-US"');
    if (b.content !== undefined && b.prompt !== undefined) throw invalid('prompt', 'only for recognition (without content)');
    const { from, to, programmeId } = this.range(ch, b);
    const id = newId(), now = this.ctx.clock.now();
    const row = { id, tenant_id: tenantId, channel_id: ch.id, range_start_ms: from, range_end_ms: to, programme_id: programmeId, language: b.language, kind: b.kind ?? 'subtitles', label: b.label ?? null, now };
    if (b.content !== undefined) {
      const cues = parseUpload(b.content, b.format);
      if (!cues.length) throw invalid('content', 'the file holds no cues');
      const past = cues.find((c) => c.endMs > to - from);
      if (past) throw invalid('content', `a cue ends at ${(past.endMs / 1000).toFixed(3)} s, after the range (${((to - from) / 1000).toFixed(3)} s long)`);
      tx(this.ctx.db, () => {
        this.store.insert({ ...row, source: 'upload', status: 'ready', job_id: null });
        this.tracks.replaceCues(id, cues, now);
      });
      return this.store.get(tenantId, ch.id, id)!;
    }
    if (to > now) throw new AppError('conflict', 'the range has not ended yet; its speech can be recognised once it is over');
    const rendition = recordedRenditions(this.ctx, ch.id)[0];
    if (!rendition || !segmentsInRange(this.ctx, ch.id, rendition, from, to).length) throw invalid(programmeId ? 'programme_id' : 'start_at', 'nothing is recorded in the range');
    tx(this.ctx.db, () => {
      // Below encodes and never ahead of live work, as asset recognition.
      const job = enqueueJob(this.ctx.db, { tenantId, type: 'subtitles.recognise_channel', payload: { trackId: id, ...(b.prompt ? { prompt: b.prompt } : {}) }, subject: { kind: 'subtitle_track', id }, priority: -10, maxAttempts: 3 }, now);
      this.store.insert({ ...row, source: 'asr', status: 'queued', job_id: job });
    });
    return this.store.get(tenantId, ch.id, id)!;
  }

  /** A channel's tracks (newest range first), optionally of one programme or overlapping a window. */
  list(tenantId: string, channelId: string, q: { programme_id?: string; from?: string; to?: string; limit?: number }): ChannelTrackRow[] {
    const ch = this.channel(tenantId, channelId);
    return this.store.list(tenantId, ch.id, {
      programmeId: q.programme_id, fromMs: q.from !== undefined ? parseTime('from', q.from) : undefined,
      toMs: q.to !== undefined ? parseTime('to', q.to) : undefined, limit: q.limit ?? 100,
    });
  }

  /** One track of the channel, else 404. */
  get(tenantId: string, channelId: string, trackId: string): ChannelTrackRow {
    const ch = this.channel(tenantId, channelId);
    const t = isUuid(trackId) ? this.store.get(tenantId, ch.id, trackId) : null;
    if (!t) throw notFound('subtitle track');
    return t;
  }

  /** The track as WebVTT or SRT (times from the range start; RTL lines opened with U+200F); 409 until ready. */
  export(tenantId: string, channelId: string, trackId: string, format: 'vtt' | 'srt'): string {
    const t = this.get(tenantId, channelId, trackId);
    if (t.status !== 'ready') throw new AppError('conflict', `the track is ${t.status}; it can be downloaded once ready`);
    const cues = this.tracks.cues(t.id);
    return format === 'vtt' ? serializeWebVtt(cues, { language: t.language }) : serializeSrt(cues, { language: t.language });
  }

  /** Publishes (true: a ready track only) or unpublishes. */
  publish(tenantId: string, channelId: string, trackId: string, on: boolean): ChannelTrackRow {
    const t = this.get(tenantId, channelId, trackId);
    if (on && t.status !== 'ready') throw new AppError('conflict', `the track is ${t.status}; only a ready track can be published`);
    this.tracks.setPublished(tenantId, t.id, on, this.ctx.clock.now());
    return this.store.get(tenantId, channelId, t.id)!;
  }

  /** Queues a translation into another language (a channel track of the same range). */
  translate(tenantId: string, channelId: string, trackId: string, r: TranslationRequest): ChannelTrackRow {
    const t = this.get(tenantId, channelId, trackId);
    const made = queueTranslation(this.ctx, t, r);
    return this.store.get(tenantId, channelId, made.id)!;
  }

  /** Deletes a track and its cues (a running recognition finds it gone and stops). */
  delete(tenantId: string, channelId: string, trackId: string): void {
    const t = this.get(tenantId, channelId, trackId);
    this.tracks.delete(tenantId, t.id);
  }
}
