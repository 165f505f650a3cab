/**
 * GET /v1/service-status: the shared layers of this appliance (API, ingest listeners, recorder, transcode queue,
 * delivery, statistics store, e-mail, disk), each with a state and since when it has been in that state.
 */
import { statfsSync } from 'node:fs';
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { liveControl } from '../../live/registry';
import { jobQueue } from '../../jobs/worker';
import { statsRuntime } from '../stats/runtime';
import { MonitorStore } from './store';

/** State of one layer. */
export type LayerState = 'ok' | 'degraded' | 'down' | 'off';
const RANK: Record<LayerState, number> = { off: 0, ok: 0, degraded: 1, down: 2 };

/** Layer states of one app; remembers since when each layer is in its current state. */
export class ServiceStatus {
  private since = new Map<string, { state: LayerState; at: number }>();
  private readonly bootAt: number;
  constructor(private ctx: AppContext) { this.bootAt = ctx.clock.now(); }

  private mark(name: string, state: LayerState, now: number): number {
    const cur = this.since.get(name);
    if (cur && cur.state === state) return cur.at;
    const at = cur ? now : this.bootAt;
    this.since.set(name, { state, at });
    return at;
  }

  /** The current status of every layer and the worst of them. */
  read() {
    const now = this.ctx.clock.now();
    const f = new MonitorStore(this.ctx.db).layerFacts(now);
    const live = liveControl(this.ctx.db);
    let free: number | null = null;
    try { const s = statfsSync(this.ctx.config.dataDir); free = s.blocks > 0 ? Math.round((s.bavail / s.blocks) * 1000) / 10 : null; } catch { free = null; }
    const stats = statsRuntime(this.ctx).settings.enabled;
    const layers: [string, LayerState, string][] = [
      ['api', 'ok', 'answering'],
      ['ingest', live ? 'ok' : 'down', live ? `SRT ports ${this.ctx.config.srtPorts.start}-${this.ctx.config.srtPorts.end}, RTMP port ${this.ctx.config.rtmpPort}; ${f.started} channel(s) started, ${f.waiting} without feed` : 'live engine not running'],
      ['recorder', !live ? 'down' : f.gaps > 0 ? 'degraded' : 'ok', `${f.gaps} started channel(s) with a recording gap`],
      ['transcode_queue', !jobQueue(this.ctx) ? 'down' : f.stale_jobs > 0 ? 'degraded' : 'ok', `${f.running_jobs} running, ${f.stale_jobs} queued over 10 min, ${f.failed_jobs} failed in the last hour`],
      ['delivery', 'ok', 'serving live, catch-up and VOD from this process'],
      ['statistics', stats ? 'ok' : 'off', stats ? 'DuckDB store open' : 'analytics switched off (analytics.enabled)'],
      ['email', this.ctx.config.smtp.url ? 'ok' : 'off', this.ctx.config.smtp.url ? 'SMTP configured' : 'VS_SMTP_URL not set'],
      ['disk', free === null ? 'degraded' : free < 5 ? 'down' : free < 10 ? 'degraded' : 'ok', free === null ? 'data directory not readable' : `${free}% free on the data directory's file system`],
    ];
    const out = layers.map(([name, state, detail]) => ({ name, state, since: iso(this.mark(name, state, now)), detail }));
    const worst = out.reduce((w, l) => Math.max(w, RANK[l.state]), 0);
    return { status: worst === 2 ? 'down' : worst === 1 ? 'degraded' : 'ok', at: iso(now), layers: out };
  }
}
