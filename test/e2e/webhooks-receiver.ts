import { createHmac, timingSafeEqual } from 'node:crypto';

/** One request a test receiver got. */
export interface Received { headers: Record<string, string>; raw: string; body: { id: string; type: string; at: string; customer_id: string; data: Record<string, unknown> }; at: number }

/** The receiver-side check from the docs (independent of the server's own signing code). */
export function verifyLikeACustomer(secret: string, headers: Record<string, string>, raw: string, nowS = Date.now() / 1000): boolean {
  const ts = headers['x-vs-timestamp'];
  const sig = headers['x-vs-signature'] ?? '';
  if (!ts || Math.abs(nowS - Number(ts)) > 300) return false;
  const want = 'sha256=' + createHmac('sha256', secret).update(ts + '.' + raw).digest('hex');
  return sig.length === want.length && timingSafeEqual(Buffer.from(sig), Buffer.from(want));
}

/** A real HTTP receiver on loopback; `respond` decides each answer (default 200). */
export interface Receiver {
  url: string; received: Received[];
  /** Distinct X-VS-Delivery ids seen, with how often each came. */
  byDelivery: Map<string, number>;
  respond: (r: Received, n: number) => Response | Promise<Response>;
  stop(): void;
}

/** Starts a Bun.serve receiver on 127.0.0.1:0 that records every request. */
export function startReceiver(respond?: Receiver['respond']): Receiver {
  const rec: Receiver = {
    url: '', received: [], byDelivery: new Map(), respond: respond ?? (() => new Response('ok')),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0, hostname: '127.0.0.1', idleTimeout: 30,
    async fetch(req) {
      const raw = await req.text();
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => { headers[k] = v; });
      const r: Received = { headers, raw, body: JSON.parse(raw), at: Date.now() };
      rec.received.push(r);
      const id = headers['x-vs-delivery'];
      rec.byDelivery.set(id, (rec.byDelivery.get(id) ?? 0) + 1);
      return rec.respond(r, rec.received.length);
    },
  });
  rec.url = `http://127.0.0.1:${server.port}/hook`;
  return rec;
}

/** A raw TCP receiver for faults Bun.serve cannot produce: `reset` closes on the first bytes, `drip` sends a status line and then one header byte per 200 ms, never finishing. */
export async function startRawReceiver(mode: 'reset' | 'drip'): Promise<{ url: string; hits: () => number; stop(): void }> {
  let hits = 0;
  const timers = new Set<ReturnType<typeof setInterval>>();
  const listener = Bun.listen({
    hostname: '127.0.0.1', port: 0,
    socket: {
      data(socket) {
        if ((socket as unknown as { seen?: boolean }).seen) return;
        (socket as unknown as { seen?: boolean }).seen = true;
        hits++;
        if (mode === 'reset') { socket.terminate(); return; }
        socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
        const t = setInterval(() => { try { socket.write('a'); } catch { clearInterval(t); } }, 200);
        timers.add(t);
      },
      close() { /* nothing */ },
    },
  });
  return {
    url: `http://127.0.0.1:${listener.port}/hook`, hits: () => hits,
    stop: () => { for (const t of timers) clearInterval(t); listener.stop(true); },
  };
}
