import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { isUuid } from '../../kernel/ids';
import { PlayerStore, type AssignRow, type ConfigRow } from './store';
import { docOf } from './configs';
import { withDefaults, PLAYER_VERSION } from './defaults';
import { AssetService } from '../assets/service';
import { assetView } from '../assets/view';
import { channelById, channelBySlug } from '../channels/service';
import { ClipService } from '../clips/service';
import { IdentityService } from '../identity/service';
import { programmesOverlapping } from '../guide/service';

/** Kinds of target an assignment names. */
export type TargetKind = 'tenant' | 'live_default' | 'library_default' | 'section' | 'channel' | 'asset';
const NO_ID: TargetKind[] = ['tenant', 'live_default', 'library_default'];

/** A tenant that has players (CDN-only tenants and unknown slugs answer 404 on public paths). */
export interface PlayerTenant { id: string; slug: string; name: string }

/** Title data of a piece of content for pages and resolve.json. */
export interface TitleData { kind: string; id: string; contentId?: string; title: string; description: string; poster: string | null; duration_s: number | null; live: boolean; upload_date: string | null; ads?: { cues?: number[]; disabled?: boolean }; guide?: { now: GuideItem | null; next: GuideItem | null } }
/** A programme as the live guide overlay shows it. */
export interface GuideItem { title: string; start: string; end: string }

/** Assignments and the public resolution of configurations. */
export class PlayerResolver {
  private store: PlayerStore;
  constructor(private ctx: AppContext) { this.store = new PlayerStore(ctx.db); }

  /** A tenant by slug for public paths; 404 for unknown or CDN-only tenants. */
  tenant(slug: string): PlayerTenant {
    let t;
    try { t = new IdentityService(this.ctx.db, null).tenant(slug); } catch { throw notFound('tenant'); }
    if (t.cdn_only === 1 || t.slug !== slug) throw notFound('tenant');
    return { id: t.id, slug: t.slug, name: t.name };
  }

  private view(a: AssignRow) {
    const c = this.store.config(a.tenant_id, a.config_id);
    return { id: a.id, config_id: a.config_id, config_name: c?.name ?? '', target_kind: a.target_kind, target_id: a.target_ref || null, created_at: iso(a.created_at) };
  }

  listAssignments(tenantId: string) { return this.store.assignments(tenantId).map((a) => this.view(a)); }

  /** Applies a configuration to a target (replacing what applied there before). */
  assign(tenantId: string, body: { config_id: string; target_kind: TargetKind; target_id?: string }) {
    if (!this.store.config(tenantId, body.config_id)) throw invalid('config_id', 'no such player configuration');
    let ref = '';
    if (NO_ID.includes(body.target_kind)) {
      if (body.target_id !== undefined) throw invalid('target_id', `not used with target_kind ${body.target_kind}`);
    } else {
      if (!body.target_id) throw invalid('target_id', `required with target_kind ${body.target_kind}`);
      ref = this.targetRef(tenantId, body.target_kind, body.target_id);
    }
    const row = { id: newId(), tenant_id: tenantId, config_id: body.config_id, target_kind: body.target_kind, target_ref: ref, created_at: this.ctx.clock.now() };
    this.store.upsertAssignment(row);
    return this.view({ seq: 0, ...row });
  }

  private targetRef(tenantId: string, kind: TargetKind, id: string): string {
    if (kind === 'section') { if (!this.store.section(tenantId, id)) throw invalid('target_id', 'no such library section'); return id; }
    if (kind === 'channel') {
      const ch = (isUuid(id) ? channelById(this.ctx, tenantId, id) : null) ?? channelBySlug(this.ctx, tenantId, id);
      if (!ch) throw invalid('target_id', 'no such channel');
      return ch.id;
    }
    try { new AssetService(this.ctx).get(tenantId, id); } catch { throw invalid('target_id', 'no such asset'); }
    return id;
  }

  unassign(tenantId: string, id: string): void {
    if (!this.store.deleteAssignment(tenantId, id)) throw notFound('assignment');
  }

  private configAt(tenantId: string, kind: TargetKind, ref = ''): ConfigRow | null {
    const a = this.store.assignment(tenantId, kind, ref);
    return a ? this.store.config(tenantId, a.config_id) : null;
  }

  /** The answer body of a public configuration document. */
  private answer(t: PlayerTenant, row: ConfigRow | null, extra: Record<string, unknown> = {}) {
    const doc = row ? docOf(row) : {};
    const version = doc.version_pin ?? PLAYER_VERSION;
    return { tenant: t.slug, name: row?.name ?? null, config: withDefaults(doc), ...extra, player: { version, script: `${this.ctx.config.playerUrl}/embed/${version}/embed.js` } };
  }

  /** /player/config/<tenant>.json */
  tenantDefault(slug: string) {
    const t = this.tenant(slug);
    return this.answer(t, this.configAt(t.id, 'tenant'));
  }

  /** /player/config/<tenant>/<name>.json */
  named(slug: string, name: string) {
    const t = this.tenant(slug);
    const row = this.store.configByName(t.id, name);
    if (!row) throw notFound('player configuration');
    return this.answer(t, row);
  }

  /** The configuration applying to content: channel → live default → tenant; asset → section → library default → tenant. */
  resolve(slug: string, kind: string, id: string) {
    const t = this.tenant(slug);
    const title = this.title(t, kind, id);
    const chain: [TargetKind, string][] = [];
    if (kind === 'live') chain.push(['channel', title.id], ['live_default', '']);
    else if (kind === 'vod') {
      chain.push(['asset', title.id]);
      const sec = this.store.assetSection(t.id, title.id);
      if (sec) chain.push(['section', sec]);
      chain.push(['library_default', '']);
    } else chain.push(['library_default', '']);
    chain.push(['tenant', '']);
    for (const [k, ref] of chain) {
      const row = this.configAt(t.id, k, ref);
      if (row) return this.answer(t, row, { resolved_from: { kind: k, id: ref || null, config_id: row.id }, title });
    }
    return this.answer(t, null, { resolved_from: { kind: 'defaults', id: null, config_id: null }, title });
  }

  /** Title data of a channel (slug or id), asset or clip; 404 when unknown. */
  title(t: PlayerTenant, kind: string, id: string): TitleData {
    if (kind === 'live') {
      const ch = channelBySlug(this.ctx, t.id, id) ?? (isUuid(id) ? channelById(this.ctx, t.id, id) : null);
      if (!ch) throw notFound('channel');
      const now = this.ctx.clock.now();
      const progs = programmesOverlapping(this.ctx, ch.id, now, now + 86_400_000).sort((a, b) => a.start_ms - b.start_ms);
      const item = (p: (typeof progs)[number] | undefined): GuideItem | null => (p ? { title: p.title, start: iso(p.start_ms), end: iso(p.end_ms) } : null);
      const guide = { now: item(progs.find((p) => p.start_ms <= now && p.end_ms > now)), next: item(progs.find((p) => p.start_ms > now)) };
      return { kind, id: ch.id, contentId: ch.slug, guide, title: ch.name, description: `${ch.name} — live`, poster: null, duration_s: null, live: true, upload_date: iso(ch.created_at) };
    }
    if (kind === 'vod') {
      const a = new AssetService(this.ctx).get(t.id, id);
      const v = assetView(this.ctx, a);
      const desc = typeof v.metadata.description === 'string' ? v.metadata.description : v.title;
      const ads = v.metadata.ads && typeof v.metadata.ads === 'object' ? v.metadata.ads as { cues?: number[]; disabled?: boolean } : undefined;
      return { kind, id: a.id, title: v.title || 'Video', description: desc, poster: v.playback?.poster ?? null, duration_s: v.duration_s, live: false, upload_date: v.created_at, ...(ads ? { ads: { cues: Array.isArray(ads.cues) ? ads.cues : undefined, disabled: ads.disabled === true } } : {}) };
    }
    if (kind === 'clip') {
      const c = new ClipService(this.ctx).get(t.id, id);
      return { kind, id: c.id, title: c.title ?? 'Clip', description: c.title ?? 'Clip', poster: null, duration_s: (c.end_ms - c.start_ms) / 1000, live: false, upload_date: iso(c.created_at) };
    }
    throw new AppError('validation_error', 'kind: must be one of: live, vod, clip', { errors: [{ field: 'kind', detail: 'must be one of: live, vod, clip' }] });
  }
}
