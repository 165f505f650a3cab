import { connect, type Socket } from 'node:net';

/** The head of an answer on a held connection. */
export interface HeldHead { status: number; headers: Record<string, string>; ms: number }

/** A raw connection that sent a request and stays open: `head` once the answer's head arrived (status 0 if closed first). */
export interface Held { head: Promise<HeldHead>; closed: Promise<void>; close(): void }

function parseHead(buf: Buffer): Omit<HeldHead, 'ms'> | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) { const i = l.indexOf(':'); if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim(); }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers };
}

/**
 * Opens a TCP connection, sends `head` (request line and headers, no final blank line) and keeps the connection open
 * (an event stream, a slow body). With `trickle`, then sends `trickle.bytes` one byte every `trickle.everyMs` (a body
 * that never finishes in time). `from`: the local address to connect from (another 127.x address: another client).
 * Nothing is parsed after the head.
 */
export function hold(port: number, head: string, trickle?: { bytes: number; everyMs: number }, from?: string): Held {
  const t0 = performance.now();
  const sock: Socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
  let buf = Buffer.alloc(0);
  let timer: ReturnType<typeof setInterval> | null = null;
  let resolveHead!: (h: HeldHead) => void;
  const headP = new Promise<HeldHead>((r) => { resolveHead = r; });
  let got = false;
  const closed = new Promise<void>((r) => sock.on('close', () => { if (timer) clearInterval(timer); if (!got) { got = true; resolveHead({ status: 0, headers: {}, ms: performance.now() - t0 }); } r(); }));
  sock.on('error', () => {});
  sock.on('connect', () => {
    sock.write(`${head}\r\n\r\n`);
    if (trickle) {
      let left = trickle.bytes;
      timer = setInterval(() => { if (left-- > 0 && !sock.destroyed) sock.write('a'); else if (timer) clearInterval(timer); }, trickle.everyMs);
    }
  });
  sock.on('data', (d: Buffer) => {
    if (got) return;
    buf = Buffer.concat([buf, d]);
    const h = parseHead(buf);
    if (h) { got = true; resolveHead({ ...h, ms: performance.now() - t0 }); }
  });
  return { head: headP, closed, close: () => { if (timer) clearInterval(timer); sock.destroy(); } };
}

/** Opens `n` held connections in batches of `batch` (each batch's connections answered or closed before the next). */
export async function holdMany(n: number, batch: number, open: (i: number) => Held): Promise<{ held: Held[]; heads: HeldHead[] }> {
  const held: Held[] = [];
  const heads: HeldHead[] = [];
  for (let i = 0; i < n; i += batch) {
    const part = Array.from({ length: Math.min(batch, n - i) }, (_, j) => open(i + j));
    held.push(...part);
    heads.push(...await Promise.all(part.map((h) => h.head)));
  }
  return { held, heads };
}

/** Opens `n` held connections in batches of `batch` without waiting for answers (a slow body is answered late). */
export async function startMany(n: number, batch: number, open: (i: number) => Held, pauseMs = 20): Promise<Held[]> {
  const held: Held[] = [];
  for (let i = 0; i < n; i += batch) {
    for (let j = i; j < Math.min(n, i + batch); j++) held.push(open(j));
    await Bun.sleep(pauseMs);
  }
  return held;
}
