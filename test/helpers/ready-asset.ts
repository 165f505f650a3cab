import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from './server';

/**
 * A ready asset written straight into a test server's data dir and database (no upload, no transcode): version 1
 * output holding one segment `seg_00001.m4s` with `segment` as its bytes and a one-variant `master.m3u8`.
 */
export function addReadyAsset(s: TestServer, tenantId: string, segment: Uint8Array): string {
  const id = crypto.randomUUID();
  const rel = `media/${tenantId}/assets/${id}/v1`;
  mkdirSync(join(s.dataDir, rel), { recursive: true });
  writeFileSync(join(s.dataDir, rel, 'seg_00001.m4s'), segment);
  writeFileSync(join(s.dataDir, rel, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nv/index.m3u8\n');
  const files = { hls: 'master.m3u8', dash: 'manifest.mpd', poster: 'poster.jpg', sprite: 'sprite.jpg', thumbs_vtt: 'thumbs.vtt', download: 'download.mp4' };
  s.ctx.db.query(`INSERT INTO assets (id, tenant_id, title, status, source, output, created_at, updated_at) VALUES (?, ?, 'ready asset', 'ready', '{"kind":"upload"}', ?, ?, ?)`)
    .run(id, tenantId, JSON.stringify({ dir: rel, version: 1, files }), Date.now(), Date.now());
  return id;
}
