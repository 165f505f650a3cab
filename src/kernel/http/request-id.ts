import { randomBytes } from 'node:crypto';

const ids = new WeakMap<Request, string>();
// Process-unique prefix plus a counter: unique, unguessable across restarts, and cheap on the hot path.
const PREFIX = `req_${randomBytes(6).toString('base64url')}`;
let counter = 0;
const SAFE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Assigns the request its id: a well-formed incoming `X-Request-Id` is kept, otherwise a new one is made. */
export function assignRequestId(req: Request): string {
  const incoming = req.headers.get('x-request-id');
  const id = incoming && SAFE.test(incoming) ? incoming : `${PREFIX}${(++counter).toString(36)}`;
  ids.set(req, id);
  return id;
}

/** The id assigned to this request (assigning one if the request bypassed the server wrapper). */
export function requestId(req: Request): string {
  return ids.get(req) ?? assignRequestId(req);
}
