import { randomBytes, createHash } from 'node:crypto';
import type { StatsStore } from '../../kernel/stats';

const DAY = 86_400_000;

/**
 * Hashes viewer IP addresses with a salt that rotates every UTC day (random, kept in `ip_salts`, deleted after two
 * days by retention): a viewer is countable within a day but the address cannot be recovered or linked across days.
 * The hash also covers the tenant, so two tenants never see the same hash for one viewer.
 */
export class IpHasher {
  private salts = new Map<number, string>();
  /** Hashes already made, by salt, tenant and address (a viewer's requests repeat them; dropped with the salt's day). */
  private hashes = new Map<string, string>();
  constructor(private stats: StatsStore) {}

  /** The salt of the UTC day of `ts` when this hasher already has it (no await on the common path), else null. */
  saltIfKnown(ts: number): string | null {
    return this.salts.get(Math.floor(ts / DAY) * DAY) ?? null;
  }

  /** The salt of the UTC day of `ts` (created on first use; shared by every process on the file). */
  async salt(ts: number): Promise<string> {
    const day = Math.floor(ts / DAY) * DAY;
    const hit = this.salts.get(day);
    if (hit) return hit;
    await this.stats.run('INSERT INTO ip_salts VALUES (?, ?) ON CONFLICT DO NOTHING', [day, randomBytes(32).toString('base64url')]);
    const rows = await this.stats.all<{ salt: string }>('SELECT salt FROM ip_salts WHERE day = ?', [day]);
    const s = rows[0].salt;
    if (this.salts.size > 4) this.salts.clear();
    this.salts.set(day, s);
    return s;
  }

  /** The 16-hex-digit hash of (salt of the day, tenant, address); null without an address. */
  hash(salt: string, tenantId: string, ip: string | null): string | null {
    if (!ip) return null;
    const key = `${salt}\u0000${tenantId}\u0000${ip}`;
    let h = this.hashes.get(key);
    if (h === undefined) {
      h = createHash('sha256').update(key).digest('hex').slice(0, 16);
      if (this.hashes.size >= 100_000) this.hashes.clear();
      this.hashes.set(key, h);
    }
    return h;
  }
}
