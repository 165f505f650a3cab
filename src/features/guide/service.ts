/**
 * Guide service. Read API for other features (catch-up, clips, live-to-VOD) — call only these:
 *  - `programmeOf(ctx, tenantId, channelId, id)` → ProgrammeRow | null
 *  - `programmeById(ctx, tenantId, id)` → ProgrammeRow | null (any channel of the tenant)
 *  - `programmesOverlapping(ctx, channelId, fromMs, toMs)` → ProgrammeRow[] by start
 *  - `searchProgrammes(ctx, channelId, match, fromMs, toMs, limit)` → newest first (FTS5 MATCH over folded text)
 *  - `setProgrammeVod(ctx, id, vod)` → records the live-to-VOD state of a programme
 *  - `exclusionRules(ctx, tenantId)` → the tenant's catch-up exclusion rules
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { channelById } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import type { ExclusionRule } from './exclusions';
import { applyOp, checkLock, type GuideOp } from './ops';
import { GuideStore, type ProgrammeFields, type ProgrammeRow } from './store';
import { directKind, recordVersion } from './versions';
import type { CreateProgramme, PatchProgramme } from './model';

/** A programme of a channel in a tenant, or null. */
export function programmeOf(ctx: AppContext, tenantId: string, channelId: string, id: string): ProgrammeRow | null {
  return isUuid(id) ? new GuideStore(ctx.db).byId(tenantId, channelId, id) : null;
}
/** A programme of the tenant by id alone (any channel), or null. */
export function programmeById(ctx: AppContext, tenantId: string, id: string): ProgrammeRow | null {
  const p = isUuid(id) ? new GuideStore(ctx.db).byIdAny(id) : null;
  return p && p.tenant_id === tenantId ? p : null;
}
/** Programmes of every channel whose played end (else slot end) is in (fromMs, toMs], by that end (auto-subtitles). */
export function programmesEndingBetween(ctx: AppContext, fromMs: number, toMs: number, limit: number): ProgrammeRow[] {
  return new GuideStore(ctx.db).endingBetween(fromMs, toMs, limit);
}
/** Published programmes overlapping [fromMs, toMs), by start. */
export function programmesOverlapping(ctx: AppContext, channelId: string, fromMs: number, toMs: number): ProgrammeRow[] {
  return new GuideStore(ctx.db).overlapping(channelId, fromMs, toMs);
}
/** Full-text search of a channel's programmes started in [fromMs, toMs), newest first. */
export function searchProgrammes(ctx: AppContext, channelId: string, match: string, fromMs: number, toMs: number, limit: number): ProgrammeRow[] {
  return new GuideStore(ctx.db).search(channelId, match, fromMs, toMs, limit);
}
/** Records the live-to-VOD state of a programme. */
export function setProgrammeVod(ctx: AppContext, id: string, vod: { asset_id?: string | null; status: string | null; trigger?: string | null; error?: string | null }): void {
  new GuideStore(ctx.db).setVod(id, vod, ctx.clock.now());
}
/** The tenant's catch-up exclusion rules. */
export function exclusionRules(ctx: AppContext, tenantId: string): ExclusionRule[] {
  const raw = new GuideStore(ctx.db).exclusions(tenantId);
  return raw ? JSON.parse(raw) as ExclusionRule[] : [];
}

const MAX_PROGRAMME_MS = 48 * 3_600_000;

/** Parses an RFC 3339 timestamp field; 422 naming the field otherwise. */
export function parseTime(field: string, v: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw invalid(field, 'must be an RFC 3339 timestamp');
  return ms;
}

function checkSpan(s: number, e: number): void {
  if (e <= s) throw invalid('end_at', 'must be after start_at');
  if (e - s > MAX_PROGRAMME_MS) throw invalid('end_at', 'a programme lasts at most 48 hours');
}

/** Guide editing: programmes, review mode (staged drafts), lock window. Throws AppError. */
export class GuideService {
  readonly store: GuideStore;
  constructor(private ctx: AppContext) { this.store = new GuideStore(ctx.db); }

  channel(tenantId: string, id: string): ChannelRow {
    const ch = isUuid(id) ? channelById(this.ctx, tenantId, id) : null;
    if (!ch) throw notFound('channel');
    return ch;
  }

  settings(ch: ChannelRow): { review_mode: boolean; lock_hours: number } {
    const s = this.store.settings(ch.id);
    return { review_mode: !!s?.review_mode, lock_hours: s?.lock_hours ?? 0 };
  }

  putSettings(ch: ChannelRow, b: { review_mode?: boolean; lock_hours?: number }) {
    const cur = this.settings(ch);
    this.store.saveSettings({ channel_id: ch.id, tenant_id: ch.tenant_id, review_mode: (b.review_mode ?? cur.review_mode) ? 1 : 0, lock_hours: b.lock_hours ?? cur.lock_hours, updated_at: this.ctx.clock.now() });
    return this.settings(ch);
  }

  get(ch: ChannelRow, id: string): ProgrammeRow {
    const p = programmeOf(this.ctx, ch.tenant_id, ch.id, id);
    if (!p) throw notFound('programme');
    return p;
  }

  /**
   * Applies a change now, recorded as a version by `author` (review mode off: the change is published), or stages it
   * when the channel is in review mode. Returns true when staged.
   */
  submit(ch: ChannelRow, op: GuideOp, author: string | null = null): boolean {
    const now = this.ctx.clock.now();
    const { review_mode, lock_hours } = this.settings(ch);
    return tx(this.ctx.db, () => {
      checkLock(op, this.store, lock_hours, now);
      if (review_mode) { this.store.addDraft(newId(), ch.tenant_id, ch.id, JSON.stringify(op), now); return true; }
      const { changes } = applyOp(this.store, ch.tenant_id, ch.id, op, now);
      if (changes > 0) recordVersion(this.ctx, this.store, ch, directKind(op), changes, now, author);
      return false;
    });
  }

  /** Checks create input and builds the stored fields (new id). */
  fields(b: CreateProgramme, source = 'api'): ProgrammeFields {
    const s = parseTime('start_at', b.start_at), e = parseTime('end_at', b.end_at);
    checkSpan(s, e);
    if (!b.title.trim()) throw invalid('title', 'must not be blank');
    return { id: newId(), title: b.title.trim(), description: b.description ?? null, series: b.series ?? null, episode: b.episode ?? null, images: JSON.stringify(b.images ?? {}), start_ms: s, end_ms: e, source };
  }

  create(ch: ChannelRow, b: CreateProgramme, author: string | null = null): { programme: ProgrammeFields & Partial<ProgrammeRow>; staged: boolean } {
    const f = this.fields(b);
    const staged = this.submit(ch, { op: 'create', programme: f }, author);
    return { programme: staged ? f : this.get(ch, f.id), staged };
  }

  /** Known programme ids: published, or created by a staged draft. */
  private known(ch: ChannelRow, id: string): (ProgrammeFields & Partial<ProgrammeRow>) | null {
    const p = programmeOf(this.ctx, ch.tenant_id, ch.id, id);
    if (p) return p;
    for (const d of this.store.drafts(ch.id)) {
      const op = JSON.parse(d.op) as GuideOp;
      if (op.op === 'create' && op.programme.id === id) return op.programme;
    }
    return null;
  }

  patch(ch: ChannelRow, id: string, b: PatchProgramme, author: string | null = null) {
    const cur = this.known(ch, id);
    if (!cur) throw notFound('programme');
    const f: Partial<ProgrammeFields> = {};
    if (b.title !== undefined) { if (!b.title.trim()) throw invalid('title', 'must not be blank'); f.title = b.title.trim(); }
    if (b.description !== undefined) f.description = b.description;
    if (b.series !== undefined) f.series = b.series;
    if (b.episode !== undefined) f.episode = b.episode;
    if (b.images !== undefined) f.images = JSON.stringify(b.images);
    if (b.start_at !== undefined) f.start_ms = parseTime('start_at', b.start_at);
    if (b.end_at !== undefined) f.end_ms = parseTime('end_at', b.end_at);
    checkSpan(f.start_ms ?? cur.start_ms, f.end_ms ?? cur.end_ms);
    const staged = this.submit(ch, { op: 'patch', id, fields: f }, author);
    return { programme: staged ? { ...cur, ...f } : this.get(ch, id), staged };
  }

  remove(ch: ChannelRow, id: string, author: string | null = null): boolean {
    if (!this.known(ch, id)) throw notFound('programme');
    return this.submit(ch, { op: 'delete', id }, author);
  }

  /** Confirms playback boundaries (an editor fixed them), or resets them to the guide times (null). */
  setBounds(ch: ChannelRow, id: string, b: { play_start: string; play_end: string } | null): ProgrammeRow {
    const p = this.get(ch, id);
    if (!b) { this.store.setBounds(p.id, null, null, 'epg', this.ctx.clock.now()); return this.get(ch, id); }
    const s = parseTime('play_start', b.play_start), e = parseTime('play_end', b.play_end);
    if (e <= s) throw invalid('play_end', 'must be after play_start');
    if (s < p.start_ms - 3_600_000 || e > p.end_ms + 3_600_000) throw invalid('play_start', 'boundaries stay within one hour of the guide times');
    this.store.setBounds(p.id, s, e, 'confirmed', this.ctx.clock.now());
    return this.get(ch, id);
  }

  exclusions(tenantId: string): ExclusionRule[] { return exclusionRules(this.ctx, tenantId); }

  putExclusions(tenantId: string, rules: ExclusionRule[]): ExclusionRule[] {
    this.store.saveExclusions(tenantId, JSON.stringify(rules), this.ctx.clock.now());
    return rules;
  }

  /** Guards list windows: both bounds parsed, ordered, at most `maxDays` apart. */
  window(from: string | undefined, to: string | undefined, defFrom: number, defTo: number, maxDays: number): [number, number] {
    const f = from ? parseTime('from', from) : defFrom, t = to ? parseTime('to', to) : defTo;
    if (t <= f) throw invalid('to', 'must be after from');
    if (t - f > maxDays * 86_400_000) throw invalid('to', `from and to are at most ${maxDays} days apart`);
    return [f, t];
  }
}

/** Refuses an unknown guide version. */
export function noVersion(v: number): AppError { return notFound(`guide version ${v}`); }
