import type { AppContext } from '../../kernel/context';
import { SiteStore } from './store';
import { siteBase } from './feeds';

/**
 * The public page address of a guide programme on the tenant's site (its first active site): `<site>/p/<id>`, with
 * the site's address from its SEO base URL or first verified domain; null when the tenant has no site.
 */
export function programmeUrl(ctx: AppContext, tenantId: string, programmeId: string): string | null {
  const store = new SiteStore(ctx.db);
  const site = store.firstSiteOfTenant(tenantId);
  if (!site) return null;
  return `${siteBase({ ctx, site, store })}/p/${encodeURIComponent(programmeId)}`;
}
