import type { AppContext } from '../../kernel/context';
import { AppError, notFound, type FieldError } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { PlayerStore, type ConfigRow } from './store';
import { knownSkin } from './skins';
import { PLAYER_VERSIONS } from './defaults';
import type { PlayerDocT } from './model';

const DOMAIN = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(:[0-9]{1,5})?$/;
/** Names that the public paths reserve. */
const RESERVED = new Set(['resolve', 'default']);

/** Semantic checks beyond the schema; each failure is one errors[] entry (422 together). */
export function checkDoc(doc: PlayerDocT & { name?: string }): void {
  const errors: FieldError[] = [];
  if (doc.name !== undefined && RESERVED.has(doc.name)) errors.push({ field: 'name', detail: `"${doc.name}" is reserved` });
  if (doc.skin !== undefined && !knownSkin(doc.skin)) errors.push({ field: 'skin', detail: 'unknown skin; see GET /v1/player-configs/skins' });
  if (doc.version_pin !== undefined && !(PLAYER_VERSIONS as readonly string[]).includes(doc.version_pin)) errors.push({ field: 'version_pin', detail: `must be one of: ${PLAYER_VERSIONS.join(', ')}` });
  doc.embed?.allowed_domains?.forEach((d, i) => { if (!DOMAIN.test(d)) errors.push({ field: `embed.allowed_domains.${i}`, detail: 'a hostname or *.domain (lower case)' }); });
  const p = doc.playback;
  if (p?.start !== undefined && p.end !== undefined && p.end <= p.start) errors.push({ field: 'playback.end', detail: 'must be after playback.start' });
  if (errors.length) throw new AppError('validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; '), { errors });
}

/** The stored document of a row. */
export function docOf(r: ConfigRow): PlayerDocT {
  try { return JSON.parse(r.doc) as PlayerDocT; } catch { return {}; }
}

/** API view of a configuration. */
export function configView(r: ConfigRow) {
  return { id: r.id, name: r.name, ...docOf(r), created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

/** Player configurations: CRUD with validation. */
export class PlayerConfigService {
  readonly store: PlayerStore;
  constructor(private ctx: AppContext) { this.store = new PlayerStore(ctx.db); }

  list(tenantId: string) { return this.store.configs(tenantId).map(configView); }

  row(tenantId: string, id: string): ConfigRow {
    const r = this.store.config(tenantId, id);
    if (!r) throw notFound('player configuration');
    return r;
  }

  create(tenantId: string, body: PlayerDocT & { name: string }) {
    checkDoc(body);
    const { name, ...doc } = body;
    if (this.store.configByName(tenantId, name)) throw new AppError('conflict', `a configuration named "${name}" exists`);
    const now = this.ctx.clock.now();
    const row = { id: newId(), tenant_id: tenantId, name, doc: JSON.stringify(doc), created_at: now, updated_at: now };
    this.store.insertConfig(row);
    return configView({ seq: 0, ...row });
  }

  patch(tenantId: string, id: string, body: PlayerDocT & { name?: string }) {
    checkDoc(body);
    const r = this.row(tenantId, id);
    const { name, ...changes } = body;
    if (name && name !== r.name && this.store.configByName(tenantId, name)) throw new AppError('conflict', `a configuration named "${name}" exists`);
    const doc = { ...docOf(r), ...changes };
    this.store.updateConfig(tenantId, id, name ?? r.name, JSON.stringify(doc), this.ctx.clock.now());
    return configView(this.row(tenantId, id));
  }

  remove(tenantId: string, id: string): void {
    if (!this.store.deleteConfig(tenantId, id)) throw notFound('player configuration');
  }
}
