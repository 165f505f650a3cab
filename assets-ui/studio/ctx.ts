/** The app-wide context: language, translator, formatters, the signed-in person and the tenant's branding. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Fmt, Lang, T } from './i18n';
import type { ApiClient } from './api';

/** GET /v1/session answer (the parts the studio uses). */
export interface Me {
  user: { id: string; email: string; name: string };
  tenants: { id: string; slug: string; name: string; role: string }[];
  current_tenant: { id: string; slug: string; name: string; role: string; cdn_hostname?: string } | null;
  scopes: string[];
  csrf_token: string;
}

/** Tenant branding as GET /v1/settings answers it. */
export interface Brand { name: string; slug: string; logo_url: string | null; colors: { primary: string; accent: string; background: string; text: string } }

/** What every page can read. */
export interface Studio {
  lang: Lang; t: T; f: Fmt; me: Me | null; brand: Brand | null;
  setLang(l: Lang): void; setMe(m: Me | null): void; refreshBrand(): void;
  can(scope: string): boolean;
  /** The API client and its two callers (bound). */
  client: ApiClient; api: ApiClient['api']; get: ApiClient['get'];
  /** Answers kept across route changes (a page comes back with its last data at once, then refreshes). */
  cache: Map<string, unknown>;
}

/** The studio context object. */
export const StudioCtx = createContext<Studio>(null as unknown as Studio);
/** Reads the studio context. */
export const useStudio = () => useContext(StudioCtx);
