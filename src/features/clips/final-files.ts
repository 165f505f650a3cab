/**
 * Where a final clip's files live. On a single box: its directory `DATA/media/<tenant>/clips/<id>/`. With a bucket
 * media store (`VS_MEDIA_STORE=s3://…`): objects under the same path as key prefix (`media/<tenant>/clips/<id>/`), and
 * no local copy. A cut is made in a local work directory beside the clip's directory and put in place whole before
 * the clip turns final: renamed on local disk; in a bucket every file uploaded (media first, playlists last), its size
 * read back, then the work directory removed. Nothing is served half-written (a clip is read from its files only once
 * `final`), and a process killed mid-upload leaves the clip `finalizing`: its job runs again, clears the earlier
 * attempt's work directories and objects, and uploads them anew.
 */
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { isUuid } from '../../kernel/ids';
import { mediaStoreOf, remoteMedia } from '../../kernel/media-store';
import { ClipStore } from './store';

/** Where a final clip's files live on local disk: DATA/media/<tenant>/clips/<id>. */
export function clipDir(dataDir: string, tenantId: string, id: string): string {
  if (!isUuid(id)) throw new Error('bad clip id');
  return join(dataDir, 'media', tenantId, 'clips', id);
}

/** Media store key prefix of a final clip's files: `media/<tenant>/clips/<id>/` (its directory's path under the data dir). */
export function clipPrefix(tenantId: string, id: string): string {
  if (!isUuid(id)) throw new Error('bad clip id');
  return `media/${tenantId}/clips/${id}/`;
}

/** Removes the work directories of every earlier attempt at a clip (`<id>.work-…` beside its directory: a killed run leaves them). */
export function clearClipWork(dataDir: string, tenantId: string, id: string): void {
  const final = clipDir(dataDir, tenantId, id), parent = dirname(final), mine = `${basename(final)}.work-`;
  let names: string[];
  try { names = readdirSync(parent); } catch { return; }
  for (const n of names) if (n.startsWith(mine)) rmSync(join(parent, n), { recursive: true, force: true });
}

/** Files under `dir` ('/'-separated, relative), media and inits first, then variant playlists, the master last. */
function filesOf(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const n of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${n}` : n;
    if (statSync(join(dir, r)).isDirectory()) out.push(...filesOf(dir, r));
    else out.push(r);
  }
  if (rel) return out;
  const rank = (f: string) => (f === 'master.m3u8' ? 2 : f.endsWith('.m3u8') ? 1 : 0);
  return out.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Puts a finished cut in place (`tmp`: the clip's files, its work files already gone) and returns the clip's
 * directory (recorded as its `final_dir`). Local disk: `tmp` renamed to the directory. A bucket: the clip's prefix
 * emptied (what an earlier attempt left), every file uploaded and its size read back, then `tmp` removed.
 */
export async function placeFinalClip(ctx: AppContext, tenantId: string, id: string, tmp: string): Promise<string> {
  const final = clipDir(ctx.config.dataDir, tenantId, id);
  if (!remoteMedia(ctx)) {
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
    return final;
  }
  const store = mediaStoreOf(ctx), prefix = clipPrefix(tenantId, id);
  await store.deletePrefix(prefix);
  for (const rel of filesOf(tmp)) {
    const path = join(tmp, rel), size = statSync(path).size;
    await store.putFile(prefix + rel, path);
    const got = (await store.stat(prefix + rel))?.size;
    if (got !== size) throw new Error(`the clip's ${rel} has ${got ?? 'no'} bytes in the media store, ${size} here`);
  }
  rmSync(tmp, { recursive: true, force: true });
  return final;
}

/**
 * Removes a clip's files wherever they are: its directory, and (a bucket) its objects, also those of an unfinished
 * upload. The removal is recorded first (clip_file_deletes), so objects the bucket could not delete now go on a later sweep.
 */
export async function removeClipFiles(ctx: AppContext, tenantId: string, id: string): Promise<void> {
  rmSync(clipDir(ctx.config.dataDir, tenantId, id), { recursive: true, force: true });
  if (!remoteMedia(ctx)) return;
  new ClipStore(ctx.db).markObjectsDeleted(id, tenantId, ctx.clock.now());
  await sweepClipObjects(ctx);
}

/** Deletes the bucket objects of the clips recorded for removal, then their records; returns how many clips were done. */
export async function sweepClipObjects(ctx: AppContext): Promise<number> {
  if (!remoteMedia(ctx)) return 0;
  const store = new ClipStore(ctx.db), media = mediaStoreOf(ctx);
  let n = 0;
  for (const d of store.objectDeletes(100)) {
    if (isUuid(d.clip_id)) await media.deletePrefix(clipPrefix(d.tenant_id, d.clip_id));
    store.objectsDeleted(d.clip_id);
    n++;
  }
  return n;
}

/** Starts the sweeper of deleted clips' bucket objects (a bucket media store only): at start, then every 5 minutes. */
export function startClipObjectSweeper(ctx: AppContext): void {
  if (!remoteMedia(ctx)) return;
  let failing = false;
  const run = () => {
    sweepClipObjects(ctx).then(() => { failing = false; }, (e) => {
      if (!failing) ctx.log.warn('removing deleted clips\' objects from the media store failed (retried)', { error: String(e) });
      failing = true;
    });
  };
  run();
  const timer = setInterval(run, 300_000);
  ctx.onStop(() => clearInterval(timer));
}
