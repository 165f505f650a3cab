#!/usr/bin/env bun
/** Test tool: emits N events for tenant `default` into a data dir's outbox, the way features do (one transaction). */
import { join } from 'node:path';
import { openDb, tx } from '../../src/kernel/db/sqlite';
import { emitEvent } from '../../src/kernel/events/outbox';

const [dir, n = '1000', type = 'asset.ready'] = process.argv.slice(2);
const db = openDb(join(dir, 'db', 'meta.sqlite'));
const tenant = db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
tx(db, () => { for (let i = 0; i < Number(n); i++) emitEvent(db, tenant, type, { asset: `a${i}`, external_id: `ext-${i}`, status: 'ready' }); });
db.close();
