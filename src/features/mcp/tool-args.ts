import type { z } from 'zod';

/** Where an issue sits, as the SDK writes it (`a.b[0]`). */
function dotPath(path: readonly PropertyKey[]): string {
  if (!path.length) return 'object root';
  return path.reduce<string>((acc, seg, i) => (i === 0 ? String(seg) : typeof seg === 'number' ? `${acc}[${seg}]` : `${acc}.${String(seg)}`), '');
}

/**
 * Checks a tool call's arguments against the tool's input object, synchronously. Servers that answer tools/call
 * register their tools without the input schema (the SDK would check it with an asynchronous parse, a fifth of its
 * cost per call) and call this instead; a refusal reads exactly as the SDK's own (`MCP error -32602: Input validation
 * error: ...`), returned as an isError result.
 */
export function checkArgs(name: string, input: z.ZodObject, raw: unknown): { ok: true; args: Record<string, unknown> } | { ok: false; text: string } {
  const r = input.safeParse(raw ?? {});
  if (r.success) return { ok: true, args: r.data as Record<string, unknown> };
  const detail = r.error.issues.map((i) => (i.path.length ? `${i.message} at ${dotPath(i.path)}` : i.message)).join('\n');
  return { ok: false, text: `MCP error -32602: Input validation error: Invalid arguments for tool ${name}: ${detail}` };
}
