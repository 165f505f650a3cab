import { foldText } from '../assets/search';

const FIELDS = ['title', 'series', 'description'] as const;

/** Which field a search hit matched and a short snippet of the original text around the first matching word. */
export function matchOf(p: { title: string; series: string | null; description: string | null }, terms: string[]): { field: string; snippet: string } {
  for (const field of FIELDS) {
    const text = p[field] ?? '';
    const words = text.split(/\s+/).filter(Boolean);
    const idx = words.findIndex((w) => {
      const f = foldText(w).replace(/[^\p{L}\p{N}]/gu, '');
      return terms.some((t) => f.startsWith(t) || f.slice(1).startsWith(t) || f.slice(2).startsWith(t));
    });
    if (idx < 0) continue;
    const from = Math.max(0, idx - 8), to = Math.min(words.length, idx + 12);
    return { field, snippet: `${from > 0 ? '…' : ''}${words.slice(from, to).join(' ')}${to < words.length ? '…' : ''}` };
  }
  return { field: 'title', snippet: p.title };
}
