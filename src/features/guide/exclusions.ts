/** One catch-up exclusion rule (tenant setting): a title or series pattern. */
export interface ExclusionRule { field: 'title' | 'series'; pattern: string }

/** Compiles a pattern: case-insensitive, `*` = any text, otherwise the whole field must match. */
function compile(pattern: string): RegExp {
  const esc = pattern.trim().split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${esc}$`, 'iu');
}

/** A predicate telling whether a programme is excluded from catch-up by any rule. */
export function exclusionMatcher(rules: ExclusionRule[]): (p: { title: string; series: string | null }) => boolean {
  const compiled = rules.map((r) => ({ field: r.field, re: compile(r.pattern) }));
  return (p) => compiled.some((r) => r.re.test((r.field === 'title' ? p.title : p.series ?? '').trim()));
}
