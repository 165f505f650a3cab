/**
 * Plural forms in studio strings, chosen by the language's Intl.PluralRules: `{n, plural, one {# change} other
 * {# changes}}` reads "1 change" / "3 changes"; Hebrew also has `two` ("שני שינויים"). `=N {…}` matches one number
 * exactly; `#` is the number; `other` is required. Text outside the block is left as it is.
 */

const rulesOf = new Map<string, Intl.PluralRules>();

/** The plural category of `n` in a language (one, two, few, many, other). */
export function pluralCategory(lang: string, n: number): string {
  let r = rulesOf.get(lang);
  if (!r) { r = new Intl.PluralRules(lang); rulesOf.set(lang, r); }
  return r.select(n);
}

/** Reads `{k {text} k {text} …}` options after the `plural,` keyword from `i`; returns them and the index after `}`. */
function options(s: string, i: number): { opts: Map<string, string>; end: number } | null {
  const opts = new Map<string, string>();
  for (;;) {
    while (s[i] === ' ') i++;
    if (s[i] === '}') return { opts, end: i + 1 };
    const m = /^(=\d+|[a-z]+)\s*\{/.exec(s.slice(i));
    if (!m) return null;
    let depth = 1, j = i + m[0].length;
    const from = j;
    for (; j < s.length && depth; j++) { if (s[j] === '{') depth++; else if (s[j] === '}') depth--; }
    if (depth) return null;
    opts.set(m[1], s.slice(from, j - 1));
    i = j;
  }
}

/** Expands every plural block of `s` for the numbers in `vars`; blocks naming a missing or non-numeric var stay. */
export function expandPlurals(s: string, lang: string, vars: Record<string, string | number>): string {
  const head = /\{(\w+),\s*plural,/g;
  let out = '', last = 0;
  for (let m = head.exec(s); m; m = head.exec(s)) {
    const n = Number(vars[m[1]]);
    const o = options(s, m.index + m[0].length);
    if (!o || !(m[1] in vars) || !Number.isFinite(n)) continue;
    const text = o.opts.get(`=${n}`) ?? o.opts.get(pluralCategory(lang, n)) ?? o.opts.get('other') ?? '';
    out += s.slice(last, m.index) + text.replaceAll('#', String(vars[m[1]]));
    last = o.end;
    head.lastIndex = o.end;
  }
  return out + s.slice(last);
}
