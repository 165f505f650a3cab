import { randomBytes } from 'node:crypto';

const ids = new WeakMap<Request, string>();
const SAFE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Assigns the request its id: a well-formed incoming `X-Request-Id` is kept, otherwise a new one is made. */
export function assignRequestId(req: Request): string {
  const incoming = req.headers.get('x-request-id');
  const id = incoming && SAFE.test(incoming) ? incoming : `req_${randomBytes(12).toString('base64url')}`;
  ids.set(req, id);
  return id;
}

/** The id assigned to this request (assigning one if the request bypassed the server wrapper). */
export function requestId(req: Request): string {
  return ids.get(req) ?? assignRequestId(req);
}
