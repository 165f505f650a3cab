import { loadConfig } from '../kernel/config/load';
import { LocalMediaStore, openMediaStore } from '../kernel/media-store';
import { migrateMedia } from '../kernel/media-store/migrate';
import type { Cli } from './args';

/**
 * `viewstream media migrate [--data DIR] [--json]`: copies the data dir's media to the bucket VS_MEDIA_STORE names,
 * verifying each copy's SHA-256, while the box keeps serving from its disk (docs/scale-out.md). Exit 1 when any failed.
 */
export async function mediaMigrate(flags: Cli['flags']): Promise<number> {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  if (config.mediaStore.kind === 'local') throw new Error('set VS_MEDIA_STORE=s3://bucket/prefix (and its endpoint and keys) to the bucket to migrate to');
  const to = openMediaStore(config.mediaStore, config.dataDir);
  const r = await migrateMedia(new LocalMediaStore(config.dataDir), to);
  process.stdout.write(flags.json ? JSON.stringify(r) + '\n'
    : `copied ${r.copied} (${r.bytes} bytes), already there ${r.present}, work files skipped ${r.skipped}, failed ${r.failed.length} → ${to.where}\n${r.failed.map((f) => `  ${f.key}: ${f.error}\n`).join('')}`);
  return r.failed.length ? 1 : 0;
}
