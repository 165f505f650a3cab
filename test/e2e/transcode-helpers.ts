import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tx } from '../../src/kernel/db/sqlite';
import { enqueueJob } from '../../src/jobs/enqueue';
import { newId } from '../../src/kernel/ids';
import type { AppContext } from '../../src/kernel/context';
import { waitFor } from '../helpers/server';

/** Runs ffmpeg to completion; throws with stderr on failure. */
export async function ff(args: string[]): Promise<void> {
  const p = Bun.spawn(['ffmpeg', '-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], { stdout: 'ignore', stderr: 'pipe' });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${err}`);
}

/** A tiny generated clip (testsrc2 + sine) at `path`; `vf`/`extra` adjust it. */
export async function makeClip(path: string, o: { size?: string; seconds?: number; audio?: boolean; video?: boolean; extra?: string[]; rate?: number } = {}): Promise<string> {
  const s = o.seconds ?? 3;
  const inputs = [
    ...(o.video === false ? [] : ['-f', 'lavfi', '-i', `testsrc2=size=${o.size ?? '320x180'}:rate=${o.rate ?? 25}`]),
    ...(o.audio === false ? [] : ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000']),
  ];
  await ff([...inputs, '-t', String(s), ...(o.extra ?? (o.video === false ? [] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'])), ...(o.audio === false ? [] : ['-c:a', 'aac']), path]);
  return path;
}

/** Id of tenant `default`. */
export function defaultTenant(ctx: AppContext): string {
  return ctx.db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
}

/**
 * Registers an asset the way the assets feature does (row in `registered` + `asset.process` job in one
 * transaction), with the source copied under the data dir. Returns the asset id.
 */
export function registerAsset(ctx: AppContext, srcFile: string, o: { tenantId?: string; ladder?: string; externalId?: string } = {}): string {
  const slot = sourceSlot(ctx, o.tenantId);
  Bun.spawnSync(['cp', srcFile, slot.dest]);
  return registered(ctx, slot, o);
}

/**
 * As `registerAsset`, but the source is copied without blocking the event loop (benchmarks that watch the
 * appliance's event loop: a synchronous copy of a large source would show up as the appliance's stall).
 */
export async function registerAssetAsync(ctx: AppContext, srcFile: string, o: { tenantId?: string; ladder?: string; externalId?: string; beforeCommit?: () => Promise<void> } = {}): Promise<string> {
  const slot = sourceSlot(ctx, o.tenantId);
  await Bun.write(slot.dest, Bun.file(srcFile));
  // (Benchmarks: after the copy, before the job can be claimed.)
  await o.beforeCommit?.();
  return registered(ctx, slot, o);
}

/** A new asset's id and the place its source goes (directory made; `rel` as stored, `dest` on disk). */
interface SourceSlot { tenantId: string; id: string; rel: string; dest: string }

function sourceSlot(ctx: AppContext, tenantId = defaultTenant(ctx)): SourceSlot {
  const id = newId();
  const rel = join('media', tenantId, 'assets', id, 'source.bin');
  mkdirSync(join(ctx.config.dataDir, 'media', tenantId, 'assets', id), { recursive: true });
  return { tenantId, id, rel, dest: join(ctx.config.dataDir, rel) };
}

/** Commits the asset row of a placed source and its processing job together, as upload `complete` does. */
function registered(ctx: AppContext, { tenantId, id, rel }: SourceSlot, o: { ladder?: string; externalId?: string }): string {
  const now = Date.now();
  tx(ctx.db, () => {
    ctx.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, ladder, source, source_path, created_at, updated_at)
      VALUES (?, ?, ?, '', 'registered', ?, '{"kind":"upload"}', ?, ?, ?)`).run(id, tenantId, o.externalId ?? `ext-${id.slice(-6)}`, o.ladder ?? null, rel, now, now);
    enqueueJob(ctx.db, { tenantId, type: 'asset.process', payload: { assetId: id }, subject: { kind: 'asset', id } });
  });
  return id;
}

/** The asset row. */
export function assetRow(ctx: AppContext, id: string): { status: string; error: string | null; progress: number | null; eta_s: number | null; output: string | null; tenant_id: string; id: string } {
  return ctx.db.query<any, [string]>('SELECT * FROM assets WHERE id = ?').get(id);
}

/** Waits until the asset is `ready` or `failed`; returns the row. */
export function settled(ctx: AppContext, id: string, timeoutMs = 90_000): Promise<ReturnType<typeof assetRow>> {
  return waitFor<ReturnType<typeof assetRow> | null>(`asset ${id} settled`, () => { const a = assetRow(ctx, id); return a.status === 'ready' || a.status === 'failed' ? a : null; }, timeoutMs, 100) as Promise<ReturnType<typeof assetRow>>;
}
