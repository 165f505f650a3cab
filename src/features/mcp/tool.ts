import { z } from 'zod';
import type { AppContext } from '../../kernel/context';
import type { Principal } from '../../kernel/http/auth';
import type { Scope } from '../../kernel/http/scopes';

/** What a tool runs with: the appliance context and the calling key. */
export interface ToolEnv { ctx: AppContext; p: Principal }

/** A link the result points to (the MCP `resource_link` content item), e.g. the clip a tool created. */
export interface ToolLink { uri: string; name: string; title?: string; mimeType?: string; description?: string }

/** One assistant tool: its scope, schemas and an in-process handler over the feature services. */
export interface ToolDef<I extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** The scope a key needs to see and call the tool. */
  scope: Scope;
  /** False for tools CDN-only tenants may use too (statistics, support); the rest are platform features. */
  platform?: boolean;
  /** Changes data (writes need clips:write, support:write or assets:write); read tools are marked read-only. */
  write: boolean;
  input: I;
  output: z.ZodObject;
  /** Runs the tool; throws AppError on refusal. Returns the structured result (an object). */
  run(env: ToolEnv, args: z.infer<z.ZodObject<I>>): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Resource links for a successful result (clip created → its playlist). */
  links?(result: Record<string, unknown>): ToolLink[];
}

/** A declared tool with its input object schema built once (not per request). */
export type Tool = ToolDef & { inputObject: z.ZodObject };

/** Declares a tool with its argument types inferred from `input`. */
export function tool<I extends z.ZodRawShape>(d: ToolDef<I>): Tool {
  return Object.freeze({ ...(d as unknown as ToolDef), inputObject: z.object(d.input) });
}
