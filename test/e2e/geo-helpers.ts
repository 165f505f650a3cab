import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMmdb } from '../helpers/mmdb-writer';
import { rawRequest, type RawAnswer } from '../helpers/raw-http';

/** Viewer addresses of the geo tests: each a loopback address of its own, with its country and network. */
export const VIEWERS = {
  us: { ip: '127.0.0.10', country: 'US', asn: 7018 },
  il: { ip: '127.0.0.20', country: 'IL', asn: 1680 },
  fr: { ip: '127.0.0.30', country: 'FR', asn: 3215 },
  de: { ip: '127.0.0.40', country: 'DE', asn: 3320 },
  il2: { ip: '127.0.0.21', country: 'IL', asn: 1680 },
} as const;

/** More viewers, one country each: 127.0.1.1 and on (tests that need a fresh country per request). */
export const MORE_VIEWERS = ['ES', 'IT', 'NL', 'BE', 'PT', 'SE', 'NO', 'DK', 'FI', 'PL', 'CZ', 'AT', 'CH', 'IE', 'GR', 'HU', 'RO', 'BG', 'JP', 'BR']
  .map((country, i) => ({ ip: `127.0.1.${i + 1}`, country, asn: 64512 + i }));

/** Writes MaxMind-format country and ASN databases mapping `VIEWERS` and `MORE_VIEWERS`; returns the env naming them. */
export function writeGeoDbs(dir: string): Record<string, string> {
  const vs = [...Object.values(VIEWERS), ...MORE_VIEWERS];
  writeFileSync(join(dir, 'country.mmdb'), buildMmdb('GeoLite2-Country', vs.map((v) => [`${v.ip}/32`, { country: { iso_code: v.country } }])));
  writeFileSync(join(dir, 'asn.mmdb'), buildMmdb('GeoLite2-ASN', vs.map((v) => [`${v.ip}/32`, { autonomous_system_number: v.asn, autonomous_system_organization: `AS${v.asn}` }])));
  return { VS_GEOIP_COUNTRY_DB: join(dir, 'country.mmdb'), VS_GEOIP_ASN_DB: join(dir, 'asn.mmdb') };
}

/** A request to 127.0.0.1:`port` sent from the loopback address `ip` (a JSON body when given). */
export function from(ip: string, port: number, method: string, path: string, o: { json?: unknown; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  const body = o.json === undefined ? '' : JSON.stringify(o.json);
  const headers = { ...(o.json === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }), ...o.headers };
  const head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}${Object.entries(headers).map(([k, v]) => `\r\n${k}: ${v}`).join('')}`;
  return rawRequest(port, head, body, 10_000, ip);
}

/** The JSON of a raw answer's body. */
export const jsonOf = <T = Record<string, unknown>>(a: RawAnswer): T => JSON.parse(a.body.toString('utf8')) as T;
