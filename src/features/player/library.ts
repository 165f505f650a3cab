import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { PlayerStore, type SectionRow } from './store';
import { AssetService } from '../assets/service';

/** API view of a library section. */
export function sectionView(r: SectionRow & { asset_count: number }) {
  return { id: r.id, name: r.name, asset_count: r.asset_count, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

/** Library sections (the minimal API the player needs): CRUD and an asset's `section_id`. */
export class SectionService {
  private store: PlayerStore;
  constructor(private ctx: AppContext) { this.store = new PlayerStore(ctx.db); }

  list(tenantId: string) { return this.store.sections(tenantId).map(sectionView); }

  get(tenantId: string, id: string) {
    const r = this.store.section(tenantId, id);
    if (!r) throw notFound('library section');
    return sectionView(r);
  }

  create(tenantId: string, name: string) {
    if (this.store.sectionByName(tenantId, name)) throw new AppError('conflict', `a section named "${name}" exists`);
    const now = this.ctx.clock.now();
    const id = newId();
    this.store.insertSection({ id, tenant_id: tenantId, name, created_at: now, updated_at: now });
    return this.get(tenantId, id);
  }

  rename(tenantId: string, id: string, name: string) {
    this.get(tenantId, id);
    const other = this.store.sectionByName(tenantId, name);
    if (other && other.id !== id) throw new AppError('conflict', `a section named "${name}" exists`);
    this.store.renameSection(tenantId, id, name, this.ctx.clock.now());
    return this.get(tenantId, id);
  }

  remove(tenantId: string, id: string): void {
    if (!this.store.deleteSection(tenantId, id)) throw notFound('library section');
  }

  /** Sets (or clears with null) the section of an asset. */
  setAssetSection(tenantId: string, assetId: string, sectionId: string | null) {
    new AssetService(this.ctx).get(tenantId, assetId);
    if (sectionId !== null && !this.store.section(tenantId, sectionId)) throw invalid('section_id', 'no such library section');
    this.store.setAssetSection(tenantId, assetId, sectionId, this.ctx.clock.now());
    return { asset_id: assetId, section_id: sectionId };
  }

  /** The section of an asset, or null. */
  sectionOf(tenantId: string, assetId: string): string | null { return this.store.assetSection(tenantId, assetId); }
}
