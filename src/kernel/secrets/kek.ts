import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** One key-encryption key: 32 bytes and its id (derived from the key, so nothing else needs storing). */
export interface Kek { kid: string; key: Buffer }

/**
 * The keys a process can use: `current` seals, every key opens. `older` holds keys kept during a rotation
 * (`master.key.<kid>`, `master.key.next`), `master.key` when `VS_MASTER_KEY` replaced it, and `VS_MASTER_KEY_OLD`.
 */
export interface KeyRing { current: Kek; older: Kek[]; source: 'env' | 'file' | 'ephemeral'; dir: string | null }

/** File name of the key-encryption key under `DATA/secrets/`. */
export const KEY_FILE = 'master.key';
/** Name the next key is written under before a rotation commits. */
export const NEXT_KEY_FILE = 'master.key.next';

/** The key id: 16 hex digits of a domain-separated SHA-256 of the key (reveals nothing usable about it). */
export function kidOf(key: Buffer): string {
  return createHash('sha256').update('viewstream-kek-id:').update(key).digest('hex').slice(0, 16);
}

/** A KEK from 32 raw bytes. */
export function kek(key: Buffer): Kek {
  if (key.length !== 32) throw new Error('a master key is exactly 32 bytes');
  return { kid: kidOf(key), key };
}

/** Parses a master key written as 64 hex digits or base64/base64url of 32 bytes; `what` names it in the error. */
export function parseMasterKey(text: string, what: string): Buffer {
  const s = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(s)) {
    const b = Buffer.from(s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''), 'base64url');
    if (b.length === 32) return b;
  }
  throw new Error(`${what} must be 32 bytes written as 64 hex digits or base64 (e.g. \`openssl rand -base64 32\`)`);
}

/** Reads a key file: 32 raw bytes, or the text forms parseMasterKey accepts. */
function readKeyFile(path: string): Buffer {
  const raw = readFileSync(path);
  return raw.length === 32 ? raw : parseMasterKey(raw.toString('utf8'), path);
}

/** `DATA/secrets`, created 0700 (and tightened to 0700 when it exists). */
export function ensureSecretsDir(dataDir: string): string {
  const dir = join(dataDir, 'secrets');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

/** Writes `bytes` to a new 0600 file (fails when it exists) and flushes it to disk. */
function writeNew(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'wx', 0o600);
  try { writeSync(fd, bytes); fsyncSync(fd); } finally { closeSync(fd); }
}

/** Atomically replaces (or creates) a 0600 key file: temp file, fsync, rename. */
export function writeKeyFile(path: string, key: Buffer): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeNew(tmp, key);
  renameSync(tmp, path);
  syncDir(join(path, '..'));
}

/** Creates `path` with a fresh random key unless it exists; atomic (link), so two starting processes agree. */
function createKeyFileIfMissing(path: string): void {
  if (existsSync(path)) return;
  const tmp = `${path}.${process.pid}.tmp`;
  writeNew(tmp, randomBytes(32));
  try { linkSync(tmp, path); } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e; } finally { unlinkSync(tmp); }
  syncDir(join(path, '..'));
}

/** Flushes a directory entry change (rename, link) to disk where the platform allows it. */
export function syncDir(dir: string): void {
  let fd: number | null = null;
  try { fd = openSync(dir, 'r'); fsyncSync(fd); } catch { /* not supported everywhere; the rename is still atomic */ } finally { if (fd !== null) closeSync(fd); }
}

/**
 * Loads the key ring of a data dir: `VS_MASTER_KEY` when set, else `DATA/secrets/master.key` (32 random bytes,
 * created 0600 on first start). Leftover `master.key.*` files of an interrupted rotation and `VS_MASTER_KEY_OLD`
 * join as opening-only keys.
 */
export function loadKeyRing(dataDir: string, env: Record<string, string | undefined> = process.env): KeyRing {
  const dir = ensureSecretsDir(dataDir);
  const fromEnv = env.VS_MASTER_KEY ? kek(parseMasterKey(env.VS_MASTER_KEY, 'VS_MASTER_KEY')) : null;
  const file = join(dir, KEY_FILE);
  if (!fromEnv) createKeyFileIfMissing(file);
  const older: Kek[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name !== KEY_FILE && !(name.startsWith(`${KEY_FILE}.`) && !name.endsWith('.tmp'))) continue;
    const path = join(dir, name);
    chmodSync(path, 0o600);
    if (name === KEY_FILE && !fromEnv) continue;
    older.push(kek(readKeyFile(path)));
  }
  if (env.VS_MASTER_KEY_OLD) older.push(kek(parseMasterKey(env.VS_MASTER_KEY_OLD, 'VS_MASTER_KEY_OLD')));
  const current = fromEnv ?? kek(readKeyFile(file));
  return { current, older: older.filter((k) => k.kid !== current.kid), source: fromEnv ? 'env' : 'file', dir };
}

/** A ring with one random key held only in memory (`:memory:` databases in tests and tools). */
export function ephemeralRing(): KeyRing {
  return { current: kek(randomBytes(32)), older: [], source: 'ephemeral', dir: null };
}
