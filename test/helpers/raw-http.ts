import { connect } from 'node:net';

/** One raw HTTP/1.1 exchange: status code, headers (lower-case) and body, read until the server closes. */
export interface RawAnswer { status: number; headers: Record<string, string>; body: Buffer }

/**
 * Sends `head` (request line and headers, without the final blank line) plus an optional body over a fresh TCP
 * connection with `Connection: close`, bypassing every client-side URL normalisation, and reads the answer.
 */
export function rawRequest(port: number, head: string, body: Buffer | string = '', timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`raw request timed out: ${head.split('\r\n')[0]}`)); }, timeoutMs);
    sock.on('connect', () => {
      sock.write(`${head}\r\nConnection: close\r\n\r\n`);
      if (body.length) sock.write(body);
    });
    sock.on('data', (d: Buffer | string) => chunks.push(Buffer.from(d)));
    sock.on('error', (e) => { clearTimeout(timer); reject(e); });
    sock.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const headText = all.subarray(0, end < 0 ? all.length : end).toString('latin1');
      const [statusLine, ...lines] = headText.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) { const i = l.indexOf(':'); if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim(); }
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: end < 0 ? Buffer.alloc(0) : all.subarray(end + 4) });
    });
  });
}
