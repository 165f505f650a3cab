/**
 * FAST schedules (issue 48): a channel's playlist of ready library assets (loops, dayparts, ad breaks at the
 * assets' `metadata.ads.cues`), their preparation, the programme the live engine airs and its preview. A feature
 * service: other features' data only through their services. Throws AppError.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { slotKey } from '../../kernel/slots';
import { enqueueJob } from '../../jobs/enqueue';
import { liveControl } from '../../live/registry';
import { assetById, type AssetRow } from '../assets/service';
import { parseAssetOutput } from '../assets/output';
import { channelById } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { checkDayparts } from './dayparts';
import type { ChannelRendition, Daypart, FastItem, PrepSegments, PutFast } from './model';
import { prepDir, prepMode, profileOf } from './prep';
import { Program, type ProgramAsset, type WalkEntry } from './program';
import { FastStore, type PrepRow, type ScheduleRow } from './store';

/** How long a built programme is used before the schedule and its preps are read again. */
const PROGRAM_TTL_MS = 3000;
/** Programmes built per channel, rebuilt when the schedule or a prep changes (checked every PROGRAM_TTL_MS). */
const PROGRAMS = slotKey<Map<string, { at: number; key: string; prog: Program | null }>>('fast.programs');

const iso = (ms: number) => new Date(ms).toISOString();

/** The ad cues of an asset (seconds), none when its ads are disabled. */
export function cuesOf(a: AssetRow): number[] {
  try {
    const ads = (JSON.parse(a.metadata || '{}') as { ads?: { cues?: unknown; disabled?: unknown } }).ads;
    if (!ads || ads.disabled === true || !Array.isArray(ads.cues)) return [];
    return ads.cues.filter((c): c is number => typeof c === 'number' && Number.isFinite(c) && c >= 0).sort((x, y) => x - y);
  } catch { return []; }
}

/** The schedule's asset ids (items, dayparts, slate), each once. */
function assetIds(r: Pick<ScheduleRow, 'items' | 'dayparts' | 'slate_asset_id'>): string[] {
  const items = JSON.parse(r.items) as FastItem[], parts = JSON.parse(r.dayparts) as Daypart[];
  return [...new Set([...items, ...parts.flatMap((d) => d.items)].map((i) => i.asset_id).concat(r.slate_asset_id ? [r.slate_asset_id] : []))];
}

/** FAST schedule management and the programme lookups the live engine and the guide use. */
export class FastService {
  readonly store: FastStore;
  constructor(private ctx: AppContext) { this.store = new FastStore(ctx.db); }

  channel(tenantId: string, id: string): ChannelRow {
    const ch = isUuid(id) ? channelById(this.ctx, tenantId, id) : null;
    if (!ch) throw notFound('channel');
    return ch;
  }

  schedule(ch: ChannelRow): ScheduleRow {
    const r = this.store.schedule(ch.id);
    if (!r) throw notFound('FAST schedule');
    return r;
  }

  /** A ready asset of the tenant for field `field`: 422 for a malformed id or an asset not ready, 404 for an unknown or another tenant's. */
  private readyAsset(tenantId: string, id: string, field: string): AssetRow {
    if (!isUuid(id)) throw invalid(field, 'must be an asset id');
    const a = assetById(this.ctx, id);
    if (!a || a.tenant_id !== tenantId || a.deleted_at) throw notFound('asset');
    if (a.status !== 'ready' || !parseAssetOutput(a.output)) throw invalid(field, `asset is not ready (status ${a.status})`);
    return a;
  }

  /** Creates or replaces a channel's schedule; its assets' preps are queued. `created` when there was none. */
  async put(tenantId: string, channelId: string, b: PutFast): Promise<{ row: ScheduleRow; created: boolean }> {
    const ch = this.channel(tenantId, channelId);
    const norm = (items: PutFast['items'], at: string): FastItem[] => items.map((i, n) => { this.readyAsset(tenantId, i.asset_id, `${at}[${n}].asset_id`); return { asset_id: i.asset_id, loops: i.loops ?? 1 }; });
    const items = norm(b.items, 'items');
    const dayparts: Daypart[] = (b.dayparts ?? []).map((d, i) => ({ name: d.name?.trim() || `Daypart ${i + 1}`, start: d.start, end: d.end, items: norm(d.items, `dayparts[${i}].items`) }));
    checkDayparts(dayparts);
    const slate = b.breaks?.slate_asset_id ?? null;
    if (slate) this.readyAsset(tenantId, slate, 'breaks.slate_asset_id');
    const ref = parseAssetOutput(this.readyAsset(tenantId, items[0].asset_id, 'items[0].asset_id').output)!;
    const renditions: ChannelRendition[] = ref.renditions.map((r) => ({ name: r.name, width: r.width, height: r.height, video_k: r.video_k }));
    if (!renditions.length) throw invalid('items[0].asset_id', 'the asset has no renditions');
    const now = this.ctx.clock.now();
    const out = tx(this.ctx.db, () => {
      const cur = this.store.schedule(ch.id);
      const row: ScheduleRow = {
        channel_id: ch.id, tenant_id: tenantId, enabled: b.enabled === false ? 0 : 1, items: JSON.stringify(items), dayparts: JSON.stringify(dayparts),
        renditions: JSON.stringify(renditions), break_s: b.breaks?.duration_s ?? null, slate_asset_id: slate, guide_hours: b.guide_hours ?? 24,
        anchor_ms: now, version: (cur?.version ?? 0) + 1, created_at: cur?.created_at ?? now, updated_at: now,
      };
      this.store.save(row);
      this.ensurePreps(row, now);
      return { row, created: !cur };
    });
    this.ctx.jobs?.wake();
    if (ch.desired === 'started') await liveControl(this.ctx.db)?.start(ch.id);
    return out;
  }

  /** Queues the prep of every asset of a schedule that has none for its profile (or whose last one failed). */
  private ensurePreps(row: ScheduleRow, now: number): void {
    const renditions = JSON.parse(row.renditions) as ChannelRendition[];
    const profile = profileOf(renditions);
    for (const id of assetIds(row)) {
      const a = assetById(this.ctx, id);
      const o = a && parseAssetOutput(a.output);
      if (!a || !o) continue;
      const cur = this.store.prep(id, o.version, profile);
      if (cur && cur.status !== 'failed') continue;
      const masterFile = join(this.ctx.config.dataDir, o.dir, o.files.hls ?? 'master.m3u8');
      const mode = prepMode(o, existsSync(masterFile) ? readFileSync(masterFile, 'utf8') : null, renditions);
      if (cur) this.store.retryPrep(id, o.version, profile, now);
      else this.store.addPrep({ tenant_id: row.tenant_id, asset_id: id, asset_version: o.version, profile, mode, status: 'pending', dir: prepDir(row.tenant_id, id, o.version, profile), segments: '{}', error: null, updated_at: now });
      enqueueJob(this.ctx.db, { tenantId: row.tenant_id, type: 'fast.prep', payload: { assetId: id, version: o.version, profile, renditions }, subject: { kind: 'asset', id }, maxAttempts: 3 }, now);
    }
  }

  async remove(tenantId: string, channelId: string): Promise<void> {
    const ch = this.channel(tenantId, channelId);
    if (!this.store.remove(ch.id)) throw notFound('FAST schedule');
    if (ch.desired === 'started') await liveControl(this.ctx.db)?.start(ch.id);
  }

  /** Each asset of a schedule with its prep for the schedule's profile (null: none or the asset is gone). */
  private assets(row: ScheduleRow): Map<string, { asset: AssetRow | null; prep: PrepRow | null }> {
    const profile = profileOf(JSON.parse(row.renditions) as ChannelRendition[]);
    const out = new Map<string, { asset: AssetRow | null; prep: PrepRow | null }>();
    for (const id of assetIds(row)) {
      const a = assetById(this.ctx, id);
      const o = a && !a.deleted_at ? parseAssetOutput(a.output) : null;
      out.set(id, { asset: a, prep: o ? this.store.prep(id, o.version, profile) : null });
    }
    return out;
  }

  /** The programme a channel airs now (null: no enabled schedule, or nothing prepared yet). */
  program(channelId: string): Program | null {
    const cache = this.ctx.slots.get(PROGRAMS, () => new Map());
    const now = Date.now();
    const hit = cache.get(channelId);
    if (hit && now - hit.at < PROGRAM_TTL_MS) return hit.prog;
    const row = this.store.schedule(channelId);
    const ch = row?.enabled ? channelById(this.ctx, row.tenant_id, channelId) : null;
    if (!row || !ch) { cache.set(channelId, { at: now, key: '', prog: null }); return null; }
    const assets = this.assets(row);
    const key = `${row.version}|${[...assets].map(([id, x]) => `${id}:${x.prep?.status}:${x.prep?.updated_at}`).join(',')}|${ch.timezone}`;
    if (hit && hit.key === key) { hit.at = now; return hit.prog; }
    const pa = new Map<string, ProgramAsset>();
    for (const [id, x] of assets) pa.set(id, { title: x.asset?.title || 'Untitled', cues: x.asset ? cuesOf(x.asset) : [], prep: x.prep?.status === 'ready' ? JSON.parse(x.prep.segments) as PrepSegments : null });
    const prog = new Program({
      dataDir: this.ctx.config.dataDir, timezone: ch.timezone, anchorMs: row.anchor_ms, renditions: (JSON.parse(row.renditions) as ChannelRendition[]).map((r) => r.name),
      items: JSON.parse(row.items), dayparts: JSON.parse(row.dayparts), slateAssetId: row.slate_asset_id, breakMs: row.break_s === null ? null : row.break_s * 1000, assets: pa,
    });
    const ok = prog.slotAt(now) !== null;
    cache.set(channelId, { at: now, key, prog: ok ? prog : null });
    return ok ? prog : null;
  }

  /** The schedule as the API shows it. */
  view(row: ScheduleRow) {
    const assets = this.assets(row);
    const item = (i: FastItem) => {
      const x = assets.get(i.asset_id);
      return {
        asset_id: i.asset_id, loops: i.loops, title: x?.asset?.title ?? '', duration_s: x?.asset?.duration_s ?? null, cues: x?.asset ? cuesOf(x.asset) : [],
        prep: { status: x?.prep?.status ?? 'failed', mode: x?.prep?.mode ?? 'copy', error: x?.prep ? x.prep.error : 'the asset is gone' },
      };
    };
    const statuses = [...assets.values()].map((x) => x.prep?.status ?? 'failed');
    return {
      channel_id: row.channel_id, enabled: !!row.enabled,
      status: statuses.includes('failed') ? 'failed' : statuses.includes('pending') ? 'preparing' : 'ready',
      items: (JSON.parse(row.items) as FastItem[]).map(item),
      dayparts: (JSON.parse(row.dayparts) as Daypart[]).map((d) => ({ name: d.name, start: d.start, end: d.end, items: d.items.map(item) })),
      breaks: { slate_asset_id: row.slate_asset_id, duration_s: row.break_s, slate: row.slate_asset_id ? item({ asset_id: row.slate_asset_id, loops: 1 }) : null },
      renditions: JSON.parse(row.renditions) as ChannelRendition[], guide_hours: row.guide_hours, anchor_at: iso(row.anchor_ms), version: row.version,
      created_at: iso(row.created_at), updated_at: iso(row.updated_at),
    };
  }

  /** What airs from `fromMs` for `hours` (at most 2,000 entries). 409 while nothing is prepared. */
  preview(tenantId: string, channelId: string, fromMs: number, hours: number) {
    const ch = this.channel(tenantId, channelId);
    this.schedule(ch);
    const prog = this.program(ch.id);
    if (!prog) throw new AppError('conflict', 'nothing of the schedule is prepared yet (see each item\'s prep status)');
    const to = fromMs + hours * 3_600_000;
    const w = prog.walk(fromMs, to, 2000);
    return { from: iso(fromMs), to: iso(to), truncated: w.truncated, entries: w.entries.map((e) => entryView(e)) };
  }
}

/** A walk entry as the preview shows it. */
export function entryView(e: WalkEntry) {
  return { kind: e.kind, asset_id: e.assetId, title: e.title, start_at: iso(e.startMs), end_at: iso(e.endMs), daypart: e.daypart };
}
