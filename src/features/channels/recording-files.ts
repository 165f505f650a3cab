/**
 * Recording files wherever they are: on local disk (the open hour, every hour on a single box), or in a bucket media
 * store once their hour closed and moved (src/live/hour-mover.ts). Readers that need files (catch-up and start-over
 * segments, clip cuts, live-to-VOD, thumbnails) first `holdRecorded` what they will read: each recording file not on
 * disk is copied from the bucket into a local spool (the delivery spool's rules: native copy, exact size checked,
 * least recently used out past 1 GiB), and `localRecordingPath` then names that copy instead of the missing file.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { AppContext } from '../../kernel/context';
import { containedAbs } from '../../kernel/fs/contain';
import { mediaStoreOf, remoteMedia } from '../../kernel/media-store';
import { slotKey } from '../../kernel/slots';
import { recRoot } from '../../live/paths';
import { storeSpool, type HeldCopy, type StoreSpool } from '../media-delivery/store-spool';

interface RecordingSpool { spool: StoreSpool; dir: string; copies: Map<string, string> }

const SPOOL = slotKey<RecordingSpool>('channels.recording-spool');
const MAX_NAMES = 20_000;

function spoolOf(ctx: AppContext): RecordingSpool {
  return ctx.slots.get(SPOOL, () => {
    const dir = join(ctx.config.dataDir, 'tmp', 'rec-spool');
    return { spool: storeSpool(mediaStoreOf(ctx), { dir }), dir, copies: new Map() };
  });
}

/**
 * Makes the recording files at these absolute paths readable: those not on disk are copied from the bucket (no-op on a
 * single box), each copy held until the returned function is called (once read): the spool never removes them
 * meanwhile, however long the reading takes (a clip cut reads its pieces one after another between encodes). Released
 * at once, the copies are kept at least the spool's grace (10 s) for the reads that follow.
 */
export async function holdRecorded(ctx: AppContext, paths: (string | null | undefined)[]): Promise<() => void> {
  if (!remoteMedia(ctx)) return () => undefined;
  const s = spoolOf(ctx), root = recRoot(ctx.config.dataDir);
  const held: HeldCopy[] = [];
  const release = () => { for (const h of held.splice(0)) h.release(); };
  const done = await Promise.allSettled(paths.map(async (abs) => {
    if (!abs || existsSync(abs) || !containedAbs(root, abs)) return;
    const key = relative(ctx.config.dataDir, abs).split(sep).join('/');
    const store = mediaStoreOf(ctx);
    const st = await store.stat(key);
    const copy = st && (await s.spool.hold(key, st));
    if (!copy) return;
    held.push(copy);
    if (s.copies.size >= MAX_NAMES) s.copies.clear();
    s.copies.set(abs, copy.path);
  }));
  const failed = done.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) { release(); throw failed.reason; }
  return release;
}

/** The path to read a recording file at: itself while on disk, else its fetched copy (`holdRecorded` first), else itself. */
export function localRecordingPath(ctx: AppContext, abs: string): string {
  if (!remoteMedia(ctx) || existsSync(abs)) return abs;
  const copy = spoolOf(ctx).copies.get(abs);
  return copy && existsSync(copy) ? copy : abs;
}

/** `path` when it is a recording file or a fetched copy of one (a path to serve), else null. */
export function servableRecordingPath(ctx: AppContext, path: string): string | null {
  return containedAbs(recRoot(ctx.config.dataDir), path) ?? (remoteMedia(ctx) ? containedAbs(spoolOf(ctx).dir, path) : null);
}
