import type { AppContext } from '../../kernel/context';
import { deliveryPath } from '../playback/delivery-table';
import { iso } from '../../kernel/clock';
import { invalid } from '../../kernel/errors';
import { ftsQuery, foldText } from '../assets/search';
import { recordedRenditions, recordedSpansInRange } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { exclusionMatcher } from '../guide/exclusions';
import { exclusionRules, GuideService, programmesOverlapping, searchProgrammes } from '../guide/service';
import type { ProgrammeRow } from '../guide/store';
import { vodView } from '../live-to-vod/view';
import { recordedMs, recordingStatus, spanTimes } from './coverage';
import { matchOf } from './match';
import { rankHits, transcriptFlag, transcriptProgrammes } from '../subtitles/search-catchup';

const DAY = 86_400_000;

/** Catch-up: the recorded programmes of a channel with coverage, status, boundaries and playback. */
export class CatchupService {
  readonly guide: GuideService;
  constructor(private ctx: AppContext) { this.guide = new GuideService(ctx); }

  /** Oldest instant still inside the channel's recording retention. */
  retentionFrom(ch: ChannelRow, now: number): number {
    return now - (ch.recording_enabled ? ch.retention_hours * 3_600_000 : ch.dvr_window_s * 1000);
  }

  private primary(ch: ChannelRow): string | null {
    const r = recordedRenditions(this.ctx, ch.id);
    return r.includes('src') ? 'src' : r[0] ?? null;
  }

  /** Catch-up items (newest first) with coverage from the index's recorded spans (hour summaries) in one pass. */
  items(ch: ChannelRow, tenantSlug: string, progs: ProgrammeRow[], now: number) {
    const win = progs.map((p) => ({ from: p.play_start_ms ?? p.start_ms, to: Math.min(p.play_end_ms ?? p.end_ms, Math.max(now, p.start_ms)) }));
    const rend = this.primary(ch);
    let rec = win.map(() => 0);
    if (rend && win.length) {
      const lo = Math.min(...win.map((w) => w.from)), hi = Math.max(...win.map((w) => w.to));
      rec = recordedMs(spanTimes(recordedSpansInRange(this.ctx, ch.id, rend, lo, hi)), win);
    }
    return progs.map((p, i) => this.item(ch, tenantSlug, p, rec[i], now));
  }

  private item(ch: ChannelRow, tenantSlug: string, p: ProgrammeRow, recMs: number, now: number) {
    const ps = p.play_start_ms ?? p.start_ms, pe = p.play_end_ms ?? p.end_ms;
    const airing = p.start_ms <= now && now < p.end_ms;
    const span = (airing ? Math.min(now, pe) : pe) - ps;
    const coverage = span > 0 ? Math.min(1, Math.round((recMs / (pe - ps)) * 1000) / 1000) : 0;
    const vod = vodView(this.ctx, p);
    const images = JSON.parse(p.images || '{}') as Record<string, string>;
    const cdn = this.ctx.config.cdnBaseUrl;
    return {
      id: p.id, title: p.title, series: p.series, episode: p.episode, start_at: iso(p.start_ms), end_at: iso(p.end_ms),
      duration_s: Math.round((p.end_ms - p.start_ms) / 1000), airing, coverage,
      status: vod ? vod.status : recordingStatus(recMs > 0 ? Math.max(coverage, 0.001) : 0, airing),
      play_start: iso(ps), play_end: iso(pe), bounds_status: p.bounds_status,
      bounds_method: p.bounds_status === 'confirmed' ? 'editor' : 'guide', adjusted_ms: ps - p.start_ms + (pe - p.end_ms),
      thumbnail: images.tile_16x9 ?? images.tile_16x9_320 ?? images.poster ?? null,
      vod,
      playback: {
        hls: cdn + deliveryPath('catchupMaster', { slug: ch.slug, s: ps, e: airing ? 'live' : pe }, tenantSlug),
        ...(airing ? { startover: cdn + deliveryPath('startoverMaster', { slug: ch.slug, pid: p.id }, tenantSlug) } : {}),
      },
    };
  }

  /** GET /v1/channels/{id}/catchup: window (default last 24 h, ≤ 8 days), clipped to retention and to now. */
  list(ch: ChannelRow, tenantSlug: string, q: { from?: string; to?: string }) {
    const now = this.ctx.clock.now();
    const [f, t] = this.guide.window(q.from, q.to, now - DAY, now, 8);
    const retention = this.retentionFrom(ch, now);
    const from = Math.max(f, retention), to = Math.min(t, now);
    const excluded = exclusionMatcher(exclusionRules(this.ctx, ch.tenant_id));
    const all = to > from ? programmesOverlapping(this.ctx, ch.id, from, to).filter((p) => p.start_ms >= retention && p.start_ms < now) : [];
    const kept = all.filter((p) => !excluded(p)).reverse();
    return { from: iso(from), to: iso(Math.max(to, from)), retention_from: iso(retention), excluded_hidden: all.length - kept.length, items: this.items(ch, tenantSlug, kept, now) };
  }

  /**
   * GET /v1/channels/{id}/catchup/search: Hebrew-aware prefix search over programmes inside the retention, and (with
   * `transcript`, the default) over the published subtitles of the channel's recordings: those hits add `moments`.
   * Programmes where every query word is found exactly (title, series, description or a cue) rank first.
   */
  search(ch: ChannelRow, tenantSlug: string, q: string | undefined, limitRaw: string | undefined, transcriptRaw?: string) {
    const text = (q ?? '').trim();
    if ([...text].length < 2 || [...text].length > 100) throw invalid('q', '2-100 characters');
    const limit = limitRaw === undefined ? 20 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) throw invalid('limit', 'integer 1-50');
    const match = ftsQuery(text);
    if (!match) throw invalid('q', 'needs at least one letter or digit');
    const now = this.ctx.clock.now();
    const excluded = exclusionMatcher(exclusionRules(this.ctx, ch.tenant_id));
    const transcript = transcriptFlag(transcriptRaw);
    const from = this.retentionFrom(ch, now);
    const meta = searchProgrammes(this.ctx, ch.id, match, from, now, limit * 3 + 20).filter((p) => !excluded(p));
    const said = transcript ? transcriptProgrammes(this.ctx, ch.tenant_id, ch.id, text, from, now, (p) => !excluded(p) && p.start_ms < now, limit) : [];
    const ranked = rankHits(text, meta, said);
    const page = ranked.slice(0, limit);
    const terms = foldText(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    return {
      truncated: ranked.length > limit,
      items: this.items(ch, tenantSlug, page.map((h) => h.p), now).map((it, i) => {
        const h = page[i]!;
        const match = h.meta || !h.said ? matchOf(h.p, terms) : { field: 'subtitles', snippet: h.said.snippet };
        return { ...it, match, ...(h.said ? { moments: h.said.moments } : {}) };
      }),
    };
  }
}
