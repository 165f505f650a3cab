import { join } from 'node:path';
import { loadConfig } from '../kernel/config/load';
import { openDb } from '../kernel/db/sqlite';
import { createLogger } from '../kernel/log';
import { openMediaStore } from '../kernel/media-store';
import { HourMover } from '../live/hour-mover';
import { SegmentIndex } from '../live/segment-index';
import { ChannelStore } from '../features/channels/store';
import type { Cli } from './args';

/**
 * `viewstream recordings reindex [--channel ID] [--json] [--data DIR]`: rebuilds the segment index of the recording
 * hours held in the VS_MEDIA_STORE bucket from its listing (every hour the bucket names under each channel; an
 * unfinished move is finished first). Safe while the server runs; prints hours and segments per channel.
 */
export async function recordingsReindex(flags: Cli['flags']): Promise<number> {
  const config = loadConfig({ data: flags.data as string | undefined, config: flags.config as string | undefined });
  if (config.mediaStore.kind === 'local') throw new Error('recordings are in the bucket only with VS_MEDIA_STORE=s3://bucket/prefix; on local disk the index is rebuilt from the files at start');
  const db = openDb(join(config.dataDir, 'db', 'meta.sqlite'), { dataDir: config.dataDir });
  try {
    const store = openMediaStore(config.mediaStore, config.dataDir);
    const mover = new HourMover(new SegmentIndex(db, config.dataDir), store, { idleCloseMs: null, stepMs: 0, now: Date.now, log: createLogger('warn') });
    const channels = new ChannelStore(db).all().filter((c) => flags.channel === undefined || c.id === flags.channel || c.slug === flags.channel);
    if (flags.channel !== undefined && !channels.length) throw new Error(`no channel ${String(flags.channel)}`);
    const out: { channel: string; hours: number; segments: number }[] = [];
    for (const ch of channels) out.push({ channel: ch.id, ...(await mover.reindexChannel(ch)) });
    process.stdout.write(flags.json ? JSON.stringify({ channels: out }) + '\n' : out.map((r) => `${r.channel}: ${r.hours} hours, ${r.segments} segments indexed from ${store.where}\n`).join(''));
    return 0;
  } finally { db.close(); }
}
