import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import type { Cue } from '../../text/cue-text';
import { parseSrt, serializeSrt } from '../../text/srt';
import { SubtitleParseError } from '../../text/subtitle-file';
import { parseWebVtt, serializeWebVtt } from '../../text/webvtt';
import { AssetService } from '../assets/service';
import { SubtitleStore, type TrackRow } from './store';
import { channelCuesInWindow, channelTracksOverlapping, type ChannelTrackRow, type WallCue, type WindowOptions } from './channel-store';

/** For other features (articles): a channel's tracks overlapping the wall-clock window [fromMs, toMs) (channel-store.ts). */
export function channelTracksIn(ctx: AppContext, tenantId: string, channelId: string, fromMs: number, toMs: number, o: WindowOptions = {}): ChannelTrackRow[] {
  return channelTracksOverlapping(ctx.db, tenantId, channelId, fromMs, toMs, o);
}

/** For other features (articles): cues of a channel's tracks in [fromMs, toMs) at wall-clock times (channel-store.ts). */
export function channelCuesIn(ctx: AppContext, tenantId: string, channelId: string, fromMs: number, toMs: number, o: WindowOptions = {}): WallCue[] {
  return channelCuesInWindow(ctx.db, tenantId, channelId, fromMs, toMs, o);
}

/** What a new track says about itself. */
export interface NewTrack { language: string; kind: 'subtitles' | 'captions'; label: string | null }

const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** Parses an uploaded file's text (WebVTT when it starts so, else SRT); a malformed file is a 422 naming the line. */
export function parseUpload(content: string, format?: 'vtt' | 'srt'): Cue[] {
  const fmt = format ?? (/^\ufeff?WEBVTT/.test(content) ? 'vtt' : 'srt');
  try {
    return fmt === 'vtt' ? parseWebVtt(content) : parseSrt(content);
  } catch (e) {
    if (e instanceof SubtitleParseError) throw invalid('content', e.message);
    throw e;
  }
}

/** Subtitle tracks of library assets: create (upload or speech recognition), list, read, export, publish, delete. */
export class SubtitleService {
  readonly store: SubtitleStore;
  constructor(private readonly ctx: AppContext) { this.store = new SubtitleStore(ctx.db); }

  private asset(tenantId: string, assetId: string) { return new AssetService(this.ctx).get(tenantId, assetId); }

  private checkLanguage(t: NewTrack): void {
    if (!LANG.test(t.language)) throw invalid('language', 'a BCP 47 language tag such as "he", "en" or "en-US"');
  }

  /** An asset's tracks (404 for another tenant's asset). */
  list(tenantId: string, assetId: string): TrackRow[] {
    this.asset(tenantId, assetId);
    return this.store.list(tenantId, assetId);
  }

  /** One track, else 404. */
  get(tenantId: string, assetId: string, trackId: string): TrackRow {
    const a = this.asset(tenantId, assetId);
    const t = isUuid(trackId) ? this.store.get(tenantId, a.id, trackId) : null;
    if (!t) throw notFound('subtitle track');
    return t;
  }

  /** A track from an uploaded WebVTT/SRT file: parsed (422 naming the line), stored ready. */
  createUpload(tenantId: string, assetId: string, t: NewTrack, content: string, format?: 'vtt' | 'srt'): TrackRow {
    const a = this.asset(tenantId, assetId);
    this.checkLanguage(t);
    const cues = parseUpload(content, format);
    if (!cues.length) throw invalid('content', 'the file holds no cues');
    const id = newId(), now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      this.store.insert({ id, tenant_id: tenantId, asset_id: a.id, language: t.language, kind: t.kind, label: t.label, source: 'upload', status: 'ready', job_id: null, created_at: now, updated_at: now });
      this.store.replaceCues(id, cues, now);
    });
    return this.store.byId(id)!;
  }

  /** A track recognised from the asset's speech: queued with its `subtitles.recognise` job in one transaction. */
  createAsr(tenantId: string, assetId: string, t: NewTrack, prompt: string | null): TrackRow {
    const a = this.asset(tenantId, assetId);
    this.checkLanguage(t);
    if (!a.source_path) throw new AppError('conflict', 'the asset has no uploaded source to recognise yet');
    const id = newId(), now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      // Below encodes (priority 0) and never ahead of live work: recognition waits for spare capacity.
      const job = enqueueJob(this.ctx.db, { tenantId, type: 'subtitles.recognise', payload: { trackId: id, ...(prompt ? { prompt } : {}) }, subject: { kind: 'subtitle_track', id }, priority: -10, maxAttempts: 3 }, now);
      this.store.insert({ id, tenant_id: tenantId, asset_id: a.id, language: t.language, kind: t.kind, label: t.label, source: 'asr', status: 'queued', job_id: job, created_at: now, updated_at: now });
    });
    return this.store.byId(id)!;
  }

  /** The track as a WebVTT or SRT file (RTL lines opened with U+200F); 409 while it is not ready. */
  export(tenantId: string, assetId: string, trackId: string, format: 'vtt' | 'srt'): string {
    const t = this.get(tenantId, assetId, trackId);
    if (t.status !== 'ready') throw new AppError('conflict', `the track is ${t.status}; it can be downloaded once ready`);
    const cues = this.store.cues(t.id);
    return format === 'vtt' ? serializeWebVtt(cues, { language: t.language }) : serializeSrt(cues, { language: t.language });
  }

  /** Publishes (true) or unpublishes a ready track. */
  publish(tenantId: string, assetId: string, trackId: string, on: boolean): TrackRow {
    const t = this.get(tenantId, assetId, trackId);
    if (on && t.status !== 'ready') throw new AppError('conflict', `the track is ${t.status}; only a ready track can be published`);
    this.store.setPublished(tenantId, t.id, on, this.ctx.clock.now());
    return this.store.byId(t.id)!;
  }

  /** Deletes a track and its cues (a running recognition finds it gone and stops). */
  delete(tenantId: string, assetId: string, trackId: string): void {
    const t = this.get(tenantId, assetId, trackId);
    this.store.delete(tenantId, t.id);
  }
}

/** A subtitle track by id, any tenant (job handlers, such as the cluster's remote recognition). */
export function subtitleTrackById(ctx: AppContext, id: string): TrackRow | null {
  return new SubtitleStore(ctx.db).byId(id);
}

/** Sets a track's status (job handlers outside this feature go through here, not the store). */
export function setSubtitleTrackStatus(ctx: AppContext, id: string, status: string, now: number, o: { engine?: string | null; error?: string | null } = {}): void {
  new SubtitleStore(ctx.db).setStatus(id, status, now, o);
}
