import { lookup, resolveTxt } from 'node:dns/promises';
import { AppError, notFound } from '../../kernel/errors';
import { iso } from '../../kernel/clock';
import { randomToken } from '../../kernel/ids';
import { blockedReason, parseCidr, parseIp } from '../../kernel/net/ip';
import type { SiteService } from './service';
import type { DomainRow } from './store';

/** The file a domain's HTTP check reads: `http://<host>/.well-known/viewstream-site.txt` answers the token. */
export const VERIFY_FILE = '/.well-known/viewstream-site.txt';

/** A domain as answered, with what to publish to prove it. */
export function domainView(d: DomainRow, port: number): Record<string, unknown> {
  return {
    hostname: d.hostname, verified: d.verified_at !== null, verified_at: d.verified_at ? iso(d.verified_at) : null, method: d.method,
    verification: {
      token: d.token,
      http: { url: `http://${d.hostname}${port === 80 ? '' : `:${port}`}${VERIFY_FILE}`, body: d.token },
      txt: { name: `_viewstream.${d.hostname}`, value: `viewstream-site=${d.token}` },
    },
  };
}

/** Custom domains: add (pending, with a token), verify by HTTP file or DNS TXT record, remove, host lookup. */
export class DomainService {
  constructor(private sites: SiteService) {}

  /** POST /v1/sites/{id}/domains: a host name on one site only (409 when another has it). */
  add(tenantId: string, siteId: string, hostname: string): DomainRow {
    const s = this.sites.get(tenantId, siteId);
    if (this.sites.store.domain(hostname)) throw new AppError('conflict', `domain "${hostname}" belongs to a site already`);
    const row: DomainRow = { hostname, site_id: s.id, token: randomToken(18), verified_at: null, method: null, created_at: this.sites.ctx.clock.now() };
    this.sites.store.insertDomain(row);
    this.sites.bump(s.id);
    return row;
  }

  /** A domain of the site or 404. */
  get(tenantId: string, siteId: string, hostname: string): DomainRow {
    const s = this.sites.get(tenantId, siteId);
    const d = this.sites.store.domain(hostname);
    if (!d || d.site_id !== s.id) throw notFound('domain');
    return d;
  }

  /** POST .../verify: the token must be served over HTTP (or be in the TXT record); otherwise 422 saying what was found. */
  async verify(tenantId: string, siteId: string, hostname: string, method: 'http' | 'txt'): Promise<DomainRow> {
    const d = this.get(tenantId, siteId, hostname);
    const ok = method === 'txt' ? await this.txtHas(d) : await this.httpHas(d);
    if (ok !== true) throw new AppError('validation_error', `domain not verified: ${ok}`, { errors: [{ field: 'hostname', detail: ok }] });
    this.sites.store.verifyDomain(hostname, method, this.sites.ctx.clock.now());
    this.sites.bump(d.site_id);
    return this.sites.store.domain(hostname)!;
  }

  /** DELETE .../domains/{hostname}. */
  remove(tenantId: string, siteId: string, hostname: string): void {
    const d = this.get(tenantId, siteId, hostname);
    this.sites.store.deleteDomain(d.hostname);
    this.sites.bump(d.site_id);
  }

  private async txtHas(d: DomainRow): Promise<true | string> {
    try {
      const recs = (await resolveTxt(`_viewstream.${d.hostname}`)).map((r) => r.join(''));
      return recs.includes(`viewstream-site=${d.token}`) ? true : 'the TXT record does not hold the token';
    } catch (e) { return `no TXT record (${(e as { code?: string }).code ?? 'lookup failed'})`; }
  }

  private async httpHas(d: DomainRow): Promise<true | string> {
    const cfg = this.sites.ctx.config;
    let addr: string;
    try { addr = (await lookup(d.hostname)).address; } catch { return 'the host name does not resolve'; }
    const ip = parseIp(addr);
    const why = ip && blockedReason(ip, cfg.privateAllowlist.map(parseCidr));
    if (!ip || why) return `the host name resolves to a refused address (${why ?? addr})`;
    const url = `http://${d.hostname}${cfg.sites.verifyHttpPort === 80 ? '' : `:${cfg.sites.verifyHttpPort}`}${VERIFY_FILE}`;
    try {
      const r = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
      const body = (await r.text()).slice(0, 1000).trim();
      return r.status === 200 && body === d.token ? true : `${url} answered ${r.status} without the token`;
    } catch (e) { return `${url} could not be read (${(e as Error).name})`; }
  }
}
