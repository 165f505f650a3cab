import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AppContext } from '../kernel/context';
import { recordCdnHits, type CdnHit } from '../features/stats/cdn-usage';
import { generationHost } from './distribution-conf';
import { tailSpool } from './spool';

/** One line of the distributions' usage log (`vs_cdn` in distribution-conf.ts). */
export interface CdnLine { t: number; d: string; ten: string; m: string; s: number; b: number; c: string; ic: string }

/** True once a fresh connection to host:port gets 204 from the configuration generation's marker server. */
export function servesGeneration(host: string, port: number, generation: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    let got = '';
    const done = (v: boolean) => { s.destroy(); resolve(v); };
    s.setTimeout(2000, () => done(false));
    s.once('connect', () => s.write(`GET / HTTP/1.1\r\nHost: ${generationHost(generation)}\r\nConnection: close\r\n\r\n`));
    s.on('data', (c) => { got += c.toString('latin1'); if (got.includes('\r\n')) done(/^HTTP\/1\.[01] 204 /.test(got)); });
    s.once('error', () => done(false));
    s.once('end', () => done(false));
  });
}

/** The pids of a process's children (from /proc; empty where it cannot be read). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  let names: string[] = [];
  try { names = readdirSync('/proc'); } catch { return out; }
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const st = readFileSync(`/proc/${n}/stat`, 'latin1');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(n));
    } catch { /* exited meanwhile */ }
  }
  return out;
}

/**
 * True once none of `pids` (the nginx workers before a reload) still accepts connections: each has exited or calls
 * itself "shutting down" (nginx sets that title as it closes its listening sockets on a graceful quit).
 */
export function oldWorkersGone(pids: number[]): boolean {
  return pids.every((p) => {
    try { return readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('shutting down'); } catch { return true; }
  });
}

/** Checks a configuration with `nginx -t` (its own words in the error when it refuses). */
export async function testNginxConf(nginx: string, dir: string, conf: string): Promise<void> {
  const p = Bun.spawn([nginx, '-t', '-q', '-e', 'stderr', '-p', dir, '-c', conf], { stdout: 'ignore', stderr: 'pipe', stdin: 'ignore' });
  const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
  if (code !== 0) throw new Error(`edge configuration refused by nginx: ${err.trim().split('\n').slice(-3).join(' | ')}`);
}

/** Pure: a usage log line as a usage row (null: not a distribution's answer). */
export function cdnHitOf(l: CdnLine): CdnHit | null {
  if (typeof l.d !== 'string' || !l.d || typeof l.ten !== 'string' || !l.ten) return null;
  const cache = l.c && l.c !== '-' ? l.c : l.ic && l.ic !== '-' ? l.ic : '-';
  return { ts: Math.round(Number(l.t) * 1000), tenantId: l.ten, distributionId: l.d, method: String(l.m), status: Number(l.s) || 0, bytes: Number(l.b) || 0, cache };
}

/** Reads the distributions' usage log into the statistics store (every 250 ms) until stopped. */
export function followCdnUsage(ctx: AppContext, log: string, reopen: () => void): { flush(): void; stop(): void } {
  return tailSpool(log, (lines) => {
    const hits = (lines as unknown as CdnLine[]).map(cdnHitOf).filter((h): h is CdnHit => h !== null);
    if (hits.length) recordCdnHits(ctx, hits);
  }, { reopen, everyMs: 250 });
}
