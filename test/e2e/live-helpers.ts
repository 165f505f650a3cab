import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { pusherArgs } from '../../src/media/args/live-ingest';

/** A free TCP port (bound to port 0, then released). */
export async function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
}

async function udpFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    s.once('error', () => { s.close(); resolve(false); });
    s.bind(port, '0.0.0.0', () => s.close(() => resolve(true)));
  });
}

/** `n` consecutive free UDP ports as a VS_SRT_PORTS range (probed). */
export async function freeUdpRange(n: number): Promise<string> {
  for (let tries = 0; tries < 200; tries++) {
    const start = 20000 + Math.floor(Math.random() * 40000);
    let ok = true;
    for (let p = start; p < start + n && ok; p++) ok = await udpFree(p);
    if (ok) return `${start}-${start + n - 1}`;
  }
  throw new Error('no free UDP range');
}

/** Env for startTestServer with probed SRT and RTMP ports. */
export async function liveEnv(srtPorts = 8): Promise<Record<string, string>> {
  return { VS_SRT_PORTS: await freeUdpRange(srtPorts), VS_RTMP_PORT: String(await freeTcpPort()) };
}

const children = new Set<ChildProcess>();

/** A pushing ffmpeg in its own process group; `kill()` ends the group. */
export interface Pusher { proc: ChildProcess; exited: Promise<number | null>; kill(sig?: NodeJS.Signals): void; /** The last 2000 characters ffmpeg wrote to stderr. */ stderr(): string }

/** Starts a synthetic pusher (testsrc2 + sine, x264 ultrafast) to an SRT or RTMP URL. */
export function push(url: string, o: Parameters<typeof pusherArgs>[2] = {}): Pusher {
  const argv = pusherArgs('ffmpeg', url, o);
  const proc = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(proc);
  let err = '';
  proc.stderr?.on('data', (d) => { err = (err + d).slice(-2000); });
  const exited = new Promise<number | null>((r) => proc.on('close', (c) => { children.delete(proc); r(c); }));
  return { proc, exited, kill: (sig = 'SIGKILL') => { try { process.kill(-proc.pid!, sig); } catch { /* gone */ } }, stderr: () => err };
}

/**
 * Keeps a process running: starts it again 300 ms after each exit (like an encoder that reconnects), until
 * stopped. Shared by the ffmpeg and GStreamer pushers.
 */
export function keepRunning<P extends { exited: Promise<unknown>; kill(): void }>(start: () => P): { stop(): Promise<void>; current(): P } {
  let cur = start();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await cur.exited;
      if (stopped) break;
      await Bun.sleep(300); // deliberate reconnect back-off of a real encoder, not a wait for a condition
      if (!stopped) cur = start();
    }
  })();
  return { current: () => cur, async stop() { stopped = true; cur.kill(); await cur.exited; await loop; } };
}

/** Keeps pushing: restarts the pusher whenever it exits (like an encoder that reconnects), until stopped. */
export function pushForever(url: string, o: Parameters<typeof pusherArgs>[2] = {}): { stop(): Promise<void>; current(): Pusher } {
  return keepRunning(() => push(url, o));
}

/** Kills every pusher still running (afterAll). */
export async function killPushers(): Promise<void> {
  for (const c of children) try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ }
}

/** Parses a media playlist: segment URIs with PDT (ms), duration (ms) and discontinuity flags. */
export function parseMedia(text: string): { uri: string; pdt: number; durMs: number; disc: boolean; map: string }[] {
  const out: { uri: string; pdt: number; durMs: number; disc: boolean; map: string }[] = [];
  let pdt = 0, dur = 0, disc = false, map = '';
  for (const l of text.split('\n')) {
    if (l.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) pdt = Date.parse(l.slice(25));
    else if (l.startsWith('#EXTINF:')) dur = Math.round(parseFloat(l.slice(8)) * 1000);
    else if (l === '#EXT-X-DISCONTINUITY') disc = true;
    else if (l.startsWith('#EXT-X-MAP:URI="')) map = l.slice(16, -1);
    else if (l && !l.startsWith('#')) { out.push({ uri: l, pdt, durMs: dur, disc, map }); disc = false; }
  }
  return out;
}

/** ffprobe of init + segment concatenated: true when it decodes its streams. */
export async function probeSegment(init: Uint8Array, seg: Uint8Array, tmpFile: string): Promise<boolean> {
  await Bun.write(tmpFile, Buffer.concat([init, seg]));
  const p = Bun.spawn(['ffprobe', '-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', tmpFile], { stdout: 'pipe', stderr: 'pipe' });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return code === 0 && out.trim().length > 0;
}
