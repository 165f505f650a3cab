import { readFileSync, existsSync } from 'node:fs';
import { Reader } from 'maxmind';
import { isIP } from 'node:net';
import type { AppContext } from '../../kernel/context';
import { slotKey } from '../../kernel/slots';

/** Viewer network facts used by policy rules; null when unknown (no database configured or no match). */
export interface ViewerNet { country: string | null; asn: number | null }

type CountryRec = { country?: { iso_code?: string }; registered_country?: { iso_code?: string } };
type AsnRec = { autonomous_system_number?: number };

/** Looks viewer addresses up in MaxMind-format databases (GeoLite2/GeoIP2 Country and ASN layouts). */
export class GeoLookup {
  // The reader's generic is bound to MaxMind's own response types; we read only the fields typed above.
  private country: Reader<never> | null;
  private asn: Reader<never> | null;
  constructor(paths: { countryDb: string | null; asnDb: string | null }) {
    const open = (p: string | null) => (p && existsSync(p) ? new Reader<never>(readFileSync(p)) : null);
    this.country = open(paths.countryDb);
    this.asn = open(paths.asnDb);
  }

  /** Country (ISO 3166-1 alpha-2) and ASN of an address; unknown parts are null. */
  lookup(ip: string | null): ViewerNet {
    const a = ip?.replace(/^::ffff:/, '') ?? null;
    if (!a || !isIP(a)) return { country: null, asn: null };
    const safe = (r: Reader<never> | null): unknown => { try { return r ? r.get(a) : null; } catch { return null; } };
    const c = safe(this.country) as CountryRec | null;
    const n = safe(this.asn) as AsnRec | null;
    return { country: c?.country?.iso_code ?? c?.registered_country?.iso_code ?? null, asn: n?.autonomous_system_number ?? null };
  }
}

const GEO = slotKey<GeoLookup>('playback.geo');

/** The app's geo lookup (databases opened once from config). */
export function geoOf(ctx: AppContext): GeoLookup {
  return ctx.slots.get(GEO, () => new GeoLookup(ctx.config.geoip));
}
