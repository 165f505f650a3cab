import { join } from 'node:path';

/** Root of every recording: DATA/rec. */
export function recRoot(dataDir: string): string {
  return join(dataDir, 'rec');
}

/** Per-input scratch directory where the ingest ffmpeg writes (same filesystem as the recording, for rename). */
export function scratchDir(dataDir: string, channelId: string, input: string): string {
  return join(dataDir, 'rec', '.scratch', channelId, input);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Recording path of a segment, relative to DATA/rec: <tenant>/<channel>/<rendition>/YYYY/MM/DD/HH/<epoch_ms>.m4s (UTC). */
export function segmentRelPath(tenantId: string, channelId: string, rendition: string, startMs: number): string {
  const d = new Date(startMs);
  return `${tenantId}/${channelId}/${rendition}/${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${pad(d.getUTCHours())}/${startMs}.m4s`;
}

/** Absolute path of a segment from its index path. */
export function segmentAbsPath(dataDir: string, rel: string): string {
  return join(dataDir, 'rec', rel);
}

/** Directory of one rendition's recording. */
export function renditionDir(dataDir: string, tenantId: string, channelId: string, rendition: string): string {
  return join(dataDir, 'rec', tenantId, channelId, rendition);
}

/** CMAF init segment used by segments starting at or after `initMs` (until the next init). */
export function initPath(dataDir: string, tenantId: string, channelId: string, rendition: string, initMs: number): string {
  return join(renditionDir(dataDir, tenantId, channelId, rendition), 'init', `${initMs}.mp4`);
}
