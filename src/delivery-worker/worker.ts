import { join } from 'node:path';
import { openDb } from '../kernel/db/sqlite';
import { createLogger } from '../kernel/log';
import { systemClock } from '../kernel/clock';
import { serveApp } from '../kernel/http/server';
import { splitUrl } from '../kernel/http/url';
import { Slots } from '../kernel/slots';
import { reportStalls } from '../kernel/stall';
import type { AppContext } from '../kernel/context';
import type { Served } from '../features/playback/gate';
import { playbackState } from '../features/playback/service';
import { deliveryApp } from './app';
import { ELSEWHERE_HEADER, forwarder } from './forward';
import type { FromWorker, ToWorker } from './protocol';

const DELIVERY = /^\/(t|m|live)\//;

/**
 * A delivery worker process: waits for its `init` message, opens the metadata database query-only, serves GET/HEAD
 * delivery (/t/, /m/, /live/) on the shared port (SO_REUSEPORT) behind the same canonical-target check and gate as
 * the main process, forwards every other request to the main process over its Unix socket, and sends its delivery
 * observations (the origin log) to the main process in small batches. Exits when told to stop or when the main
 * process goes away.
 */
export async function runDeliveryWorker(): Promise<void> {
  const send = (m: FromWorker) => process.send?.(m);
  const init = await new Promise<Extract<ToWorker, { type: 'init' }>>((resolve) => {
    process.on('message', function first(m: ToWorker) { if (m.type === 'init') { process.off('message', first); resolve(m); } });
  });
  const config = Object.freeze(init.config);
  const log = createLogger(config.logLevel);
  const db = openDb(join(config.dataDir, 'db', 'meta.sqlite'), { dataDir: config.dataDir, upgrade: false });
  db.exec('PRAGMA query_only = 1'); // this process never writes: the main process owns every write
  const ctx = { config, db, log, clock: systemClock, slots: new Slots(), onStop: () => {} } as unknown as AppContext;
  const { app, gate, token } = deliveryApp(ctx);
  playbackState(ctx).followWrites();
  let batch: Served[] = [];
  // Sent 50 ms after the first answer of a batch (or at 512): no timer runs while nothing is served.
  let flusher: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (flusher) { clearTimeout(flusher); flusher = null; }
    if (batch.length) { send({ type: 'served', items: batch }); batch = []; }
  };
  if (init.observe) {
    gate.observe((s) => {
      batch.push(s);
      if (batch.length >= 512) flush();
      else flusher ??= setTimeout(flush, 50);
    });
  }
  const forward = forwarder(init.sock, config.problemsBase, config.bodyDeadline, { tag: init.tag ? `worker-${init.id}` : undefined });
  /** This worker's answer, or the main process's when the worker's app says "elsewhere". */
  const mine = (r: Request, res: Response): Response | Promise<Response> => {
    if (res.headers.has(ELSEWHERE_HEADER)) return forward(r);
    if (init.tag) res.headers.set('x-vs-served-by', `worker-${init.id}`);
    return res;
  };
  // Synchronous when the answer is (a token file answer is): no promise on the common path.
  const handle = (r: Request): Response | Promise<Response> => {
    if (r.method === 'GET' || r.method === 'HEAD') {
      const path = splitUrl(r.url).path;
      if (path.startsWith('/t/')) {
        const out = token(r);
        return out instanceof Response ? mine(r, out) : out.then((res) => mine(r, res));
      }
      if (DELIVERY.test(path)) return app.handle(r).then((res: Response) => mine(r, res));
    }
    return forward(r);
  };
  const server = serveApp(handle, { port: config.port, host: config.host, reusePort: true, maxBodyBytes: 70 * 1024 * 1024, problemsBase: config.problemsBase });
  const stopStalls = reportStalls(process.env.VS_STALL_FILE && `${process.env.VS_STALL_FILE}.w${init.id}`, `worker ${init.id}`);
  let stopping = false;
  const stop = async (graceS: number) => {
    if (stopping) return;
    stopping = true;
    await server.stop(graceS);
    flush();
    stopStalls();
    db.close();
    process.exit(0);
  };
  process.on('message', (m: ToWorker) => { if (m.type === 'stop') void stop(m.graceS); });
  process.on('disconnect', () => void stop(0));
  // Never outlive the main process (its death may not close the IPC channel first).
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) void stop(0); }, 1000).unref();
  process.on('SIGTERM', () => void stop(config.shutdownGraceS));
  process.on('SIGINT', () => {}); // a terminal's Ctrl-C reaches the whole group: the main process stops us in order
  send({ type: 'ready', id: init.id, pid: process.pid });
}
