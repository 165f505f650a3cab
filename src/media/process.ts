import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** Options for one supervised tool process (ffmpeg, ffprobe). */
export interface RunOptions {
  /** Kill the process group when no progress was reported for this long (ms); 0 disables. */
  stallMs?: number;
  /** Hard deadline for the whole run (ms); 0 disables. */
  timeoutMs?: number;
  /** Lines of stderr kept in the ring buffer. */
  stderrLines?: number;
  /** Called for each stdout line (e.g. `-progress pipe:1` key=value lines); counts as progress. */
  onStdoutLine?: (line: string) => void;
  /** Called for each stderr line. */
  onStderrLine?: (line: string) => void;
  /** When true, any stderr output also counts as progress (for tools that do not write -progress). */
  stderrIsProgress?: boolean;
  cwd?: string;
  env?: Record<string, string>;
  /** Run with TOOL_MALLOC_TUNABLES (stream-copy remuxes into fMP4; see there). */
  mallocTunables?: boolean;
  /**
   * CPU niceness added to the server's own for the tool (0-19, `nice -n`; 0 or absent: the server's own). For batch
   * work that may use every spare cycle but must not take the CPU from the server's event loop or from live ingest.
   */
  nice?: number;
  /**
   * Linux scheduling policy `batch` (SCHED_BATCH via util-linux `chrt`, when installed): the tool's threads keep their
   * share of the CPU but do not preempt a running thread when they wake, and its children inherit the policy.
   */
  batch?: boolean;
  /**
   * Disk priority within the best-effort class (0-7, `ionice -c 2 -n`; 7 lowest; absent: the server's own): batch
   * jobs reading and writing large files yield the disk to live recording and delivery without ever starving.
   */
  ioNice?: number;
  /** Abort signal: aborting kills the process group. */
  signal?: AbortSignal;
  /**
   * Kill the tool when this server dies, even by SIGKILL (Linux parent-death signal via util-linux `setpriv`,
   * when installed). Default true: an orphaned ffmpeg must not keep writing after a crash.
   */
  dieWithParent?: boolean;
  /**
   * The parent-death signal (default KILL). TERM for a tool whose own children must be stopped by it (nginx's master
   * stops its workers on TERM; killed outright, it would leave them serving).
   */
  parentDeathSignal?: 'KILL' | 'TERM';
  /**
   * Kill the rest of the process group as soon as the tool itself exits (nginx: workers of a master killed outright keep
   * serving, and keep its stderr open, so the run would otherwise never end).
   */
  groupDiesWithLeader?: boolean;
  /** Open a pipe to the tool's standard input (Running.stdin) instead of closing it: for tools fed bytes as they come. */
  stdin?: boolean;
}

/** How a run ended. */
export interface RunResult { code: number | null; signal: string | null; stalled: boolean; timedOut: boolean; aborted: boolean; stderrTail: string[] }

/**
 * glibc malloc settings for stream-copy remuxes into fMP4 (RunOptions.mallocTunables): blocks up to 32 MB come from the
 * heap instead of a fresh mmap each, and freed memory stays in the process (trimmed only beyond 512 MB) instead of
 * going back to the kernel after each free. Such a remux allocates and frees packet- and fragment-sized buffers all
 * the time; with glibc's defaults each large one is a new mapping whose pages fault in and are zeroed again. A 60 s
 * 1080p (130 MB) quick-play remux took 1.4-1.5 CPU-s with the defaults and 0.34-0.46 with these (neither setting alone
 * helps). Not for encodes: the 1080p ladder took 3 % more CPU with them (14.83 against 14.38 CPU-s, medians of six
 * alternating pairs). Ignored by other C libraries; a GLIBC_TUNABLES in the server's own environment (or a caller's
 * env) takes precedence.
 */
export const TOOL_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=536870912';

const live = new Set<ChildProcess>();
const SETPRIV = process.platform === 'linux' ? Bun.which('setpriv') : null;
const NICE = Bun.which('nice');
const CHRT = process.platform === 'linux' ? Bun.which('chrt') : null;
const IONICE = process.platform === 'linux' ? Bun.which('ionice') : null;

/** Kills every tool process group this process started (shutdown and crash paths). */
export function killAllChildren(): void {
  for (const c of live) killGroup(c, 'SIGKILL');
}
process.on('exit', killAllChildren);

function killGroup(c: ChildProcess, sig: NodeJS.Signals): void {
  if (c.pid === undefined) return;
  try { process.kill(-c.pid, sig); } catch { try { c.kill(sig); } catch { /* gone */ } }
}

/** A running tool process: wait for it, or stop it (SIGTERM to the group, SIGKILL after a grace period). */
export interface Running { pid: number; done: Promise<RunResult>; stop(graceMs?: number): Promise<RunResult>; stderrTail(): string[]; /** The tool's standard input when RunOptions.stdin asked for it. */ stdin?: NodeJS.WritableStream & { writableLength: number } }

/**
 * Spawns a tool with an argv array (never a shell) in its own process group (`detached` = setsid), stdin closed,
 * with a stall watchdog and a stderr ring buffer. The group is killed on stop, abort, timeout and stall.
 */
export function runTool(argv0: string[], o: RunOptions = {}): Running {
  // setpriv execs the tool in place (same pid), with SIGKILL (or the given signal) as its parent-death signal.
  const guarded = o.dieWithParent !== false && SETPRIV ? [SETPRIV, '--pdeathsig', o.parentDeathSignal ?? 'KILL', '--', ...argv0] : argv0;
  // nice(1) execs in place too, so the tool starts at that priority before it creates any thread (Linux keeps a
  // niceness per thread: lowering only the main thread's after the start could miss the encoder's threads).
  const nice = Math.max(0, Math.min(19, Math.trunc(o.nice ?? 0)));
  const niced = nice && NICE ? [NICE, '-n', String(nice), ...guarded] : guarded;
  // chrt sets the policy and execs in place too (before the tool forks: nginx's workers inherit it).
  const batched = o.batch && CHRT ? [CHRT, '--batch', '0', ...niced] : niced;
  // ionice execs in place too; its class and level are inherited by the tool's threads and children.
  const io = o.ioNice === undefined ? null : Math.max(0, Math.min(7, Math.trunc(o.ioNice)));
  const argv = io !== null && IONICE ? [IONICE, '-c', '2', '-n', String(io), ...batched] : batched;
  const base = o.env ?? (process.env as Record<string, string>);
  const env = o.mallocTunables ? { GLIBC_TUNABLES: TOOL_MALLOC_TUNABLES, ...base } : base;
  const child = spawn(argv[0], argv.slice(1), { cwd: o.cwd, env, detached: true, stdio: [o.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  child.stdin?.on('error', () => { /* the tool exited while bytes were on their way: its exit is reported by done */ });
  live.add(child);
  // The tool leads a session of its own (detached), and with Linux's autogroup scheduling (on by default) each session
  // is a group that competes with the server's as an equal, whatever its threads' niceness: the group's own niceness
  // is what counts there. Weighs the whole group at once, so it holds for threads started before this write too.
  if (nice && child.pid) try { writeFileSync(`/proc/${child.pid}/autogroup`, String(nice)); } catch { /* no autogroup: nice(1) alone */ }
  const ring: string[] = [];
  const keep = o.stderrLines ?? 60;
  let lastProgress = Date.now();
  let stalled = false, timedOut = false, aborted = false;
  const lines = (stream: NodeJS.ReadableStream | null, fn: (l: string) => void) => {
    let buf = '';
    stream?.setEncoding?.('utf8');
    stream?.on('data', (chunk: string) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) { const l = buf.slice(0, i).replace(/\r$/, ''); buf = buf.slice(i + 1); fn(l); }
      if (buf.length > 65536) { fn(buf); buf = ''; }
    });
    stream?.on('end', () => { if (buf) fn(buf); });
  };
  lines(child.stdout, (l) => { lastProgress = Date.now(); o.onStdoutLine?.(l); });
  lines(child.stderr, (l) => {
    ring.push(l); if (ring.length > keep) ring.shift();
    if (o.stderrIsProgress) lastProgress = Date.now();
    o.onStderrLine?.(l);
  });
  const timers: ReturnType<typeof setInterval>[] = [];
  if (o.stallMs) timers.push(setInterval(() => { if (Date.now() - lastProgress > o.stallMs!) { stalled = true; killGroup(child, 'SIGKILL'); } }, Math.min(1000, o.stallMs)));
  if (o.timeoutMs) timers.push(setTimeout(() => { timedOut = true; killGroup(child, 'SIGKILL'); }, o.timeoutMs) as never);
  const onAbort = () => { aborted = true; killGroup(child, 'SIGKILL'); };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) onAbort();
  const done = new Promise<RunResult>((resolve) => {
    const finish = (code: number | null, signal: string | null) => {
      for (const t of timers) clearInterval(t as never);
      o.signal?.removeEventListener('abort', onAbort);
      live.delete(child);
      killGroup(child, 'SIGKILL'); // reap any grandchildren left in the group
      resolve({ code, signal, stalled, timedOut, aborted, stderrTail: [...ring] });
    };
    child.on('error', (e) => { ring.push(String(e)); finish(-1, null); });
    if (o.groupDiesWithLeader) child.on('exit', () => killGroup(child, 'SIGKILL'));
    child.on('close', (code, signal) => finish(code, signal));
  });
  return {
    pid: child.pid ?? -1,
    done,
    stderrTail: () => [...ring],
    ...(child.stdin ? { stdin: child.stdin } : {}),
    async stop(graceMs = 3000) {
      killGroup(child, 'SIGTERM');
      const t = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      const r = await done;
      clearTimeout(t);
      return r;
    },
  };
}
