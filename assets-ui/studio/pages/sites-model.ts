/** Shapes of the /v1/sites answers the studio's Sites section reads, and small pure helpers (section diff, moves, times). */

/** A section of a page document (as stored: the fields its type uses). */
export interface Section {
  id?: string; type: SectionType; title?: string; item_type?: ItemType; items?: { type: ItemType; slug: string }[];
  query?: { limit?: number; show?: string; channel?: string; series?: string; order?: 'newest' | 'title' };
  channel?: string; text?: string; link?: string; image?: string;
}
/** A page document (draft or live). */
export interface Doc { title: string; description?: string; seo?: { title?: string; description?: string; noindex?: boolean }; sections: Section[] }
/** A page as /v1/sites/{id}/pages answers it. */
export interface SitePage {
  id: string; path: string | null; template_for: string | null; draft: Doc; live: Doc | null; live_version: number | null; status: 'draft' | 'published';
  schedule: { action: 'publish' | 'unpublish'; at: string } | null; review: { requested_by: string; requested_by_name: string | null; requested_at: string } | null; updated_at: string;
}
/** A custom domain with its verification step. */
export interface Domain {
  hostname: string; verified: boolean; verified_at: string | null; method: string | null;
  verification: { token: string; http: { url: string; body: string }; txt: { name: string; value: string } };
}
/** Site settings (the keys the studio edits; others are kept as they are). */
export interface Settings {
  seo?: { title?: string; description?: string; image?: string; twitter?: string; base_url?: string };
  player?: { tenant?: string; config?: string; cdn_hostname?: string };
  language?: string; ai_crawler_mode?: 'allow' | 'block_training' | 'block';
  [k: string]: unknown;
}
/** Theme tokens and CSS. */
export interface Theme { tokens?: Record<string, string | number>; css?: string }
/** A site as /v1/sites answers it. */
export interface Site {
  id: string; slug: string; name: string; status: 'active' | 'suspended'; time_zone: string; settings: Settings;
  theme: { draft: Theme; live: Theme }; domains: { hostname: string; verified: boolean }[]; delivery_url: string; created_at: string; updated_at: string;
}
/** A menu entry (one level of children). */
export interface MenuItem { label: string; path?: string; children?: { label: string; path: string }[] }
/** A named menu with its draft and live items. */
export interface Menu { name: string; draft: MenuItem[]; live: MenuItem[] | null; updated_at: string }
/** A show of the site. */
export interface Show { id: string; slug: string; title: string; description?: string; kind?: 'series' | 'programme' | 'podcast'; episodes?: { assets?: string[]; series?: string; channel?: string }; published?: boolean }
/** A person of the site. */
export interface Person { id: string; slug: string; name: string; role?: string; bio?: string; published?: boolean }
/** A published version of a page. */
export interface Version { version: number; published_at: string; by: string | null; live: boolean }

/** Section types, in the order the "add" list offers them. */
export const SECTION_TYPES = ['text', 'hero', 'rail', 'promo', 'live_player', 'epg'] as const;
/** A section type. */
export type SectionType = (typeof SECTION_TYPES)[number];
/** What rails and heroes list. */
export const ITEM_TYPES = ['video', 'show', 'programme', 'clip', 'channel', 'person'] as const;
/** An item type. */
export type ItemType = (typeof ITEM_TYPES)[number];

/** A new section of a type with the fields it needs. */
export function newSection(type: SectionType): Section {
  switch (type) {
    case 'rail': return { type, title: '', item_type: 'video', query: { limit: 12 } };
    case 'hero': return { type, title: '', item_type: 'video', items: [] };
    case 'text': return { type, title: '', text: '' };
    case 'promo': return { type, title: '', text: '', link: '', image: '' };
    default: return { type, title: '', channel: '' };
  }
}

/** The array with item i moved by d places (unchanged when that leaves the array). */
export function move<T>(a: T[], i: number, d: number): T[] {
  const j = i + d;
  if (j < 0 || j >= a.length) return a;
  const out = [...a];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** A section ready to send: empty optional strings dropped (the API takes absent, not ""). */
export function cleanSection(s: Section): Section {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) if (v !== '' && v !== undefined && !(k === 'query' && s.items?.length)) out[k] = v;
  return out as unknown as Section;
}

/** How a section of the draft differs from the live page: added, changed, same; and the live sections the draft removed. */
export function diffSections(draft: Section[], live: Section[] | null): { draft: ('added' | 'changed' | 'same')[]; removed: Section[] } {
  const byId = new Map((live ?? []).map((s) => [s.id, s]));
  const kept = new Set<string | undefined>();
  const marks = draft.map((s) => {
    const l = s.id ? byId.get(s.id) : undefined;
    if (!l) return 'added' as const;
    kept.add(s.id);
    return JSON.stringify(cleanSection(l)) === JSON.stringify(cleanSection(s)) ? 'same' as const : 'changed' as const;
  });
  return { draft: marks, removed: (live ?? []).filter((s) => !kept.has(s.id)) };
}

/** The management path of a site (and a part of it). */
export const siteApi = (id: string, rest = '') => `/v1/sites/${encodeURIComponent(id)}${rest}`;
/** The studio path of a site tab or a page editor. */
export const siteHref = (id: string, rest = '') => `/studio/sites/${encodeURIComponent(id)}${rest}`;
