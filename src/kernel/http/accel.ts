/**
 * File answers handed to a native delivery front (nginx) by `X-Accel-Redirect`: the appliance still decides every
 * request (token, revocation, policy, validators, range), and the front then writes the file itself (sendfile, with
 * the header corked into the first segment), instead of this process. Only requests that reached the appliance
 * through the front's private socket (`serveApp`'s `accelRoot`) are answered this way.
 */

/** Where a file answer's body comes from, kept on the Response itself (as the request's peer is). */
const FILE = Symbol('vs.file');
type WithFile = Response & { [FILE]?: string };

/** Set on requests that reached this process through a native delivery front's private socket. */
const FRONT = Symbol('vs.front');

/** Marks a request as one the delivery front forwarded (`serveApp` with `accelRoot`). */
export function markViaFront(req: Request): void {
  (req as Request & { [FRONT]?: true })[FRONT] = true;
}

/** True for a request the delivery front forwarded (its file answers may be repeated by the front: grants). */
export function viaFront(req: Request): boolean {
  return (req as Request & { [FRONT]?: true })[FRONT] === true;
}

/** Internal location prefixes of the front's configuration: a whole file (ranges off) and a byte range of one. */
export const ACCEL_WHOLE = '/_vs_whole/';
export const ACCEL_RANGE = '/_vs_range/';

/** Marks a 200/206 answer whose body is the file at absolute `path` (the front may send it instead). */
export function markFileAnswer(res: Response, path: string): Response {
  (res as WithFile)[FILE] = path;
  return res;
}

// Relative paths the front's location may carry as they are: no escaping needed, no dot segments.
const SAFE_REL = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * The front's version of a marked file answer to a GET: no body, the same headers (the front copies type, cache
 * policy, disposition and ranges, and adds validators, CORS and the request id from them), `X-Accel-Redirect` to the
 * whole file or to the range location (the front applies the request's own Range, which this process already
 * checked). Null when the answer stays as it is: not marked, not GET, another status, an If-Range (the front's
 * validators are not ours), or a file outside `root` or with a name the location could not carry verbatim.
 */
export function accelAnswer(req: Request, res: Response, root: string): Response | null {
  const path = (res as WithFile)[FILE];
  if (path === undefined || req.method !== 'GET' || (res.status !== 200 && res.status !== 206) || req.headers.has('if-range')) return null;
  if (!path.startsWith(root + '/')) return null;
  const rel = path.slice(root.length + 1);
  if (!SAFE_REL.test(rel)) return null;
  // The answer's own headers (built for it by serveFile), completed in place.
  const headers = res.headers;
  headers.delete('content-range');
  headers.set('content-length', '0');
  headers.set('x-accel-redirect', (res.status === 206 ? ACCEL_RANGE : ACCEL_WHOLE) + rel);
  return new Response(null, { status: 200, headers });
}
