import { iso } from '../../kernel/clock';
import type { ProgrammeFields, ProgrammeRow } from './store';

/** The programme object as answered (published or staged). */
export function programmeView(p: ProgrammeFields & Partial<ProgrammeRow>, channelId: string, staged = false) {
  const playStart = p.play_start_ms ?? p.start_ms, playEnd = p.play_end_ms ?? p.end_ms;
  return {
    id: p.id, channel_id: channelId, title: p.title, description: p.description, series: p.series, episode: p.episode,
    images: JSON.parse(p.images || '{}') as Record<string, string>,
    start_at: iso(p.start_ms), end_at: iso(p.end_ms), duration_s: Math.round((p.end_ms - p.start_ms) / 1000),
    source: p.source, play_start: iso(playStart), play_end: iso(playEnd), bounds_status: p.bounds_status ?? 'epg',
    ...(staged ? { draft: true } : {}),
    ...(p.updated_at ? { updated_at: iso(p.updated_at) } : {}),
  };
}
