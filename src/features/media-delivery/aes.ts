import { createCipheriv, createHash, createHmac } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * AES-128 HLS for VOD, produced on the fly from the clear CMAF output (no second copy on disk):
 * `<asset>/v<N>/aes/master.m3u8` lists `aes/media_*.m3u8`, whose segments are AES-128-CBC (PKCS#7) encrypted with
 * a per-asset key served at `aes/key.bin` — a relative URI, so a `/t/<token>/` prefix covers the key too. Init
 * segments stay clear (the key tag follows EXT-X-MAP). Each segment carries an explicit IV derived from its name.
 */

/** The 16-byte content key of one asset version, derived from the service secret (nothing extra stored). */
export function assetKey(secret: string, assetId: string, version: number): Buffer {
  return createHmac('sha256', secret).update(`hls-aes:${assetId}:v${version}`).digest().subarray(0, 16);
}

/** The IV of a segment file: 16 bytes derived from its name (stable across requests and restarts). */
export function segmentIv(name: string): Buffer {
  return createHash('md5').update(name).digest();
}

/** Pure: rewrites a clear media playlist into its AES-128 form (one key tag with an explicit IV per segment). */
export function encryptedPlaylist(clear: string): string {
  const out: string[] = [];
  for (const line of clear.split('\n')) {
    if (line && !line.startsWith('#')) {
      out.push(`#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x${segmentIv(line.trim()).toString('hex')}`);
    }
    out.push(line);
  }
  return out.join('\n');
}

/** Encrypts a whole segment (AES-128-CBC with PKCS#7 padding, as HLS AES-128 requires). */
export function encryptSegment(bytes: Uint8Array, key: Buffer, name: string): Buffer {
  const c = createCipheriv('aes-128-cbc', key, segmentIv(name));
  return Buffer.concat([c.update(bytes), c.final()]);
}

const TYPES: Record<string, string> = { m3u8: 'application/vnd.apple.mpegurl', m4s: 'video/iso.segment', bin: 'application/octet-stream' };

/** Answers one file of the encrypted view of an output dir; null when it does not exist. */
export function serveEncrypted(dir: string, file: string, key: Buffer, headOnly: boolean): Response | null {
  const ext = file.slice(file.lastIndexOf('.') + 1);
  const headers = (cache: string) => ({ 'content-type': TYPES[ext] ?? 'application/octet-stream', 'cache-control': cache, 'access-control-allow-origin': '*' });
  if (file === 'key.bin') return new Response(headOnly ? null : new Uint8Array(key), { headers: headers('private, no-store') });
  const path = join(dir, file);
  if (!existsSync(path)) return null;
  if (file === 'master.m3u8') return new Response(headOnly ? null : readFileSync(path), { headers: headers('public, max-age=300') });
  if (ext === 'm3u8') return new Response(headOnly ? null : encryptedPlaylist(readFileSync(path, 'utf8')), { headers: headers('public, max-age=300') });
  if (file.startsWith('init_')) return new Response(headOnly ? null : readFileSync(path), { headers: headers('public, max-age=31536000, immutable') });
  if (ext === 'm4s') return new Response(headOnly ? null : new Uint8Array(encryptSegment(readFileSync(path), key, file)), { headers: headers('public, max-age=31536000, immutable') });
  return null;
}
