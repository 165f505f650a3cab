/** Studio language: English and Hebrew dictionaries, the current choice (saved), direction and formatting. */
import { EN, type Key } from './lang/en';
import { HE } from './lang/he';
import { expandPlurals } from './plural';

/** A studio language. */
export type Lang = 'en' | 'he';
const DICTS: Record<Lang, Record<Key, string>> = { en: EN, he: HE };

/** The language the page was served in (the server set <html lang>). */
export function initialLang(): Lang {
  let saved: string | null = null;
  try { saved = localStorage.getItem('vs_lang'); } catch { /* storage off */ }
  if (saved === 'he' || saved === 'en') return saved;
  return document.documentElement.lang === 'he' ? 'he' : 'en';
}

/** Applies a language to the document (lang, dir) and remembers it (storage and a cookie the server reads). */
export function applyLang(l: Lang): void {
  document.documentElement.lang = l;
  document.documentElement.dir = l === 'he' ? 'rtl' : 'ltr';
  try { localStorage.setItem('vs_lang', l); } catch { /* storage off */ }
  document.cookie = `vs_lang=${l}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** A translator for a language: t('key', {name: 'x'}) fills {name}; `{n, plural, one {…} other {…}}` picks by n (plural.ts). */
export function translator(l: Lang) {
  const d = DICTS[l];
  return (k: Key, vars?: Record<string, string | number>): string => {
    let s = d[k] ?? EN[k] ?? k;
    if (vars) s = expandPlurals(s, l, vars);
    if (vars) for (const [n, v] of Object.entries(vars)) s = s.replaceAll(`{${n}}`, String(v));
    return s;
  };
}

/** The translate function type. */
export type T = ReturnType<typeof translator>;
export type { Key };

/** Number, date and duration formatting for a language. */
export function formats(l: Lang) {
  const loc = l === 'he' ? 'he-IL' : 'en-GB';
  const num = new Intl.NumberFormat(loc, { maximumFractionDigits: 1 });
  const int = new Intl.NumberFormat(loc, { maximumFractionDigits: 0 });
  const dt = new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short' });
  const tm = new Intl.DateTimeFormat(loc, { timeStyle: 'medium' });
  const sh = new Intl.DateTimeFormat(loc, { dateStyle: 'short', timeStyle: 'short' });
  return {
    num: (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '—' : num.format(n)),
    int: (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '—' : int.format(Math.round(n))),
    date: (s: string | number | null | undefined) => (s ? dt.format(new Date(s)) : '—'),
    time: (s: string | number) => tm.format(new Date(s)),
    short: (s: string | number | null | undefined) => (s ? sh.format(new Date(s)) : '—'),
    pct: (n: number | null | undefined) => (n === null || n === undefined ? '—' : `${num.format(n * 100)}%`),
    dur: (sec: number | null | undefined) => {
      if (sec === null || sec === undefined) return '—';
      const s = Math.round(sec); const h = Math.floor(s / 3600); const m = Math.floor((s % 3600) / 60); const r = s % 60;
      return h ? `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
    },
    bytes: (b: number) => (b >= 1e9 ? `${num.format(b / 1e9)} GB` : b >= 1e6 ? `${num.format(b / 1e6)} MB` : `${num.format(b / 1e3)} KB`),
  };
}
/** The formatter set type. */
export type Fmt = ReturnType<typeof formats>;
