import type { AppContext } from '../../kernel/context';
import type { StatsParam } from '../../kernel/stats';
import { channelById, channelBySlug } from '../channels/service';
import { programmesOverlapping } from '../guide/service';
import { eventWhere, type StatsQuery } from './query';

/** Most channels and programmes one answer looks at (the newest programmes are kept). */
const MAX_CHANNELS = 50;
const MAX_PROGRAMMES = 2000;

/** One guide programme as joined with the audience (`slug`: the channel as the origin log names it). */
interface Prog { slug: string; id: string; title: string; start: number; end: number }

/**
 * Live audience per guide programme: every live session (beacons, `live`) whose span [started, last event] overlaps
 * the programme in effect on its channel counts once for it (`viewers`: sessions, `unique_viewers`: viewer ids), its
 * watch time is the overlap of the two spans; `bytes` and `requests` are the origin's live answers (kind `channel`)
 * timed within the programme. Sessions are those overlapping the range (not only those started in it).
 */
export async function liveProgrammes(ctx: AppContext, q: StatsQuery, rows: <T>(sql: string, params: StatsParam[]) => Promise<T[]>): Promise<Record<string, unknown>[]> {
  const w = eventWhere(q, 'started');
  // Sessions overlapping the range: started before its end and active at or after its start (same parameters, same order).
  const sessWhere = w.sql.replace('started >= ?', 'last_ts >= ?');
  const keys = await rows<{ ch: string }>(
    `SELECT DISTINCT coalesce(channel, content_id) AS ch FROM viewer_sessions WHERE ${sessWhere} AND live AND coalesce(channel, content_id) IS NOT NULL
     UNION SELECT DISTINCT split_part(target, '/', 1) FROM edge_requests WHERE tenant_id = ? AND ts >= ? AND ts < ? AND kind = 'channel' LIMIT ${MAX_CHANNELS}`,
    [...w.params, q.tenantId, q.from, q.to]);
  // Sessions may name a channel by id or by slug: both map to the slug; each channel's programmes are listed once.
  const progs: Prog[] = [];
  const names: [string, string][] = [];
  const seen = new Set<string>();
  for (const { ch } of keys) {
    const c = channelById(ctx, q.tenantId, ch) ?? channelBySlug(ctx, q.tenantId, ch);
    if (!c || (q.filters.channel !== undefined && c.slug !== q.filters.channel)) continue;
    names.push([ch, c.slug]);
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    for (const p of programmesOverlapping(ctx, c.id, q.from, q.to)) progs.push({ slug: c.slug, id: p.id, title: p.title, start: p.start_ms, end: p.end_ms });
  }
  if (!progs.length) return [];
  progs.sort((a, b) => b.start - a.start);
  const kept = progs.slice(0, MAX_PROGRAMMES);
  const values = kept.map(() => '(?, ?, ?, ?::BIGINT, ?::BIGINT)').join(', ');
  const vparams: StatsParam[] = kept.flatMap((p) => [p.slug, p.id, p.title, p.start, p.end]);
  const nvalues = names.map(() => '(?, ?)').join(', ');
  return rows<Record<string, unknown>>(
    `WITH prog(slug, programme, title, p_start, p_end) AS (VALUES ${values}),
     names(name, slug) AS (VALUES ${nvalues}), -- (its column names differ from viewer_sessions': the filters stay unqualified)
     sessions AS (SELECT v.sid, v.viewer_id, n.slug AS ch, v.started, v.last_ts FROM viewer_sessions v JOIN names n ON n.name = coalesce(v.channel, v.content_id)
       WHERE ${sessWhere} AND v.live),
     aud AS (SELECT p.programme, count(DISTINCT s.sid)::DOUBLE AS viewers, count(DISTINCT s.viewer_id)::DOUBLE AS unique_viewers,
         (coalesce(sum(greatest(0, least(s.last_ts, p.p_end) - greatest(s.started, p.p_start))), 0) / 1000.0)::DOUBLE AS watch_time
       FROM prog p JOIN sessions s ON s.ch = p.slug AND s.started < p.p_end AND s.last_ts >= p.p_start GROUP BY p.programme),
     origin AS (SELECT p.programme, coalesce(sum(e.bytes), 0)::DOUBLE AS bytes, count(*)::DOUBLE AS requests
       FROM prog p JOIN edge_requests e ON e.tenant_id = ? AND e.kind = 'channel' AND split_part(e.target, '/', 1) = p.slug
         AND e.ts >= greatest(p.p_start, ?) AND e.ts < least(p.p_end, ?) GROUP BY p.programme)
     SELECT 'live' AS kind, p.slug AS channel, p.programme, p.title, strftime(make_timestamp(p.p_start * 1000), '%Y-%m-%dT%H:%M:%SZ') AS starts_at,
       strftime(make_timestamp(p.p_end * 1000), '%Y-%m-%dT%H:%M:%SZ') AS ends_at, coalesce(a.viewers, 0) AS viewers, coalesce(a.unique_viewers, 0) AS unique_viewers,
       coalesce(a.watch_time, 0) AS watch_time, coalesce(o.bytes, 0) AS bytes, coalesce(o.requests, 0) AS requests
     FROM prog p LEFT JOIN aud a USING (programme) LEFT JOIN origin o USING (programme)
     WHERE a.viewers > 0 OR o.requests > 0 ORDER BY viewers DESC, requests DESC, p.p_start DESC LIMIT 100`,
    [...vparams, ...names.flat(), ...w.params, q.tenantId, q.from, q.to]);
}
