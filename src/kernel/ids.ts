import { randomBytes } from 'node:crypto';

/** A new time-ordered UUID (v7), so ids sort roughly by creation. */
export function newId(): string {
  return Bun.randomUUIDv7();
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `s` is a UUID in canonical text form. */
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

/** A URL-safe random token of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
