import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../errors';

/** A page of a cursor list. */
export interface Page<T> { items: T[]; next_cursor: string | null }

/** Signs and verifies opaque, tamper-evident cursors bound to one list and tenant. */
export class Cursors {
  constructor(private secret: string) {}

  private mac(text: string): Buffer {
    return createHmac('sha256', this.secret).update(text).digest().subarray(0, 16);
  }

  /** Encodes the position after row `seq` of list `scope` (e.g. `assets:<tenant>`). */
  encode(scope: string, seq: number): string {
    const body = Buffer.from(JSON.stringify({ s: scope, q: seq })).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** Decodes a cursor for list `scope`; a forged, foreign or malformed cursor answers 422. */
  decode(scope: string, cursor: string): number {
    const bad = () => new AppError('validation_error', 'cursor is invalid', { errors: [{ field: 'cursor', detail: 'invalid or tampered cursor' }] });
    const [body, sig] = cursor.split('.');
    if (!body || !sig || cursor.length > 512) throw bad();
    const want = this.mac(body);
    const got = Buffer.from(sig, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw bad();
    let parsed: { s?: unknown; q?: unknown };
    try { parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')); } catch { throw bad(); }
    if (parsed.s !== scope || typeof parsed.q !== 'number' || !Number.isInteger(parsed.q)) throw bad();
    return parsed.q;
  }

  /** Builds a page from `limit + 1` rows fetched newest first (by `seq` descending). */
  page<R extends { seq: number }, T>(scope: string, rows: R[], limit: number, map: (r: R) => T): Page<T> {
    const more = rows.length > limit;
    const slice = more ? rows.slice(0, limit) : rows;
    return { items: slice.map(map), next_cursor: more ? this.encode(scope, slice[slice.length - 1].seq) : null };
  }
}

/** Reads `limit` from a query value with a default and a documented maximum; out of range answers 422. */
export function parseLimit(v: unknown, def: number, max: number): number {
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError('validation_error', `limit must be an integer 1-${max}`, { errors: [{ field: 'limit', detail: `integer 1-${max}` }] });
  }
  return n;
}
