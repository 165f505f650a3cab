/** Most references one call may carry. */
export const MAX_REFS = 500;

/** Collects the string values at a dot path (`*` walks arrays; a final array of strings is flattened). */
export function extractRefs(body: unknown, path: string): string[] {
  let nodes: unknown[] = [body];
  for (const seg of path.split('.')) {
    const next: unknown[] = [];
    for (const n of nodes) {
      if (seg === '*') { if (Array.isArray(n)) next.push(...n); continue; }
      if (n && typeof n === 'object' && !Array.isArray(n) && Object.prototype.hasOwnProperty.call(n, seg)) next.push((n as Record<string, unknown>)[seg]);
    }
    nodes = next;
  }
  const out = new Set<string>();
  for (const n of nodes.flat()) if (typeof n === 'string' && n.length > 0 && n.length <= 200) out.add(n);
  return [...out].slice(0, MAX_REFS);
}

/** True when a mapping path is well formed (non-empty segments of letters, digits, `_`, `-`, or `*`). */
export function validPath(path: string): boolean {
  return path.split('.').every((s) => s === '*' || /^[A-Za-z0-9_-]{1,64}$/.test(s));
}
