/**
 * Live subtitles of a channel (issue 43): which languages are recognised live and where that stands. Turning a
 * language on checks that an engine takes it (422 otherwise: nothing pretends); the recogniser (live-worker.ts) does
 * the rest. Throws AppError.
 */
import type { AppContext } from '../../kernel/context';
import { invalid, notFound } from '../../kernel/errors';
import { AsrError } from '../../engines/asr/types';
import { channelById } from '../channels/service';
import { speechEngineFor } from './channel-engine';
import { LiveSubsStore, type LiveSubsRow } from './live-store';

const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,2}$/;

/** Live subtitles settings and state per channel. */
export class LiveSubtitleService {
  private readonly store: LiveSubsStore;
  constructor(private readonly ctx: AppContext) { this.store = new LiveSubsStore(ctx.db); }

  private channel(tenantId: string, channelId: string): void {
    if (!channelById(this.ctx, tenantId, channelId)) throw notFound('channel');
  }

  /** The channel's live languages with their state. */
  get(tenantId: string, channelId: string): LiveSubsRow[] {
    this.channel(tenantId, channelId);
    return this.store.forChannel(tenantId, channelId);
  }

  /** Sets the live languages (the list replaces the old one; kept languages keep their state). */
  set(tenantId: string, channelId: string, b: { languages: string[]; kind?: 'subtitles' | 'captions' }): LiveSubsRow[] {
    this.channel(tenantId, channelId);
    const langs = [...new Set(b.languages)];
    langs.forEach((l, i) => {
      if (!LANG.test(l)) throw invalid(`languages/${i}`, 'a BCP 47 language tag such as "en" or "he"');
      try { speechEngineFor(this.ctx, tenantId, l); } catch (e) {
        if (e instanceof AsrError) throw invalid(`languages/${i}`, e.message);
        throw e;
      }
    });
    this.store.setLanguages(tenantId, channelId, langs, b.kind ?? 'subtitles', this.ctx.clock.now());
    return this.store.forChannel(tenantId, channelId);
  }
}
