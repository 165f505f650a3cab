/**
 * Reads the condition of each check from its real source, through the owning features' services: the channel row
 * and the live engine (feed, inputs, restarts), the segment index (recorded spans), the outbox (failovers), the data
 * directory's file system, and the statistics store. One instance per evaluation tick caches what several checks share.
 */
import { statfsSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { channelById, initFile, recordedRenditions, recordedSpansInRange, segmentFile, segmentsInRange } from '../channels/service';
import type { LiveChannel as ChannelRow } from '../../live/model';
import { programmesOverlapping } from '../guide/service';
import { StatsService } from '../stats/service';
import { statsRuntime } from '../stats/runtime';
import { liveControl } from '../../live/registry';
import type { Verdict } from './state';
import type { MonitorRow, MonitorStore } from './store';
import type { StoredCheck } from './checks';
import { checkType } from './catalogue';

const MIN = 60_000;
/** Samples kept in a check's memo (peak and restart windows). */
type Samples = [number, number][];

/** Statistics answers kept across ticks: each target's window is re-read every fifth of the window (1-5 minutes). */
export type StatsCache = Map<string, { at: number; p: Promise<Record<string, number | null>> }>;

/** A stable offset in [0, every) per key: targets refresh in different ticks instead of all in one. */
function phase(key: string, every: number): number {
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return (h >>> 0) % every;
}

/** Per-tick readers with caches; `memo` is the check's own remembered samples (JSON in monitor_states). */
export class Sources {
  private channels = new Map<string, ChannelRow | null>();
  private realtime = new Map<string, Promise<{ concurrent: number; by_content: { kind: string | null; id: string | null; concurrent: number }[] }>>();
  private disk: number | null | undefined;
  private failovers = new Map<string, { at: number; data: string }[]>();
  private svc: StatsService;

  constructor(private ctx: AppContext, private store: MonitorStore, private now: number, private stats: StatsCache = new Map()) {
    this.svc = new StatsService(ctx);
    for (const [k, v] of stats) if (now - v.at > 10 * MIN) stats.delete(k);
  }

  private channel(m: MonitorRow): ChannelRow | null {
    if (m.target_kind !== 'channel' || !m.target_id) return null;
    if (!this.channels.has(m.target_id)) this.channels.set(m.target_id, channelById(this.ctx, m.tenant_id, m.target_id));
    return this.channels.get(m.target_id)!;
  }

  /** Evaluates one check; `memo` is read and updated in place (samples). */
  async evaluate(m: MonitorRow, c: StoredCheck, memo: { samples?: Samples }): Promise<Verdict> {
    const cat = checkType(c.type);
    if (!cat || !cat.creatable) return none('not measurable on this platform');
    switch (c.type) {
      case 'disk_free_low': return this.diskFree(c);
      case 'startup_p95': case 'error_rate': case 'rebuffer_ratio': return this.audience(m, c);
      case 'concurrent_drop': return this.concurrentDrop(m, c, memo);
    }
    const ch = this.channel(m);
    if (!ch) return none('channel not found');
    const started = ch.desired === 'started';
    const name = `channel "${ch.name}"`;
    switch (c.type) {
      case 'feed_down': {
        // The programme scheduled now (if any) is named; `params.during_programme` holds only while one is.
        const prog = started && ch.feed === 'none' ? programmesOverlapping(this.ctx, ch.id, this.now, this.now + 1)[0] ?? null : null;
        const holds = started && ch.feed === 'none' && (!c.params?.during_programme || !!prog);
        const during = prog ? ` during "${prog.title}"` : ''; // its times are in detail.programme
        return {
          holds, value: holds ? 1 : 0,
          summary: holds ? `${name} has no feed on air${during} (${ch.status})` : started && ch.feed === 'none' ? `${name} has no feed; no programme is scheduled now` : `${name} is on air (${ch.feed})`,
          detail: { channel_id: ch.id, slug: ch.slug, name: ch.name, status: ch.status, feed: ch.feed, ...(prog ? { programme: { id: prog.id, title: prog.title, start: iso(prog.start_ms), end: iso(prog.end_ms) } } : {}) },
        };
      }
      case 'backup_feed_down': {
        const inputs = liveControl(this.ctx.db)?.inputs?.(ch.id) ?? null;
        if (!started) return { holds: false, value: 0, summary: `${name} is stopped`, detail: { channel_id: ch.id } };
        if (!inputs) return none('live engine not running');
        const holds = !inputs.backup.alive;
        return { holds, value: holds ? 1 : 0, summary: holds ? `${name}: the backup input delivers no media` : `${name}: backup input alive`, detail: { channel_id: ch.id, slug: ch.slug, feed: ch.feed } };
      }
      case 'failover': {
        const win = (c.window_s ?? 300) * 1000;
        let evs = this.failovers.get(m.tenant_id);
        if (!evs) { evs = this.store.eventsSince(m.tenant_id, 'channel.ingest_failover', this.now - 86_400_000); this.failovers.set(m.tenant_id, evs); }
        const mine = evs.filter((e) => e.at > this.now - win && (JSON.parse(e.data) as { channel_id?: string }).channel_id === ch.id);
        const last = mine.length ? JSON.parse(mine[mine.length - 1].data) as { from?: string; to?: string; reason?: string } : null;
        return { holds: mine.length > c.threshold, value: mine.length, summary: `${name}: ${mine.length} failover(s) in ${win / 1000} s${last ? ` (last ${last.from} → ${last.to}: ${last.reason})` : ''}`, detail: { channel_id: ch.id, slug: ch.slug, count: mine.length, last } };
      }
      case 'recorder_gap': return this.recorderGap(ch, c, started);
      case 'input_black': case 'input_freeze': case 'input_silence': case 'input_loudness': {
        // The channel's input monitor (live/input-monitor.ts): its condition holds with the channel's own thresholds.
        const check = c.type.slice(6) as 'black' | 'freeze' | 'silence' | 'loudness';
        const ic = liveControl(this.ctx.db)?.inputChecks?.(ch.id) ?? null;
        if (!started) return { holds: false, value: 0, summary: `${name} is stopped`, detail: { channel_id: ch.id } };
        if (!ic || !ic.settings[check].enabled) return none(`input check ${check} is off for ${name}`);
        const cond = ic.now.conditions[check];
        const l = ic.now.loudness;
        const words = { black: 'picture is black', freeze: 'picture is frozen', silence: 'audio is silent', loudness: `loudness ${l ? `${l.short_term} LUFS short-term` : ''} is outside ${ic.settings.loudness.target_lufs} ± ${ic.settings.loudness.tolerance_lu} LU` }[check];
        return {
          holds: cond.active, value: cond.active ? 1 : 0,
          summary: cond.active ? `${name}: ${words} since ${iso(cond.since ?? this.now)} (${ic.now.input ?? ch.feed})` : `${name}: no ${check} condition`,
          detail: { channel_id: ch.id, slug: ch.slug, input: ic.now.input, check, since: cond.since === null ? null : iso(cond.since), settings: ic.settings[check], ...(l ? { loudness: { momentary: l.momentary, short_term: l.short_term, integrated: l.integrated } } : {}) },
        };
      }
      case 'input_bitrate_low': {
        if (!started || ch.feed === 'none') return { holds: false, value: null, summary: `${name} is not on air`, detail: { channel_id: ch.id } };
        const info = liveControl(this.ctx.db)?.feedInfo(ch.id) ?? safeJson(ch.feed_info) as { bitrate_kbps?: number | null };
        // The ingest's own measurement, else what was recorded in the last 10 s (passthrough records the input as is).
        let kbps = info?.bitrate_kbps ?? null, source = 'ingest';
        if (kbps === null) { kbps = this.recordedKbps(ch); source = 'recording'; }
        if (kbps === null) return none('bitrate not measured yet');
        return { holds: kbps < c.threshold, value: kbps, summary: `${name}: input ${Math.round(kbps)} kbit/s (threshold ${c.threshold})`, detail: { channel_id: ch.id, slug: ch.slug, feed: ch.feed, bitrate_kbps: kbps, measured_from: source } };
      }
      case 'input_errors': {
        const inputs = liveControl(this.ctx.db)?.inputs?.(ch.id) ?? null;
        if (!started || !inputs) return { holds: false, value: 0, summary: `${name} is not running`, detail: { channel_id: ch.id } };
        // Damaged packets/slices (continuity breaks, decode errors) plus ingest restarts, counted over the window.
        const total = inputs.primary.restarts + inputs.backup.restarts + inputs.primary.errors + inputs.backup.errors;
        const d = windowDelta(memo, total, this.now, (c.window_s ?? 300) * 1000);
        return {
          holds: d > c.threshold, value: d,
          summary: `${name}: ${d} input error(s) (damaged packets, decode errors, ingest restarts) in ${c.window_s ?? 300} s`,
          detail: { channel_id: ch.id, slug: ch.slug, errors: { primary: inputs.primary.errors, backup: inputs.backup.errors }, restarts: { primary: inputs.primary.restarts, backup: inputs.backup.restarts } },
        };
      }
    }
    return none('unknown check');
  }

  /** kbit/s of the segments recorded in the last 10 s (the source rendition when there is one); null without any. */
  private recordedKbps(ch: ChannelRow): number | null {
    const renditions = recordedRenditions(this.ctx, ch.id);
    const r = renditions.includes('src') ? 'src' : renditions[0];
    if (!r) return null;
    const segs = segmentsInRange(this.ctx, ch.id, r, this.now - 10_000, this.now + 1);
    const ms = segs.reduce((a, x) => a + x.duration_ms, 0);
    return ms > 0 ? Math.round((segs.reduce((a, x) => a + x.bytes, 0) * 8) / ms) : null;
  }

  private diskFree(c: StoredCheck): Verdict {
    if (this.disk === undefined) {
      try { const s = statfsSync(this.ctx.config.dataDir); this.disk = s.blocks > 0 ? (s.bavail / s.blocks) * 100 : null; } catch { this.disk = null; }
    }
    if (this.disk === null) return none('file system not readable');
    const pct = Math.round(this.disk * 10) / 10;
    return { holds: pct < c.threshold, value: pct, summary: `data disk ${pct}% free (threshold ${c.threshold}%)`, detail: { free_pct: pct } };
  }

  /** Statistics filters of a monitor's target (channel by slug, asset, site host, whole tenant). */
  private filters(m: MonitorRow): Record<string, string> | null {
    switch (m.target_kind) {
      case 'channel': { const ch = this.channel(m); return ch ? { channel: ch.slug } : null; }
      case 'asset': return m.target_id ? { asset: m.target_id } : null;
      case 'site': return m.target_host ? { page_host: m.target_host } : null;
      default: return {};
    }
  }

  private async audience(m: MonitorRow, c: StoredCheck): Promise<Verdict> {
    if (!statsRuntime(this.ctx).settings.enabled) return none('analytics store is off');
    const f = this.filters(m);
    if (!f) return none('target not found');
    const win = (c.window_s ?? 600) * 1000;
    // Minute-aligned ranges let the store answer from its minute rollup where it can.
    const to = Math.ceil(this.now / MIN) * MIN, from = Math.floor((this.now - win) / MIN) * MIN;
    const key = `${m.tenant_id}|${JSON.stringify(f)}|${win}`;
    // Re-read every fifth of the window (1 to 5 minutes): a 10-minute window moves by 2 minutes between reads,
    // well inside the default for_s of these checks (5 minutes).
    const every = Math.min(5 * MIN, Math.max(MIN, win / 5));
    let hit = this.stats.get(key);
    if (!hit || this.now - hit.at >= every) {
      const p = this.svc.totals({ tenantId: m.tenant_id, from, to, filters: f }, ['startup_p95', 'error_rate', 'rebuffer_ratio', 'attempts']);
      // A first read is dated back by the key's phase, so the next refreshes of many targets spread over the minute.
      hit = { at: hit ? this.now : this.now - phase(key, every), p };
      this.stats.set(key, hit);
      p.catch(() => this.stats.delete(key)); // a failed read is retried at the next tick
    }
    const t = await hit.p;
    const v = t[c.type] ?? null;
    if (v === null) return { holds: false, value: null, summary: `no ${c.type} data in the last ${win / 1000} s`, detail: { attempts: t.attempts ?? 0 } };
    const round = Math.round(v * 1000) / 1000;
    return { holds: v > c.threshold, value: round, summary: `${c.type} ${round} over ${win / 1000} s (threshold ${c.threshold})`, detail: { attempts: t.attempts ?? 0, window_s: win / 1000, ...f } };
  }

  private async concurrentDrop(m: MonitorRow, c: StoredCheck, memo: { samples?: Samples }): Promise<Verdict> {
    if (!statsRuntime(this.ctx).settings.enabled) return none('analytics store is off');
    let p = this.realtime.get(m.tenant_id);
    if (!p) { p = this.svc.realtime(m.tenant_id, this.now); this.realtime.set(m.tenant_id, p); }
    const rt = await p;
    let cur = rt.concurrent;
    if (m.target_kind === 'channel') { const ch = this.channel(m); cur = rt.by_content.filter((b) => ch && (b.id === ch.slug || b.id === ch.id)).reduce((a, b) => a + b.concurrent, 0); }
    else if (m.target_kind === 'asset') cur = rt.by_content.filter((b) => b.id === m.target_id).reduce((a, b) => a + b.concurrent, 0);
    const win = (c.window_s ?? 600) * 1000;
    const samples = (memo.samples ?? []).filter(([t]) => t > this.now - win);
    samples.push([this.now, cur]);
    memo.samples = samples.slice(-120);
    const peak = Math.max(...samples.map(([, n]) => n));
    const minPeak = Number(c.params.min_peak ?? 10);
    const drop = peak > 0 ? Math.round(((peak - cur) / peak) * 1000) / 10 : 0;
    return { holds: peak >= minPeak && drop > c.threshold, value: drop, summary: `concurrent viewers ${cur} (peak ${peak} in ${win / 1000} s, drop ${drop}%)`, detail: { concurrent: cur, peak } };
  }

  /** Holes in the recording within the window; the latest closed hole (or the open one at the end) names the range. */
  private recorderGap(ch: ChannelRow, c: StoredCheck, started: boolean): Verdict {
    if (!started || !ch.recording_enabled) return { holds: false, value: 0, summary: `channel "${ch.name}" is not recording`, detail: { channel_id: ch.id } };
    const win = (c.window_s ?? 900) * 1000;
    const rendition = recordedRenditions(this.ctx, ch.id)[0] ?? 'src';
    const spans = recordedSpansInRange(this.ctx, ch.id, rendition, this.now - win, this.now + 1);
    if (!spans.length) return none('nothing recorded in the window');
    const limit = c.threshold * 1000;
    const gaps: { from: number; to: number | null }[] = [];
    for (let i = 2; i < spans.length; i += 2) if (spans[i] - spans[i - 1] > limit) gaps.push({ from: spans[i - 1], to: spans[i] });
    // The recording stopped advancing: an open gap (a segment lands every segment_s; allow two of them).
    const lastEnd = spans[spans.length - 1];
    if (this.now - lastEnd > limit + 2 * ch.segment_s * 1000) gaps.push({ from: lastEnd, to: null });
    if (!gaps.length) return { holds: false, value: 0, summary: `channel "${ch.name}": recording complete over ${win / 1000} s`, detail: { channel_id: ch.id } };
    const g = gaps[gaps.length - 1];
    const end = g.to ?? this.now;
    const seconds = Math.round((end - g.from) / 100) / 10;
    const progs = programmesOverlapping(this.ctx, ch.id, g.from, end).map((p) => ({ id: p.id, title: p.title, start: iso(p.start_ms), end: iso(p.end_ms) }));
    const range = `${iso(g.from)} – ${g.to === null ? 'now' : iso(g.to)}`;
    // The last segment recorded before the hole: its last frame is the alert's thumbnail.
    const before = segmentsInRange(this.ctx, ch.id, rendition, g.from - 120_000, g.from);
    const last = before[before.length - 1];
    return {
      frame: last ? { segment: segmentFile(this.ctx, last), init: initFile(this.ctx, ch, rendition, last.init_ms) } : undefined,
      holds: true, value: seconds,
      summary: `channel "${ch.name}": recording missing ${seconds} s, ${range}${progs.length ? ` (programme "${progs[0].title}")` : ''}`,
      detail: { channel_id: ch.id, slug: ch.slug, rendition, gap: { from: iso(g.from), to: g.to === null ? null : iso(g.to), seconds, open: g.to === null }, gaps: gaps.length, programmes: progs },
    };
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const none = (why: string): Verdict => ({ holds: null, value: null, summary: why, detail: {} });
function safeJson(s: string): unknown { try { return JSON.parse(s); } catch { return null; } }

/** Increase of a monotonic counter over the window, from samples kept in the memo. */
function windowDelta(memo: { samples?: Samples }, total: number, now: number, winMs: number): number {
  const samples = (memo.samples ?? []).filter(([t]) => t > now - winMs);
  samples.push([now, total]);
  memo.samples = samples.slice(-120);
  return Math.max(0, total - samples[0][1]);
}
