import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveBytes } from './serve-file';

/**
 * AES-128 HLS for VOD, produced on the fly from the clear CMAF output (no second copy on disk):
 * `<asset>/v<N>/aes/master.m3u8` lists `aes/media_*.m3u8`, whose init and media segments are AES-128-CBC (PKCS#7)
 * encrypted with a per-asset key served at `aes/key.bin` (a relative URI, so a `/t/<token>/` prefix covers it).
 *
 * Layout (RFC 8216 §4.3.2.4-5): one `#EXT-X-KEY` with an explicit IV before the first `#EXT-X-MAP`, so the key
 * applies to the Media Initialization Section as well as to every segment (an encrypted init section requires
 * the IV attribute); never a tag between `#EXTINF` and its URI. One IV per asset version for init and segments:
 * GStreamer's hlsdemux decrypts an init section with the key and IV of the segment that follows it and then runs
 * that segment's CBC chain on from the init's last cipher block. The init therefore ends with a `free` box whose
 * content is chosen so that its last cipher block equals the IV: every RFC client and GStreamer read the same bytes.
 */

/** The 16-byte content key of one asset version, derived from the service secret (nothing extra stored). */
export function assetKey(secret: string, assetId: string, version: number): Buffer {
  return createHmac('sha256', secret).update(`hls-aes:${assetId}:v${version}`).digest().subarray(0, 16);
}

/** The IV of one key (all its init and media segments): 16 bytes derived from the key, stable across restarts. */
export function keyIv(key: Buffer): Buffer {
  return createHash('md5').update('hls-aes-iv:').update(key).digest();
}

/** Pure: rewrites a clear media playlist into its AES-128 form: one key tag with the IV before the first map. */
export function encryptedPlaylist(clear: string, iv: Buffer): string {
  const tag = `#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x${iv.toString('hex')}`;
  const lines = clear.split('\n').filter((l) => !l.startsWith('#EXT-X-KEY'));
  let at = lines.findIndex((l) => l.startsWith('#EXT-X-MAP'));
  if (at < 0) at = lines.findIndex((l) => l.startsWith('#EXTINF') || l.startsWith('#EXT-X-DISCONTINUITY') || (l !== '' && !l.startsWith('#')));
  if (at < 0) return clear;
  lines.splice(at, 0, tag);
  return lines.join('\n');
}

/** Encrypts a whole segment (AES-128-CBC with PKCS#7 padding, as HLS AES-128 requires). */
export function encryptSegment(bytes: Uint8Array, key: Buffer, iv: Buffer): Buffer {
  const c = createCipheriv('aes-128-cbc', key, iv);
  return Buffer.concat([c.update(bytes), c.final()]);
}

function aesBlock(key: Buffer, block: Buffer, decrypt: boolean): Buffer {
  const c = decrypt ? createDecipheriv('aes-128-ecb', key, null) : createCipheriv('aes-128-ecb', key, null);
  c.setAutoPadding(false);
  return c.update(block);
}

const xor = (a: Buffer, b: Buffer) => Buffer.from(a.map((x, i) => x ^ b[i]));

/**
 * Encrypts an init segment with a trailing `free` box (ignored by every MP4 reader) whose last 16 bytes make the
 * final cipher block equal to `iv` (see the module comment). Pure.
 */
export function encryptInit(init: Uint8Array, key: Buffer, iv: Buffer): Buffer {
  let n = 24; // box header + at least one chosen block
  while ((init.length + n) % 16) n++;
  const plain = Buffer.alloc(init.length + n);
  plain.set(init);
  plain.writeUInt32BE(n, init.length);
  plain.write('free', init.length + 4, 'latin1');
  const c = createCipheriv('aes-128-cbc', key, iv);
  c.setAutoPadding(false);
  const head = c.update(plain.subarray(0, plain.length - 16));
  const before = head.length ? head.subarray(head.length - 16) : iv;
  const pad = Buffer.alloc(16, 16); // PKCS#7 block added to a 16-aligned plaintext
  const prev = xor(aesBlock(key, iv, true), pad); // the cipher block that makes E(pad ^ prev) === iv
  xor(aesBlock(key, prev, true), before).copy(plain, plain.length - 16);
  return encryptSegment(plain, key, iv);
}

const TYPES: Record<string, string> = { m3u8: 'application/vnd.apple.mpegurl', m4s: 'video/iso.segment', bin: 'application/octet-stream' };
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Answers one file of the encrypted view of an output dir (HEAD with the GET headers, ETag/304 as `serveBytes`);
 * null when it does not exist. `req` may be a bare HEAD flag (older callers): conditional headers are then ignored.
 */
export function serveEncrypted(dir: string, file: string, key: Buffer, req: Request | boolean): Response | null {
  const r = typeof req === 'boolean' ? new Request('http://origin/', { method: req ? 'HEAD' : 'GET' }) : req;
  const ext = file.slice(file.lastIndexOf('.') + 1);
  const type = TYPES[ext] ?? 'application/octet-stream';
  const iv = keyIv(key);
  if (file === 'key.bin') return serveBytes(r, new Uint8Array(key), type, 'private, no-store');
  const path = join(dir, file);
  if (!existsSync(path)) return null;
  // I-frame playlists are byte ranges of clear segments: a range of a whole-segment CBC chain cannot be decrypted
  // alone, so the encrypted view lists none and serves none.
  if (file === 'master.m3u8') return serveBytes(r, readFileSync(path, 'utf8').split('\n').filter((l) => !l.startsWith('#EXT-X-I-FRAME-STREAM-INF')).join('\n'), type, 'public, max-age=300');
  if (file.startsWith('iframe_')) return null;
  if (ext === 'm3u8') return serveBytes(r, encryptedPlaylist(readFileSync(path, 'utf8'), iv), type, 'public, max-age=300');
  if (file.startsWith('init_')) return serveBytes(r, encryptInit(readFileSync(path), key, iv), type, IMMUTABLE);
  if (ext === 'm4s') return serveBytes(r, encryptSegment(readFileSync(path), key, iv), type, IMMUTABLE);
  return null;
}
