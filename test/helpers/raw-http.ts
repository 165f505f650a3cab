import { connect } from 'node:net';

/** One raw HTTP/1.1 exchange: status code, headers (lower-case) and body, read until the server closes. */
export interface RawAnswer { status: number; headers: Record<string, string>; body: Buffer }

/**
 * Sends `head` (request line and headers, without the final blank line) plus an optional body over a fresh TCP
 * connection with `Connection: close`, bypassing every client-side URL normalisation, and reads the answer
 * (from `localAddress` when given).
 */
export function rawRequest(port: number, head: string, body: Buffer | string = '', timeoutMs = 5_000, localAddress?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // `localAddress`: a loopback source address (127.0.0.x) the request comes from (geo and leak tests).
    const sock = localAddress ? connect({ port, host: '127.0.0.1', localAddress }) : connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`raw request timed out: ${head.split('\r\n')[0]}`)); }, timeoutMs);
    const parse = (all: Buffer): RawAnswer | null => {
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return null;
      const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) { const i = l.indexOf(':'); if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim(); }
      const rest = all.subarray(end + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      return { status, headers, body: rest };
    };
    const finish = (a: RawAnswer) => { if (done) return; done = true; clearTimeout(timer); sock.destroy(); resolve(a); };
    sock.on('connect', () => {
      sock.write(`${head}\r\nConnection: close\r\n\r\n`);
      if (body.length) sock.write(body);
    });
    // Complete as soon as the answer is whole (Content-Length, or the last chunk): Bun keeps the connection open after
    // an asynchronous answer even when the client asked for Connection: close, so the close may never come.
    sock.on('data', (d: Buffer | string) => {
      chunks.push(Buffer.from(d));
      const a = parse(Buffer.concat(chunks));
      if (!a) return;
      if (head.startsWith('HEAD ')) { finish(a); return; }
      const len = a.headers['content-length'];
      if (len !== undefined && a.body.length >= Number(len)) finish({ ...a, body: a.body.subarray(0, Number(len)) });
      else if (a.headers['transfer-encoding']?.includes('chunked') && a.body.includes('0\r\n\r\n')) finish(a);
      else if (len === undefined && !a.headers['transfer-encoding'] && (a.status === 204 || a.status === 304)) finish(a);
    });
    sock.on('error', (e) => { if (done) return; clearTimeout(timer); reject(e); });
    sock.on('close', () => {
      if (done) return;
      clearTimeout(timer);
      done = true;
      const a = parse(Buffer.concat(chunks));
      resolve(a ?? { status: 0, headers: {}, body: Buffer.alloc(0) });
    });
  });
}
