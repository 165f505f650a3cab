import { join } from 'node:path';
import { loadConfig } from '../kernel/config/load';
import { openDb } from '../kernel/db/sqlite';
import { IdentityService } from '../features/identity/service';
import { isRole } from '../kernel/http/scopes';
import { AppError } from '../kernel/errors';
import type { Cli } from './args';

function service(flags: Cli['flags']) {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  const db = openDb(join(config.dataDir, 'db', 'meta.sqlite'), { dataDir: config.dataDir });
  return { svc: new IdentityService(db, null), db };
}

/** `viewstream tenant create`: prints `{"id","slug"}` with --json. */
export function tenantCreate(flags: Cli['flags']): number {
  if (typeof flags.name !== 'string') throw new Error('--name is required');
  const { svc, db } = service(flags);
  try {
    const t = svc.createTenant({ name: flags.name, slug: flags.slug as string | undefined, cdnOnly: flags['cdn-only'] === true });
    process.stdout.write(flags.json ? JSON.stringify(t) + '\n' : `tenant ${t.slug} (${t.id})\n`);
    return 0;
  } finally { db.close(); }
}

/** `viewstream key create`: prints `{"id","key","scopes"}` with --json. */
export function keyCreate(flags: Cli['flags']): number {
  if (typeof flags.tenant !== 'string') throw new Error('--tenant is required');
  const role = flags.role as string | undefined;
  const scopes = typeof flags.scopes === 'string' ? flags.scopes.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
  if (role !== undefined && !isRole(role)) throw new Error(`unknown role "${role}" (owner, admin, engineer, publisher, editor, viewer)`);
  const { svc, db } = service(flags);
  try {
    const t = svc.tenant(flags.tenant);
    const k = svc.createKey(t.id, { role: role as never, scopes, name: flags.name as string | undefined });
    process.stdout.write(flags.json ? JSON.stringify({ id: k.id, key: k.key, scopes: k.scopes }) + '\n' : `${k.key}\n`);
    return 0;
  } finally { db.close(); }
}

/** Renders a CLI failure: AppError detail or message, exit code 1 (2 for usage). */
export function cliError(e: unknown): number {
  const msg = e instanceof AppError ? `${e.code}: ${e.detail}` : (e as Error).message;
  process.stderr.write(`viewstream: ${msg}\n`);
  return e instanceof AppError ? 1 : 2;
}
