/**
 * Billing usage from the metadata store (SQLite): minutes stored and encoded (assets and their encode jobs), live input
 * hours (the feed changes the live engine recorded as events) and recorded hours (the segment index). Formulas:
 * docs/billing.md.
 */
import type { Db } from '../../kernel/db/sqlite';
import { parseAssetOutput } from '../assets/output';
import { overlapMs, type Month } from './months';
import { addTo, emptyByTier, shortSideOf, tierOfShortSide, type ByTier, type Tier } from './tiers';

const HOUR = 3_600_000;

interface AssetRow { id: string; duration_s: number | null; output: string | null; created_at: number; deleted_at: number | null }

/** Pure: the tier of an asset's finished output (its highest rendition's short side; no video: audio). */
export function assetTier(output: string | null): Tier {
  const o = parseAssetOutput(output);
  if (!o) return 'unknown';
  const side = Math.max(0, ...o.renditions.map((r) => Math.min(r.width, r.height)));
  return tierOfShortSide(side);
}

/** Pure: the tier of a channel from the resolution its feed last reported. */
export function channelTier(feedInfo: string | null): Tier {
  try {
    const f = JSON.parse(feedInfo ?? '{}') as { resolution?: string | null };
    const side = shortSideOf(f.resolution);
    return side === null ? 'unknown' : tierOfShortSide(side);
  } catch { return 'unknown'; }
}

/** The tier of every asset, channel and clip of a tenant, for mapping delivery records (content ids) to tiers. */
export function contentTiers(db: Db, tenantId: string): Map<string, Tier> {
  const m = new Map<string, Tier>();
  for (const a of db.query<{ id: string; output: string | null }, [string]>('SELECT id, output FROM assets WHERE tenant_id = ?').all(tenantId)) m.set(a.id, assetTier(a.output));
  for (const c of db.query<{ id: string; feed_info: string }, [string]>('SELECT id, feed_info FROM channels WHERE tenant_id = ?').all(tenantId)) m.set(c.id, channelTier(c.feed_info));
  for (const c of db.query<{ id: string; channel_id: string }, [string]>('SELECT id, channel_id FROM clips WHERE tenant_id = ?').all(tenantId)) m.set(c.id, m.get(c.channel_id) ?? 'unknown');
  return m;
}

/**
 * Minutes stored: every asset with a finished output counts its duration (not its renditions) for the part of the
 * month it existed (registration to deletion), as a fraction of the whole month — so a month-to-date figure grows
 * day by day and a full month of one 10-minute asset is 10.
 */
export function minutesStored(db: Db, tenantId: string, m: Month, until: number): ByTier {
  const out = emptyByTier();
  const rows = db.query<AssetRow, [string, number, number]>(
    `SELECT id, duration_s, output, created_at, deleted_at FROM assets WHERE tenant_id = ? AND duration_s IS NOT NULL
       AND output IS NOT NULL AND created_at < ? AND (deleted_at IS NULL OR deleted_at > ?)`).all(tenantId, Math.min(m.to, until), m.from);
  for (const a of rows) {
    const tier = assetTier(a.output);
    if (tier === 'unknown') continue; // still encoding: no stored output yet
    const lived = overlapMs(a.created_at, a.deleted_at ?? Infinity, m.from, Math.min(m.to, until));
    addTo(out, tier, (a.duration_s! / 60) * (lived / (m.to - m.from)));
  }
  return out;
}

/** Minutes encoded: the source duration of every asset encode that succeeded in the month (re-encodes count again). */
export function minutesEncoded(db: Db, tenantId: string, m: Month): ByTier {
  const out = emptyByTier();
  const rows = db.query<{ duration_s: number | null; output: string | null }, [string, number, number]>(
    `SELECT a.duration_s, a.output FROM jobs j JOIN assets a ON a.id = j.subject_id
      WHERE j.tenant_id = ? AND j.type = 'asset.encode' AND j.status = 'succeeded' AND j.finished_at >= ? AND j.finished_at < ?`).all(tenantId, m.from, m.to);
  for (const r of rows) addTo(out, assetTier(r.output), (r.duration_s ?? 0) / 60);
  return out;
}

interface FeedEvent { at: number; channel_id: string; feed: string }

/**
 * Live input hours: per channel, the time its feed was on (primary or backup) inside the month, from the
 * `channel.feed_changed` events (the state at the month's start is the last change before it; a feed still on counts
 * up to `until`).
 */
export function liveInputHours(db: Db, tenantId: string, m: Month, until: number): ByTier {
  const out = emptyByTier();
  const end = Math.min(m.to, until);
  const channels = db.query<{ id: string; feed_info: string }, [string]>('SELECT id, feed_info FROM channels WHERE tenant_id = ?').all(tenantId);
  for (const ch of channels) {
    const before = db.query<{ feed: string }, [string, string, number]>(
      `SELECT json_extract(data, '$.feed') AS feed FROM events WHERE tenant_id = ? AND type = 'channel.feed_changed'
         AND json_extract(data, '$.channel_id') = ? AND at < ? ORDER BY seq DESC LIMIT 1`).get(tenantId, ch.id, m.from);
    const changes = db.query<FeedEvent, [string, string, number, number]>(
      `SELECT at, json_extract(data, '$.channel_id') AS channel_id, json_extract(data, '$.feed') AS feed FROM events
        WHERE tenant_id = ? AND type = 'channel.feed_changed' AND json_extract(data, '$.channel_id') = ? AND at >= ? AND at < ? ORDER BY seq`).all(tenantId, ch.id, m.from, end);
    let on = before ? before.feed !== 'none' : false;
    let since = m.from, ms = 0;
    for (const c of changes) {
      const next = c.feed !== 'none';
      if (on && !next) ms += c.at - since;
      if (!on && next) since = c.at;
      on = next;
    }
    if (on) ms += end - since;
    if (ms > 0) addTo(out, channelTier(ch.feed_info), ms / HOUR);
  }
  return out;
}

/**
 * Recorded hours: per channel, the recorded time of its most complete rendition inside the month (a channel counts
 * once, not per rendition) — the segments' durations where the index holds them, else each hour directory's span
 * from its first segment to its last segment's end.
 */
export function recordedHours(db: Db, tenantId: string, m: Month, until: number): ByTier {
  const out = emptyByTier();
  const end = Math.min(m.to, until);
  const channels = db.query<{ id: string; feed_info: string }, [string]>('SELECT id, feed_info FROM channels WHERE tenant_id = ?').all(tenantId);
  for (const ch of channels) {
    const hours = db.query<{ rendition: string; hour_ms: number; first_ms: number; end_ms: number; materialized: number }, [string, number, number]>(
      'SELECT rendition, hour_ms, first_ms, end_ms, materialized FROM live_hours WHERE channel_id = ? AND end_ms > ? AND first_ms < ?').all(ch.id, m.from, end);
    const byRendition = new Map<string, number>();
    for (const h of hours) {
      let ms: number;
      if (h.materialized) {
        const r = db.query<{ ms: number | null }, [number, number, string, string, number, number, number, number]>(
          `SELECT sum(max(0, min(start_ms + duration_ms, ?) - max(start_ms, ?))) AS ms FROM live_segments
            WHERE channel_id = ? AND rendition = ? AND start_ms >= ? AND start_ms < ? AND start_ms + duration_ms > ? AND start_ms < ?`)
          .get(end, m.from, ch.id, h.rendition, h.hour_ms, h.hour_ms + HOUR, m.from, end);
        ms = r?.ms ?? 0;
      } else ms = overlapMs(h.first_ms, h.end_ms, m.from, end);
      byRendition.set(h.rendition, (byRendition.get(h.rendition) ?? 0) + ms);
    }
    const best = Math.max(0, ...byRendition.values());
    if (best > 0) addTo(out, channelTier(ch.feed_info), best / HOUR);
  }
  return out;
}
