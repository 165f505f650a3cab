import type { Subprocess } from 'bun';

/** A spawned `viewstream serve` (source or binary) with its parsed address and first owner key. */
export interface ServeProc { proc: Subprocess<'ignore', 'pipe', 'pipe'>; url: string; key: string | null; output(): string; kill(sig?: NodeJS.Signals | number): void }

/**
 * Spawns `argv serve --port 0 ...` and waits until it prints its address (and key on first start). The appliance
 * serves alone on its port (VS_DELIVERY_FRONT=off, as startTestServer) unless `env` says otherwise: these tests drive
 * its own listener; a test of `serve`'s default front passes VS_DELIVERY_FRONT=auto.
 */
export async function spawnServe(argv: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ServeProc> {
  const proc = Bun.spawn([...argv], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env: { ...process.env, VS_LOG_LEVEL: 'warn', VS_DELIVERY_FRONT: 'off', ...env } });
  let out = '';
  let err = '';
  const dec = new TextDecoder();
  (async () => { const r = proc.stderr.getReader(); for (;;) { const c = await r.read(); if (c.done) break; err += dec.decode(c.value); } })();
  const reader = proc.stdout.getReader();
  const end = Date.now() + timeoutMs;
  let pending: Promise<{ done: boolean; value?: Uint8Array }> | null = null;
  while (!/listening on \S+:\d+/.test(out) || (out.includes('Created tenant') && !out.includes('Try:'))) {
    if (Date.now() > end) { proc.kill(9); throw new Error(`serve did not start: ${out}\n${err}`); }
    pending ??= reader.read();
    const r = await Promise.race([pending, Bun.sleep(100).then(() => null)]);
    if (r === null) { if (proc.exitCode !== null) throw new Error(`serve exited ${proc.exitCode}: ${out}\n${err}`); continue; }
    pending = null;
    if (r.done) break;
    out += dec.decode(r.value);
  }
  (async () => {
    if (pending) { const r = await pending; if (r.done) return; out += dec.decode(r.value); }
    for (;;) { const r = await reader.read(); if (r.done) break; out += dec.decode(r.value); }
  })();
  const listening = /listening on \S+:(\d+)/.exec(out);
  // stdout ended before the address: serve is exiting; say how, with what it wrote (stderr is read above).
  if (!listening) throw new Error(`serve closed its output before listening (exit ${await Promise.race([proc.exited, Bun.sleep(2000).then(() => 'still running')])}): ${out}\n${err}`);
  const port = listening[1];
  return {
    proc, url: `http://127.0.0.1:${port}`, key: /\b(vs_[A-Za-z0-9_-]{20,})/.exec(out)?.[1] ?? null,
    output: () => out + err,
    kill: (sig = 'SIGKILL') => { try { proc.kill(sig as number); } catch { /* gone */ } },
  };
}
