import type { Principal } from '../../kernel/http/auth';
import { AppError } from '../../kernel/errors';
import type { Tool, ToolDef } from './tool';
import { libraryReadTools, libraryWriteTools } from './tools-library';
import { liveReadTools } from './tools-live';
import { statsTools } from './tools-stats';
import { writeTools } from './tools-write';

/** Every assistant tool (no delete tool exists by design). */
export const TOOLS: readonly Tool[] = Object.freeze([...libraryReadTools, ...liveReadTools, ...statsTools, ...libraryWriteTools, ...writeTools]);

const BY_NAME: ReadonlyMap<string, Tool> = new Map(TOOLS.map((t) => [t.name, t]));

/** A tool by name, or undefined. */
export function toolNamed(name: string): Tool | undefined { return BY_NAME.get(name); }

/** Why a key may not use a tool (its scope, or a platform feature for a CDN-only tenant), or null when it may. */
export function refusalOf(p: Principal, t: ToolDef): AppError | null {
  if (!p.scopes.has(t.scope)) return new AppError('insufficient_scope', t.scope);
  if (p.cdnOnly && t.platform !== false) return new AppError('feature_disabled', 'not available to CDN-only tenants');
  return null;
}

/** The tools a key may use: its scopes allow them and, for CDN-only tenants, they are not platform features. */
export function toolsFor(p: Principal): Tool[] { return TOOLS.filter((t) => p.scopes.has(t.scope) && !(p.cdnOnly && t.platform !== false)); }
