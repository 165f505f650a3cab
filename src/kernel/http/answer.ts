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

/** True when `res` was built by `managementJson` for the request whose id is `id` (its kernel headers are set). */
export function hasKernelHeaders(res: Response, id: string): boolean {
  return (res as Marked)[KERNEL_HEADERS] === id;
}
