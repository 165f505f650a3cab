import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { isUuid, newId } from '../../kernel/ids';
import { baseLanguage } from '../../engines/asr/types';
import { cleanCueText, type Cue } from '../../text/cue-text';
import { glossaryPrompt, glossaryRules, replaceWords, type GlossaryTerm } from '../../text/glossary';
import { searchTokens } from '../../text/hebrew-search';
import type { Page } from '../../kernel/http/pagination';
import { editText } from './cues-ops';
import { GlossaryStore, type GlossaryRow } from './glossary-store';

/** A new or changed entry. */
export interface GlossaryIn { term?: string; variants?: string[]; language?: string | null }

/** What a glossary pass changed: replacements, cues touched, per term. */
export interface GlossaryCounts { replacements: number; cues: number; terms: { term: string; count: number }[] }

const clean = (s: string, field: string) => {
  const v = cleanCueText(s).replace(/\n/g, ' ');
  if (!searchTokens(v).length) throw invalid(field, 'needs at least one letter or digit');
  return v;
};

/** The tenant glossary: entries CRUD, the engine prompt of a language, and whole-word corrections of cue texts. */
export class GlossaryService {
  private readonly store: GlossaryStore;
  constructor(private readonly ctx: AppContext) { this.store = new GlossaryStore(ctx.db); }

  /** One entry (404 for another tenant's). */
  get(tenantId: string, id: string): GlossaryRow {
    const r = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!r) throw notFound('glossary entry');
    return r;
  }

  /** A page of entries, oldest first, optionally of one language (with the language-less ones). */
  list(tenantId: string, language: string | null, cursor: string | undefined, limit: number): Page<GlossaryRow> {
    const scope = `glossary:${tenantId}:${language ?? ''}`;
    const after = cursor ? this.ctx.cursors.decode(scope, cursor) : 0;
    const rows = this.store.list(tenantId, language, after, limit + 1);
    const more = rows.length > limit;
    const items = more ? rows.slice(0, limit) : rows;
    return { items, next_cursor: more ? this.ctx.cursors.encode(scope, items[items.length - 1]!.seq) : null };
  }

  /** Adds an entry; the same term (in search form) for the same language twice is 409. */
  create(tenantId: string, v: GlossaryIn & { term: string }): GlossaryRow {
    const term = clean(v.term, 'term');
    const variants = [...new Set((v.variants ?? []).map((x, i) => clean(x, `variants[${i}]`)))];
    const now = this.ctx.clock.now(), id = newId();
    const row = { id, tenant_id: tenantId, term, variants: JSON.stringify(variants), language: v.language ?? null, norm_key: searchTokens(term).join(' '), created_at: now, updated_at: now };
    if (!this.store.insert(row)) throw new AppError('conflict', `"${term}" is in the glossary already${row.language ? ` for ${row.language}` : ''}`);
    return this.get(tenantId, id);
  }

  /** Changes an entry. */
  update(tenantId: string, id: string, v: GlossaryIn): GlossaryRow {
    const r = this.get(tenantId, id);
    const term = v.term !== undefined ? clean(v.term, 'term') : r.term;
    const next: GlossaryRow = {
      ...r, term, norm_key: searchTokens(term).join(' '), language: v.language !== undefined ? v.language : r.language,
      variants: v.variants ? JSON.stringify([...new Set(v.variants.map((x, i) => clean(x, `variants[${i}]`)))]) : r.variants, updated_at: this.ctx.clock.now(),
    };
    if (this.store.clash(tenantId, next.language, next.norm_key, id)) throw new AppError('conflict', `"${term}" is in the glossary already`);
    this.store.update(next);
    return this.get(tenantId, id);
  }

  /** Deletes an entry. */
  delete(tenantId: string, id: string): void {
    if (!this.store.delete(tenantId, this.get(tenantId, id).id)) throw notFound('glossary entry');
  }

  /** The entries that apply to `language` (its own and the language-less ones), at most 5,000. */
  termsFor(tenantId: string, language: string): GlossaryTerm[] {
    const base = baseLanguage(language);
    return this.store.list(tenantId, null, 0, 5000)
      .filter((r) => r.language === null || baseLanguage(r.language) === base)
      .map((r) => ({ term: r.term, variants: JSON.parse(r.variants) as string[] }));
  }

  /** The speech engine prompt for `language`: the terms, comma separated (empty when none). */
  prompt(tenantId: string, language: string): string {
    return glossaryPrompt(this.termsFor(tenantId, language).map((g) => g.term));
  }

  /** A corrector of cue texts by the glossary of `language` (null when the glossary has nothing for it). */
  corrector(tenantId: string, language: string): ((text: string) => { text: string; count: number; byTerm: Map<string, number> }) | null {
    const terms = this.termsFor(tenantId, language);
    if (!terms.length) return null;
    const rules = glossaryRules(terms);
    return (text) => {
      const r = replaceWords(text, rules);
      const byTerm = new Map<string, number>();
      for (const [tag, n] of r.byTag) byTerm.set(terms[tag]!.term, (byTerm.get(terms[tag]!.term) ?? 0) + n);
      return { text: r.text, count: r.count, byTerm };
    };
  }
}

/**
 * Glossary corrections of freshly recognised cues (recognition jobs of asset and channel tracks): each cue's text
 * corrected by the tenant glossary of `language`, re-broken onto the line rules (a correction that cannot fit is left
 * out). Returns the cues and what changed (null when the glossary has nothing for the language).
 */
export function correctCues(ctx: AppContext, tenantId: string, language: string, cues: Cue[]): { cues: Cue[]; corrections: GlossaryCounts | null } {
  const fix = new GlossaryService(ctx).corrector(tenantId, language);
  if (!fix) return { cues, corrections: null };
  const terms = new Map<string, number>();
  let replacements = 0, touched = 0;
  const out = cues.map((c) => {
    const x = fix(c.text);
    if (!x.count || x.text === c.text) return c;
    let text: string;
    try { text = editText(x.text); } catch { return c; }
    replacements += x.count; touched++;
    for (const [t, n] of x.byTerm) terms.set(t, (terms.get(t) ?? 0) + n);
    return { ...c, text };
  });
  return { cues: out, corrections: { replacements, cues: touched, terms: [...terms].map(([term, count]) => ({ term, count })) } };
}
