import { clientIp } from '../kernel/http/server';
import { requestId } from '../kernel/http/request-id';
import { AppError, problemResponse } from '../kernel/errors';
import { requestTarget } from '../kernel/http/url';

/** Header that carries the viewer address from a delivery worker to the main process (Unix socket only). */
export const PEER_HEADER = 'x-vs-peer';
/** Header a worker's own app sets on an answer it must not give (the request goes to the main process instead). */
export const ELSEWHERE_HEADER = 'x-vs-elsewhere';

// Hop-by-hop headers (RFC 9110 §7.6.1) never travel to the next hop.
const HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-connection', PEER_HEADER];

/**
 * Returns the function a delivery worker uses to hand a request to the main process over its Unix socket: same
 * method, target, headers (plus the viewer address and request id) and streamed body; the answer streams back
 * untouched (no decompression). Client disconnects abort the upstream request.
 */
export function forwarder(sock: string, problemsBase: string) {
  return async (r: Request): Promise<Response> => {
    const headers = new Headers(r.headers);
    for (const h of HOP) headers.delete(h);
    headers.set(PEER_HEADER, clientIp(r) ?? '');
    headers.set('x-request-id', requestId(r));
    // Without this the client library would ask for compression the viewer never asked for.
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'identity');
    const body = r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body ?? undefined;
    try {
      return await fetch(`http://localhost${requestTarget(r.url)}`, {
        unix: sock, method: r.method, headers, body, redirect: 'manual', decompress: false, signal: r.signal, duplex: 'half',
      } as RequestInit);
    } catch {
      return problemResponse(new AppError('internal_error', 'the appliance did not answer this request', { status: 502 }), problemsBase, requestId(r));
    }
  };
}
