import type { TestServer } from '../helpers/server';

/** Id of tenant `default` of a test server. */
export function defaultTenantId(s: TestServer): string {
  return s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
}
