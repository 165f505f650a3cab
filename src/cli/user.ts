import { join } from 'node:path';
import { loadConfig, withAddresses } from '../kernel/config/load';
import { openDb } from '../kernel/db/sqlite';
import { systemClock } from '../kernel/clock';
import { KeyCache } from '../kernel/http/auth';
import { Slots } from '../kernel/slots';
import { createLogger } from '../kernel/log';
import { isRole } from '../kernel/http/scopes';
import { IdentityService } from '../features/identity/service';
import { TeamService } from '../features/team/service';
import type { Cli } from './args';

/**
 * `viewstream user create --email E --tenant SLUG --role R [--name N] [--password-stdin] [--json]`: with
 * --password-stdin the user is created with the password read from standard input; otherwise a one-time link
 * (valid 7 days) is printed with which the person sets their own password.
 */
export async function userCreate(flags: Cli['flags']): Promise<number> {
  if (typeof flags.email !== 'string') throw new Error('--email is required');
  if (typeof flags.tenant !== 'string') throw new Error('--tenant is required');
  const role = flags.role;
  if (typeof role !== 'string' || !isRole(role)) throw new Error(`--role must be one of owner, admin, engineer, publisher, editor, viewer`);
  const base = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  const config = withAddresses(base, base.port);
  const db = openDb(join(config.dataDir, 'db', 'meta.sqlite'), { dataDir: config.dataDir });
  try {
    const ctx = { db, clock: systemClock, keys: new KeyCache(() => null), config, log: createLogger('warn'), slots: new Slots() };
    const t = new IdentityService(db, null).tenant(flags.tenant);
    const team = new TeamService(ctx);
    let out: Record<string, unknown>;
    if (flags['password-stdin'] === true) {
      const password = (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, '');
      const u = await team.people.createUser({ email: flags.email, name: flags.name as string | undefined, password, tenantId: t.id, role });
      out = { id: u.id, email: u.email, tenant: t.slug, role };
    } else {
      const inv = await team.invite(t.id, t.name, { email: flags.email, role }, null);
      out = { invitation_id: inv.id, email: inv.email, tenant: t.slug, role, accept_url: inv.accept_url ?? null, mailed: inv.mailed, expires_at: inv.expires_at };
    }
    process.stdout.write(flags.json ? JSON.stringify(out) + '\n' : Object.entries(out).map(([k, v]) => `${k}: ${v}`).join('\n') + '\n');
    return 0;
  } finally { db.close(); }
}
