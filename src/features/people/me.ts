import type { Principal } from '../../kernel/http/auth';

/** The `/v1/me` answer for a studio session: the person, every membership, the current tenant (null until chosen), its scopes. */
export function sessionMe(p: Principal, cdnHostname: string) {
  const s = p.session!;
  const cur = p.tenantId ? s.tenants.find((t) => t.id === p.tenantId) ?? null : null;
  return {
    auth: 'session' as const,
    user: s.user,
    tenants: s.tenants,
    current_tenant: cur ? { ...cur, cdn_hostname: cdnHostname } : null,
    scopes: [...p.scopes],
  };
}
