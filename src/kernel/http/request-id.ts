import { randomBytes } from 'node:crypto';

/** A fresh request id prefix: `req_` and 8 random characters (a process's ids, or the delivery front's, start with it). */
export function newRequestIdPrefix(): string {
  return `req_${randomBytes(6).toString('base64url')}`;
}

// Process-unique prefix plus a counter: unique, unguessable across restarts, and cheap on the hot path.
const PREFIX = newRequestIdPrefix();
let counter = 0;
const SAFE = /^[A-Za-z0-9._:-]{8,128}$/;
/** Where a request keeps its id: a property on the Request itself (a WeakMap entry costs ~5x more per request). */
const ID = Symbol('vs.requestId');

/**
 * The id a request gets: a well-formed incoming `X-Request-Id`, otherwise a new one. Not yet kept on the request
 * (`keepRequestId`): a fast lane's answer carries it in its header and needs nothing on the Request (a property added
 * to a native Request object is a structure change and a storage allocation per request).
 */
export function makeRequestId(req: Request): string {
  const incoming = req.headers.get('x-request-id');
  return incoming !== null && SAFE.test(incoming) ? incoming : PREFIX + (++counter).toString(36);
}

/** Keeps `id` (from `makeRequestId`) on the request, where `requestId` reads it. */
export function keepRequestId(req: Request, id: string): void {
  (req as Request & { [ID]?: string })[ID] = id;
}

/** Assigns the request its id: a well-formed incoming `X-Request-Id` is kept, otherwise a new one is made. */
export function assignRequestId(req: Request): string {
  const id = makeRequestId(req);
  keepRequestId(req, id);
  return id;
}

/** The id assigned to this request (assigning one if the request bypassed the server wrapper). */
export function requestId(req: Request): string {
  return (req as Request & { [ID]?: string })[ID] ?? assignRequestId(req);
}
