import type { Principal } from '../../kernel/http/auth';
import type { ToolDef } from './tool';
import { libraryReadTools, libraryWriteTools } from './tools-library';
import { liveReadTools } from './tools-live';
import { statsTools } from './tools-stats';
import { writeTools } from './tools-write';

/** Every assistant tool (no delete tool exists by design). */
export const TOOLS: readonly ToolDef[] = Object.freeze([...libraryReadTools, ...liveReadTools, ...statsTools, ...libraryWriteTools, ...writeTools]);

const BY_NAME: ReadonlyMap<string, ToolDef> = new Map(TOOLS.map((t) => [t.name, t]));

/** A tool by name, or undefined. */
export function toolNamed(name: string): ToolDef | undefined { return BY_NAME.get(name); }

/** The tools a key's scopes allow. */
export function toolsFor(p: Principal): ToolDef[] { return TOOLS.filter((t) => p.scopes.has(t.scope)); }
