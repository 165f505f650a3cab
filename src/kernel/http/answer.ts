import { requestId } from './request-id';

/** Marks a Response built with the kernel's headers already in it; the value is the request id it carries. */
const KERNEL_HEADERS = Symbol('vs.kernelHeaders');
type Marked = Response & { [KERNEL_HEADERS]?: string };

/**
 * A 200 JSON answer of a management route with the kernel's headers built in (`X-Request-Id`, `Cache-Control:
 * no-store`): one Headers build, where adding them to a finished answer costs a second pass (hot routes such as
 * GET /v1/me).
 */
export function managementJson(req: Request, body: string): Response {
  const id = requestId(req);
  const res: Marked = new Response(body, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-request-id': id } });
  res[KERNEL_HEADERS] = id;
  return res;
}

/**
 * Marks an answer built with the kernel's headers for the request whose id is `id`: it already carries
 * `X-Request-Id: id` (and, on management and /t/ paths, its own Cache-Control), so `serveApp` adds nothing to it
 * (fast lanes, Sites Delivery answers).
 */
export function withKernelHeaders(res: Response, id: string): Response {
  (res as Marked)[KERNEL_HEADERS] = id;
  return res;
}

/** True when `res` was built by `managementJson` (or marked by `withKernelHeaders`) for the request whose id is `id`. */
export function hasKernelHeaders(res: Response, id: string): boolean {
  return (res as Marked)[KERNEL_HEADERS] === id;
}
