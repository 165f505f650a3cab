/**
 * TypeBox (Elysia) schemas to plain OpenAPI 3.1 JSON Schema: Elysia's coercing unions (`t.Integer` is
 * `anyOf[string format integer, integer]`) become the type they coerce to, literal unions become enums, records
 * become `additionalProperties`, files become binary strings.
 */

type Json = Record<string, unknown>;

/** String branches Elysia adds so query/form text can be coerced; the documented type is the other branch. */
const COERCING_FORMATS = new Set(['integer', 'numeric', 'boolean', 'ObjectString', 'ArrayString']);

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns a clean copy of a schema (symbols dropped, Elysia's coercion unions collapsed). */
export function cleanSchema(input: unknown): Json {
  const s = JSON.parse(JSON.stringify(input ?? {})) as Json;
  return walk(s);
}

function walk(s: Json): Json {
  let out: Json = { ...s };
  if (Array.isArray(out.anyOf)) {
    const branches = (out.anyOf as Json[]).map(walk);
    const kept = branches.filter((b) => !(b.type === 'string' && COERCING_FORMATS.has(String(b.format))) && b.type !== 'Date');
    const { anyOf: _drop, ...outer } = out;
    if (kept.length === 1) out = { ...kept[0], ...outer };
    else if (kept.length && kept.every((b) => b.const !== undefined && typeof b.const === typeof kept[0].const && Object.keys(b).every((k) => k === 'const' || k === 'type'))) {
      out = { type: kept[0].type ?? typeof kept[0].const, enum: kept.map((b) => b.const), ...outer };
    } else out = { ...outer, anyOf: kept.length ? kept : branches };
  }
  // A coerced number keeps no leftover string default (`default: 0` of the text branch).
  if (out.type === 'integer' || out.type === 'number') { if (out.default === 0 && s.anyOf) delete out.default; }
  if (out.type === 'string' && out.format === 'binary') { delete out.default; out.contentMediaType = 'application/octet-stream'; delete out.format; }
  // t.Files (several uploads): Elysia's own marker and its default are no schema keywords.
  if (out.elysiaMeta === 'Files') { delete out.elysiaMeta; delete out.default; }
  if (isObj(out.properties)) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, walk(v as Json)]));
  if (isObj(out.patternProperties)) {
    const entries = Object.entries(out.patternProperties);
    if (entries.length === 1 && entries[0][0] === '^(.*)$') {
      out.additionalProperties = walk(entries[0][1] as Json);
      delete out.patternProperties;
    }
  }
  if (isObj(out.additionalProperties)) out.additionalProperties = walk(out.additionalProperties);
  if (isObj(out.items)) out.items = walk(out.items);
  for (const k of ['oneOf', 'allOf'] as const) if (Array.isArray(out[k])) out[k] = (out[k] as Json[]).map(walk);
  if (out.type === 'object' && Array.isArray(out.required) && !(out.required as unknown[]).length) delete out.required;
  return out;
}

/** True when a TypeBox schema was wrapped in `t.Optional` (an optional request body). */
export function isOptionalSchema(s: unknown): boolean {
  return isObj(s) && (s as Record<symbol, unknown>)[Symbol.for('TypeBox.Optional')] === 'Optional';
}
