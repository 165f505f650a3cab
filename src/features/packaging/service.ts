/** Packaging settings per tenant for new encodes: segment duration, DASH, AES-128 by default, I-frame playlists. */
import type { AppContext } from '../../kernel/context';
import { iso } from '../../kernel/clock';
import { invalid } from '../../kernel/errors';

/** Settings as answered (defaults filled in). */
export interface PackagingOut { segment_s: number | null; dash: boolean; aes128_default: boolean; iframe_playlists: boolean; updated_at: string | null }
/** A change (PATCH body). */
export type PackagingPatch = Partial<Omit<PackagingOut, 'updated_at'>>;
interface Stored { segment_s?: number | null; dash?: boolean; aes128_default?: boolean; iframe_playlists?: boolean }

const KEYS = ['segment_s', 'dash', 'aes128_default', 'iframe_playlists'] as const;

/** Reads and changes a tenant's packaging settings. */
export class PackagingService {
  constructor(private ctx: AppContext) {}

  private row(tenantId: string): { s: Stored; at: number | null } {
    const r = this.ctx.db.query<{ settings: string; updated_at: number }, [string]>('SELECT settings, updated_at FROM packaging_settings WHERE tenant_id = ?').get(tenantId);
    return { s: r ? JSON.parse(r.settings) as Stored : {}, at: r?.updated_at ?? null };
  }

  /** The tenant's settings; `segment_s` null means each ladder's own. */
  get(tenantId: string): PackagingOut {
    const { s, at } = this.row(tenantId);
    return { segment_s: s.segment_s ?? null, dash: s.dash ?? true, aes128_default: s.aes128_default ?? false, iframe_playlists: s.iframe_playlists ?? false, updated_at: at === null ? null : iso(at) };
  }

  /** Applies a change; returns the new settings and what changed (before → after). */
  patch(tenantId: string, p: PackagingPatch): { out: PackagingOut; changed: Record<string, { from: unknown; to: unknown }> } {
    const before = this.get(tenantId);
    const { s } = this.row(tenantId);
    const next: Stored = { ...s };
    for (const k of KEYS) if (p[k] !== undefined) (next as Record<string, unknown>)[k] = p[k];
    // An I-frame entry is a byte range of a segment; AES-128 encrypts whole segments (one CBC chain), so a range
    // cannot be decrypted alone: the two are refused together rather than one silently dropped.
    if (next.aes128_default && next.iframe_playlists) {
      throw invalid(p.iframe_playlists ? 'iframe_playlists' : 'aes128_default', 'I-frame playlists and AES-128 by default cannot both be on: an I-frame byte range of a whole-segment AES-128 encrypted file cannot be decrypted on its own');
    }
    this.ctx.db.query('INSERT INTO packaging_settings (tenant_id, settings, updated_at) VALUES (?, ?, ?) ON CONFLICT(tenant_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at')
      .run(tenantId, JSON.stringify(next), this.ctx.clock.now());
    const out = this.get(tenantId);
    const changed: Record<string, { from: unknown; to: unknown }> = {};
    for (const k of KEYS) if (before[k] !== out[k]) changed[k] = { from: before[k], to: out[k] };
    return { out, changed };
  }
}
