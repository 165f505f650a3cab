/**
 * Search text folding shared by indexing and querying: NFKD, combining marks removed (Hebrew niqqud and
 * cantillation, Latin accents), Hebrew final letters mapped to their base forms, lower case. Queries become
 * FTS5 prefix terms ANDed together, so "שלו" finds "שָׁלוֹם" and "vid" finds "Video".
 */

const FINALS: Record<string, string> = { 'ך': 'כ', 'ם': 'מ', 'ן': 'נ', 'ף': 'פ', 'ץ': 'צ' };

/** Folds text for the search index and for queries. */
export function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ךםןףץ]/g, (c) => FINALS[c])
    .replace(/[\u05BE\u05F3\u05F4"'`]/g, ' ') // maqaf, geresh, gershayim and quotes split or join words alike
    .toLowerCase();
}

/** Builds an FTS5 MATCH expression from a user query: each folded word a quoted prefix term; null when empty. */
export function ftsQuery(q: string): string | null {
  const words = foldText(q).split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 20);
  if (!words.length) return null;
  return words.map((w) => `"${w}"*`).join(' AND ');
}

/** The indexed text of an asset: title, external id and string values of metadata (bounded). */
export function indexText(a: { title: string; external_id: string | null; metadata: string }): string {
  const parts = [a.title, a.external_id ?? ''];
  try {
    const walk = (v: unknown, depth: number): void => {
      if (depth > 4 || parts.join(' ').length > 8000) return;
      if (typeof v === 'string') parts.push(v);
      else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
      else if (v && typeof v === 'object') Object.values(v).forEach((x) => walk(x, depth + 1));
    };
    walk(JSON.parse(a.metadata), 0);
  } catch { /* metadata is always JSON; ignore if not */ }
  return foldText(parts.join(' ').slice(0, 8000));
}
