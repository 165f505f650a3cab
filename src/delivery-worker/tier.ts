import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import type { AppContext } from '../kernel/context';
import { serveApp, type HttpServer } from '../kernel/http/server';
import { fastLanes } from '../kernel/http/fast-lane';
import type { Gate } from '../features/playback/gate';
import { PEER_HEADER, WORKER_FETCH_CAP } from './forward';
import { SOCKET_DIR_PREFIX, SOCKET_NAME, sweepStaleSocketDirs } from './stale-sockets';
import type { FromWorker, ToWorker } from './protocol';
import { restartDelay } from '../kernel/restart-backoff';

/** The running delivery workers of the main process. */
export interface DeliveryTier { pids(): number[]; stop(graceS: number): Promise<void> }

/** How a worker process is started: the compiled binary runs its `delivery-worker` command, a source run the entry file. */
function workerCommand(): string[] {
  return import.meta.path.includes('$bunfs') ? [process.execPath, 'delivery-worker'] : [process.execPath, join(import.meta.dir, 'entry.ts')];
}

/**
 * Starts `count - 1` delivery worker processes beside the main process, which must already listen on
 * `ctx.config.port` with SO_REUSEPORT: they serve delivery on the same port, forward everything else to `handle`
 * through a private Unix socket (with the viewer address), and send their observations to `gate.replay`. Workers
 * that die are started again; resolves once every worker is ready (or failed to start, logged).
 */
export async function startDeliveryTier(ctx: AppContext, gate: Gate, handle: (r: Request) => Response | Promise<Response>, count: number, o: { tag?: boolean } = {}): Promise<DeliveryTier> {
  const dir = mkdtempSync(join(tmpdir(), SOCKET_DIR_PREFIX)); // 0700: only this user reaches the socket
  const sock = join(dir, SOCKET_NAME);
  // Directories of appliances that were killed before they could remove theirs (in the background, never fatal).
  void sweepStaleSocketDirs(tmpdir()).then((gone) => { if (gone.length) ctx.log.info('removed stale delivery socket directories', { count: gone.length }); }, () => {});
  const inner: HttpServer = serveApp(handle, { port: 0, host: '', unix: sock, peerHeader: PEER_HEADER, maxBodyBytes: 70 * 1024 * 1024, problemsBase: ctx.config.problemsBase, lanes: fastLanes(ctx) });
  const procs = new Map<number, Subprocess>();
  let stopping = false;
  // Restart backoff per worker (restartDelay).
  const crashes = new Map<number, number>();
  const start = (id: number): Promise<boolean> => new Promise((resolve) => {
    const startedAt = Date.now();
    const p = Bun.spawn(workerCommand(), {
      stdio: ['ignore', 'inherit', 'inherit'],
      // Room for every forwarding lane at once (forward.ts LANES): Bun's default of 256 let streams starve the rest.
      env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(WORKER_FETCH_CAP) },
      ipc(m: FromWorker) {
        if (m.type === 'ready') resolve(true);
        else if (m.type === 'served') for (const r of m.items) gate.replay(r);
      },
    });
    procs.set(id, p);
    p.send({ type: 'init', id, config: ctx.config, sock, observe: gate.observed(), tag: o.tag ?? false } satisfies ToWorker);
    void p.exited.then((code) => {
      resolve(false);
      if (procs.get(id) === p) procs.delete(id);
      if (stopping) return;
      const { crashes: n, delayMs } = restartDelay(crashes.get(id) ?? 0, Date.now() - startedAt);
      crashes.set(id, n);
      ctx.log.error('delivery worker exited; starting it again', { worker: id, code, in_ms: delayMs });
      setTimeout(() => { if (!stopping) void start(id); }, delayMs).unref();
    });
  });
  const ids = Array.from({ length: Math.max(0, count - 1) }, (_, i) => i + 1);
  const ok = await Promise.all(ids.map((id) => Promise.race([start(id), Bun.sleep(30_000).then(() => false)])));
  if (ok.some((x) => !x)) ctx.log.error('a delivery worker did not start', { started: ok.filter(Boolean).length, wanted: ids.length });
  return {
    pids: () => [...procs.values()].map((p) => p.pid),
    async stop(graceS: number) {
      stopping = true;
      const all = [...procs.values()];
      for (const p of all) { try { p.send({ type: 'stop', graceS } satisfies ToWorker); } catch { /* already gone */ } }
      await Promise.race([Promise.all(all.map((p) => p.exited)), Bun.sleep((graceS + 5) * 1000)]);
      for (const p of all) if (p.exitCode === null) p.kill('SIGKILL');
      await inner.stop(1);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
