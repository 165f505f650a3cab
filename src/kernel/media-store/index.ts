import type { AppContext } from '../context';
import { slotKey } from '../slots';
import type { MediaStoreConfig } from './config';
import { LocalMediaStore } from './local';
import { S3MediaStore } from './s3';
import type { MediaStore } from './types';

export type { MediaStore, StoredStat, StoredEntry } from './types';
export type { MediaStoreConfig } from './config';
export { LocalMediaStore } from './local';
export { S3MediaStore } from './s3';

/** Opens the configured store: a bucket, or files under `dataDir`. */
export function openMediaStore(cfg: MediaStoreConfig, dataDir: string): MediaStore {
  return cfg.kind === 's3' ? new S3MediaStore(cfg) : new LocalMediaStore(dataDir);
}

const SLOT = slotKey<MediaStore>('media-store');

/** The app's media store (one per app context), opened from its config on first use. */
export function mediaStoreOf(ctx: Pick<AppContext, 'config' | 'slots'>): MediaStore {
  return ctx.slots.get(SLOT, () => openMediaStore(ctx.config.mediaStore, ctx.config.dataDir));
}

/** True when media lives in a bucket (delivery and jobs read through the store, not the data directory). */
export function remoteMedia(ctx: Pick<AppContext, 'config'>): boolean {
  return ctx.config.mediaStore.kind !== 'local';
}
