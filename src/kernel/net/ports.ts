import { createServer } from 'node:net';

/** A TCP port free on `host` now (bound and released at once; another program may still take it before its use). */
export async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => { const a = s.address(); s.close(() => resolve(typeof a === 'object' && a ? a.port : 0)); });
  });
}

/** Refuses to share a port another program listens on (SO_REUSEPORT would otherwise let two services split it). */
export async function assertPortFree(port: number, host: string, what = 'port'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (e) => reject(new Error(`${what} ${port} is in use: ${(e as Error).message}`)));
    srv.listen(port, host, () => srv.close(() => resolve()));
  });
}
