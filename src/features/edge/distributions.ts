import type { AppContext } from '../../kernel/context';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { newId } from '../../kernel/ids';
import { tx } from '../../kernel/db/sqlite';
import { edgeOf } from './port';
import { SiteService } from '../sites/service';
import { DistributionStore, type DistributionRecord } from './distributions-store';
import { checkCacheRules, checkHostnames, checkMethods, checkTls, resolveOrigin, tlsFactsOf, type CacheRules } from './distributions-check';

/** Most distributions per tenant. */
export const DISTRIBUTIONS_PER_TENANT = 50;

/** A distribution as the API takes it (create: `hostnames` and `origin` required; patch: any). */
export interface DistributionInput {
  name?: string;
  hostnames?: string[];
  origin?: { kind: 'delivery' } | { kind: 'url'; url: string };
  cache_rules?: Partial<CacheRules>;
  allowed_methods?: string[];
  tls?: { certificate_file: string; key_file: string } | null;
  enabled?: boolean;
}

/** The caller as the service needs it. */
export interface DistributionCaller { tenantId: string; cdnOnly: boolean }

/** A distribution as the edge renders it. */
export interface EdgeDistribution {
  id: string; tenant: string; hostnames: string[]; enabled: boolean; originUrl: string | null;
  rules: CacheRules; methods: string[]; tls: { certificate: string; key: string } | null;
}

/** Pure: a stored distribution as the edge renders it (also read by `viewstream edge config` from the database). */
export function edgeViewOf(r: DistributionRecord): EdgeDistribution {
  return {
    id: r.id, tenant: r.tenant_id, hostnames: r.hostnames, enabled: r.enabled === 1, originUrl: r.origin_kind === 'url' ? r.origin_url : null,
    rules: JSON.parse(r.cache_rules) as CacheRules, methods: JSON.parse(r.allowed_methods) as string[],
    tls: r.tls_certificate && r.tls_key ? { certificate: r.tls_certificate, key: r.tls_key } : null,
  };
}

/** The hosts of the appliance's own addresses (no distribution may take them). */
function ownHosts(ctx: AppContext): string[] {
  const out: string[] = [];
  for (const u of [ctx.config.baseUrl, ctx.config.cdnBaseUrl, ctx.config.playerUrl]) { try { if (u) out.push(new URL(u).hostname.toLowerCase()); } catch { /* not a URL */ } }
  return out;
}

/**
 * CDN distributions (issue 46; docs/edge.md "CDN distributions"): hostnames the edge serves for a tenant and where
 * their answers come from. Every change is checked (hostnames unique across tenants, origin addresses public unless
 * allowed, TLS files readable and matching), stored, and the running edge is reconfigured before the answer leaves.
 */
export class DistributionService {
  private store: DistributionStore;
  constructor(private ctx: AppContext) { this.store = new DistributionStore(ctx.db); }

  /** GET /v1/cdn/distributions. */
  list(tenantId: string) { return { items: this.store.list(tenantId).map((r) => this.view(r)) }; }

  /** Every distribution of every tenant with its parsed rules (what the edge renders). */
  forEdge(): EdgeDistribution[] { return this.store.all().map(edgeViewOf); }

  /** GET /v1/cdn/distributions/{id}: 404 for another tenant's id. */
  get(tenantId: string, id: string) { return this.view(this.must(tenantId, id)); }

  /** POST /v1/cdn/distributions. */
  async create(c: DistributionCaller, body: DistributionInput) {
    if (this.store.count(c.tenantId) >= DISTRIBUTIONS_PER_TENANT) throw new AppError('conflict', `at most ${DISTRIBUTIONS_PER_TENANT} distributions per tenant`);
    const now = this.ctx.clock.now();
    const base: DistributionRecord = {
      id: newId(), tenant_id: c.tenantId, name: '', origin_kind: 'url', origin_url: null, cache_rules: '{}', allowed_methods: '[]',
      tls_certificate: null, tls_key: null, enabled: 1, created_at: now, updated_at: now, hostnames: [],
    };
    const rec = await this.merge(c, base, body, true);
    await this.commit(rec);
    return this.view(rec);
  }

  /** PATCH /v1/cdn/distributions/{id}: the fields given replace the stored ones. */
  async update(c: DistributionCaller, id: string, body: DistributionInput) {
    const rec = await this.merge(c, this.must(c.tenantId, id), body, false);
    rec.updated_at = this.ctx.clock.now();
    await this.commit(rec);
    return this.view(rec);
  }

  /** DELETE /v1/cdn/distributions/{id}. */
  async remove(tenantId: string, id: string): Promise<void> {
    this.must(tenantId, id);
    tx(this.ctx.db, () => this.store.delete(id));
    await this.reconfigure();
  }

  private must(tenantId: string, id: string): DistributionRecord {
    const r = this.store.get(tenantId, id);
    if (!r) throw notFound('distribution');
    return r;
  }

  /** The stored record with `body` applied and checked (422 / 409). */
  private async merge(c: DistributionCaller, cur: DistributionRecord, body: DistributionInput, creating: boolean): Promise<DistributionRecord> {
    const r = { ...cur };
    if (creating && (!body.hostnames || !body.origin)) throw invalid(body.hostnames ? 'origin' : 'hostnames', 'required');
    if (body.hostnames) {
      r.hostnames = checkHostnames(body.hostnames, ownHosts(this.ctx));
      const sites = new SiteService(this.ctx);
      const theirs = r.hostnames.find((h) => { const t = sites.verifiedDomainTenant(h); return t !== null && t !== c.tenantId; });
      if (theirs) throw new AppError('conflict', `${theirs} is another tenant's verified site domain`);
    }
    if (body.origin) {
      if (body.origin.kind === 'delivery') {
        if (c.cdnOnly) throw invalid('origin.kind', 'a CDN-only tenant has no delivery of its own: give an external origin url');
        r.origin_kind = 'delivery'; r.origin_url = null;
      } else {
        r.origin_kind = 'url';
        r.origin_url = (await resolveOrigin(body.origin.url, this.ctx.config.cdnOriginAllow)).url.toString();
      }
    }
    if (body.cache_rules !== undefined || creating) r.cache_rules = JSON.stringify(checkCacheRules(body.cache_rules));
    const rules = JSON.parse(r.cache_rules) as CacheRules;
    if (r.origin_kind === 'delivery' && (rules.ttl_overrides.length || rules.default_ttl_s || rules.query_string !== 'include')) {
      throw invalid('cache_rules', 'cache rules apply to external origins; the delivery\'s own answers are cached as the appliance says');
    }
    if (body.allowed_methods !== undefined || creating) r.allowed_methods = JSON.stringify(checkMethods(body.allowed_methods));
    if (body.tls !== undefined) {
      if (body.tls === null) { r.tls_certificate = null; r.tls_key = null; } else {
        checkTls(body.tls);
        r.tls_certificate = body.tls.certificate_file; r.tls_key = body.tls.key_file;
      }
    }
    if (body.name !== undefined) r.name = body.name;
    if (!r.name) r.name = r.hostnames[0] ?? r.id;
    if (body.enabled !== undefined) r.enabled = body.enabled ? 1 : 0;
    return r;
  }

  /** Stores the record (hostnames claimed by another distribution, of any tenant: 409) and reconfigures the edge. */
  private async commit(rec: DistributionRecord): Promise<void> {
    tx(this.ctx.db, () => {
      const taken = this.store.taken(rec.hostnames, rec.id);
      if (taken.length) throw new AppError('conflict', `hostname already served by another distribution: ${taken.join(', ')}`);
      this.store.save(rec);
    });
    await this.reconfigure();
  }

  /** The running edge takes the change (a failure is logged: the stored distribution is applied at the next start). */
  private async reconfigure(): Promise<void> {
    const re = edgeOf(this.ctx).reconfigure;
    if (!re) return;
    try { await re(); } catch (e) { this.ctx.log.error('edge: distributions not applied', { error: String(e) }); }
  }

  /** The API's view of a record. */
  view(r: DistributionRecord) {
    const rules = JSON.parse(r.cache_rules) as CacheRules;
    const tls = r.tls_certificate && r.tls_key ? { certificate_file: r.tls_certificate, key_file: r.tls_key, ...(tlsFactsOf(r.tls_certificate, r.tls_key) ?? { names: [], not_after: '' }) } : null;
    return {
      id: r.id, name: r.name, hostnames: r.hostnames,
      origin: r.origin_kind === 'url' ? { kind: 'url', url: r.origin_url! } : { kind: 'delivery' },
      cache_rules: rules, allowed_methods: JSON.parse(r.allowed_methods) as string[], tls, enabled: r.enabled === 1,
      edge: { active: r.enabled === 1 && !!edgeOf(this.ctx).reconfigure },
      created_at: iso(r.created_at), updated_at: iso(r.updated_at),
    };
  }
}
