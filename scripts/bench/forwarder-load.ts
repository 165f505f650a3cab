#!/usr/bin/env bun
/**
 * The load side of scripts/bench/forwarder.ts, in a process of its own so that its sockets and timers never delay
 * the probes' own event loop: `bun scripts/bench/forwarder-load.ts <port> streams|slow <n>` (keys in `KEYS`, comma
 * separated). Opens the connections, prints `ready <statuses>` (streams: once each was answered or 15 s passed;
 * slow bodies: once all were sent), then on any line on stdin prints `done <statuses>` (answers so far) and exits.
 */
import { hold, holdMany, type Held, type HeldHead } from '../../test/helpers/held-http';

const [port, kind, nText] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const n = Number(nText);
const keys = (process.env.KEYS ?? '').split(',').filter(Boolean);

/** Answers by status: `{"200": 100, "429": 900, "no answer": 0}`. */
const count = (heads: HeldHead[]) => {
  const by: Record<string, number> = {};
  for (const h of heads) { const k = h.status === -1 ? 'no answer' : h.status === 0 ? 'closed' : String(h.status); by[k] = (by[k] ?? 0) + 1; }
  return by;
};
const within = (h: Held, ms: number): Promise<HeldHead> => Promise.race([h.head, Bun.sleep(ms).then(() => ({ status: -1, headers: {}, ms }))]);

const heads: HeldHead[] = [];
if (kind === 'streams') {
  const got = await holdMany(n, 100, (i) => {
    const h = hold(port, `GET /v1/events/stream?heartbeat_s=15 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${keys[i % keys.length]}`);
    return { ...h, head: within(h, 15_000) };
  });
  heads.push(...got.heads);
} else {
  for (let i = 0; i < n; i++) {
    // From 20 loopback addresses (50 each): under the beacon limit of 120 a minute per address, as from many clients.
    const h = hold(port, `POST /b/v1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: 2000`, { bytes: 2000, everyMs: 1000 }, `127.0.${1 + (i % 20)}.1`);
    void h.head.then((x) => { heads.push(x); h.close(); });
    if (i % 100 === 99) await Bun.sleep(20);
  }
}
process.stdout.write(`ready ${JSON.stringify(count(heads))}\n`);
for await (const _ of console) break;
process.stdout.write(`done ${JSON.stringify(count(heads))}\n`);
process.exit(0);
