import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Database } from 'bun:sqlite';
import type { Kek, KeyRing } from './kek';

/** Prefix of a sealed value: `vs1:<kid>:<iv>:<ciphertext+tag>` (iv and ciphertext base64url). */
export const SEAL_PREFIX = 'vs1:';
const MAX_CACHE = 4096;

/** A sealed value that cannot be opened (unknown master key, or damaged); the message says which and what to do. */
export class SealError extends Error {}

/** The key id a value was sealed under; null for a legacy plaintext value. */
export function sealedKid(value: string): string | null {
  if (!value.startsWith(SEAL_PREFIX)) return null;
  const end = value.indexOf(':', SEAL_PREFIX.length);
  return end < 0 ? '' : value.slice(SEAL_PREFIX.length, end);
}

/**
 * AES-256-GCM envelope sealing with the ring's current key-encryption key. `open` takes any ring key, returns a
 * legacy plaintext value unchanged (databases from before sealing), and caches opened values (hot read paths).
 */
export class Sealer {
  private keys = new Map<string, Kek>();
  private cache = new Map<string, string>();
  constructor(readonly ring: KeyRing) {
    for (const k of [...ring.older, ring.current]) this.keys.set(k.kid, k);
  }

  /** Id of the key new values are sealed with. */
  get kid(): string { return this.ring.current.kid; }

  /** Seals a secret: a fresh 96-bit IV per value; the header is authenticated with it. */
  seal(plain: string): string {
    const { kid, key } = this.ring.current;
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', key, iv);
    c.setAAD(Buffer.from(`${SEAL_PREFIX}${kid}`));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final(), c.getAuthTag()]);
    return `${SEAL_PREFIX}${kid}:${iv.toString('base64url')}:${ct.toString('base64url')}`;
  }

  /** Opens a sealed value (legacy plaintext passes through); throws SealError for an unknown key or a damaged value. */
  open(value: string): string {
    if (!value.startsWith(SEAL_PREFIX)) return value;
    const hit = this.cache.get(value);
    if (hit !== undefined) return hit;
    const [, kid = '', ivText = '', ctText = ''] = value.split(':');
    const k = this.keys.get(kid);
    if (!k) {
      throw new SealError(`a stored secret is sealed with master key ${kid}, but this process has ${[this.kid, ...this.ring.older.map((o) => o.kid)].join(', ')} ` +
        `(${this.ring.source === 'env' ? 'VS_MASTER_KEY' : 'DATA/secrets/master.key'}): this database was sealed with another master key; ` +
        'restore that key file or set VS_MASTER_KEY to it');
    }
    const iv = Buffer.from(ivText, 'base64url');
    const ct = Buffer.from(ctText, 'base64url');
    if (iv.length !== 12 || ct.length < 16) throw new SealError(`a stored secret sealed with master key ${kid} is malformed`);
    let plain: string;
    try {
      const d = createDecipheriv('aes-256-gcm', k.key, iv);
      d.setAAD(Buffer.from(`${SEAL_PREFIX}${kid}`));
      d.setAuthTag(ct.subarray(ct.length - 16));
      plain = Buffer.concat([d.update(ct.subarray(0, ct.length - 16)), d.final()]).toString('utf8');
    } catch {
      throw new SealError(`a stored secret sealed with master key ${kid} failed authentication: the database value is damaged or was altered`);
    }
    if (this.cache.size >= MAX_CACHE) this.cache.clear();
    this.cache.set(value, plain);
    return plain;
  }
}

const SEALER = Symbol.for('viewstream.sealer');

/** Binds a sealer to a database handle (done by openDb), so every store reaches it through its `db`. */
export function attachSealer(db: Database, sealer: Sealer): void {
  Object.defineProperty(db, SEALER, { value: sealer, enumerable: false, configurable: true });
}

/** The sealer bound to a database handle; a handle not opened by openDb has none (an error, never plaintext). */
export function sealerOf(db: Database): Sealer {
  const s = (db as unknown as Record<symbol, Sealer | undefined>)[SEALER];
  if (!s) throw new Error('database handle has no master key: open it with openDb()');
  return s;
}
