import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import shipped from '../../../config/ladders.yml' with { type: 'text' };
import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';
import type { Ladder } from '../../media/ladder';

/** The ladder configuration: named ladders, the default one and per-tenant defaults (by tenant slug). */
export interface LadderConfig { default: string; tenant_defaults: Record<string, string>; ladders: Record<string, Ladder> }

/** Parses and checks a ladders YAML document; throws with the offending key. */
export function parseLadders(text: string): LadderConfig {
  const doc = parse(text) as LadderConfig;
  if (!doc || typeof doc !== 'object' || !doc.ladders) throw new Error('ladders.yml: `ladders` missing');
  for (const [name, l] of Object.entries(doc.ladders)) {
    if (!Array.isArray(l.renditions) || !l.renditions.length) throw new Error(`ladders.yml: ladder ${name} has no renditions`);
    for (const r of l.renditions) if (!(r.height >= 16 && r.video_k > 0)) throw new Error(`ladders.yml: ladder ${name} rung ${r.name} invalid`);
    if (!(l.segment_s > 0 && l.keyframe_s > 0 && l.segment_s % l.keyframe_s === 0)) throw new Error(`ladders.yml: ladder ${name}: segment_s must be a multiple of keyframe_s`);
  }
  if (!doc.ladders[doc.default]) throw new Error(`ladders.yml: default ladder ${doc.default} not defined`);
  doc.tenant_defaults ??= {};
  return doc;
}

/** Reads the ladders from `<data>/config/ladders.yml` when present, else the shipped config/ladders.yml (no cache). */
export function readLadders(dataDir: string): LadderConfig {
  const local = join(dataDir, 'config', 'ladders.yml');
  return parseLadders(existsSync(local) ? readFileSync(local, 'utf8') : shipped);
}

const LADDERS = slotKey<LadderConfig>('transcode.ladders');

/** The app's ladder configuration, read once per app (kept in the context's slots, not in this module). */
export function laddersOf(ctx: Pick<AppContext, 'slots' | 'config'>): LadderConfig {
  return ctx.slots.get(LADDERS, () => readLadders(ctx.config.dataDir));
}

/** Picks the ladder: the asked name, else the tenant's default, else the global default; null when unknown. */
export function pickLadder(cfg: LadderConfig, asked: string | null | undefined, tenantSlug: string | null): { name: string; ladder: Ladder } | null {
  const name = asked || (tenantSlug ? cfg.tenant_defaults[tenantSlug] : undefined) || cfg.default;
  const ladder = cfg.ladders[name];
  return ladder ? { name, ladder } : null;
}
