import { createHash } from 'node:crypto';
import type { MediaStore } from './types';

/** What a migration did: objects copied, already there (same size and checksum), skipped (work files) and failed. */
export interface MigrateReport { copied: number; present: number; skipped: number; failed: { key: string; error: string }[]; bytes: number }

/** Work files that are never migrated: encodes in progress, previews, partial uploads. */
const WORK = /(^|\/)(\.work-[^/]*|preview|[^/]*\.partial|[^/]*\.put-\d+|[^/]*\.get-\d+)(\/|$)/;

async function sha256(s: ReadableStream<Uint8Array> | null): Promise<string | null> {
  if (!s) return null;
  const h = createHash('sha256');
  for await (const c of s as unknown as AsyncIterable<Uint8Array>) h.update(c);
  return h.digest('hex');
}

/**
 * Copies every object under `prefix` from one store to another (a box's data dir to its bucket) while the box keeps
 * serving from the first: an object already in the target with the same size and SHA-256 is left alone, every copy
 * is read back and its SHA-256 compared with the source's. Run it again until nothing is copied, then switch
 * `VS_MEDIA_STORE` and restart; the local files stay until removed by hand.
 */
export async function migrateMedia(from: MediaStore, to: MediaStore, prefix = 'media/', onObject?: (key: string, what: 'copied' | 'present' | 'failed') => void): Promise<MigrateReport> {
  const r: MigrateReport = { copied: 0, present: 0, skipped: 0, failed: [], bytes: 0 };
  for (const e of await from.list(prefix)) {
    if (WORK.test(e.key)) { r.skipped++; continue; }
    try {
      const want = await sha256(await from.read(e.key));
      if (want === null) continue; // removed meanwhile
      const there = await to.stat(e.key);
      if (there && there.size === e.size && (await sha256(await to.read(e.key))) === want) { r.present++; onObject?.(e.key, 'present'); continue; }
      const tmp = `${process.env.TMPDIR ?? '/tmp'}/vs-migrate-${process.pid}`;
      if (!(await from.getFile(e.key, tmp))) continue;
      await to.putFile(e.key, tmp);
      const got = await sha256(await to.read(e.key));
      if (got !== want) throw new Error(`checksum mismatch after copy (${want} vs ${got})`);
      r.copied++; r.bytes += e.size; onObject?.(e.key, 'copied');
    } catch (err) {
      r.failed.push({ key: e.key, error: String((err as Error).message ?? err) });
      onObject?.(e.key, 'failed');
    }
  }
  return r;
}
