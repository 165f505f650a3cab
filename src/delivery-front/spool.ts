import { closeSync, existsSync, fstatSync, openSync, readSync, renameSync, unlinkSync } from 'node:fs';

/** One answer nginx sent on its own (a grant), as its request log line gives it. */
export interface SpoolLine {
  /** Unix time in seconds, millisecond resolution. */
  t: number; m: string; s: number;
  /** Content-Length sent ('' when none). */
  l: string;
  sig: string; ten: string; ast: string; ver: string; f: string; ip: string; ua: string; ref: string;
}

/** Pure: the complete JSON lines of a chunk (after `rest`, the unfinished tail of the previous one) and the new tail. */
export function splitSpool(rest: string, chunk: string): { lines: SpoolLine[]; rest: string } {
  const text = rest + chunk;
  const end = text.lastIndexOf('\n');
  if (end < 0) return { lines: [], rest: text };
  const body = text.slice(0, end);
  // All complete lines in one parse (nginx writes whole lines); line by line only when one of them is torn.
  try {
    return { lines: JSON.parse(`[${body.replace(/\n+/g, ',').replace(/^,|,$/g, '')}]`) as SpoolLine[], rest: text.slice(end + 1) };
  } catch { /* below */ }
  const lines: SpoolLine[] = [];
  for (const l of body.split('\n')) {
    if (!l) continue;
    try { lines.push(JSON.parse(l) as SpoolLine); } catch { /* a torn or foreign line: skipped */ }
  }
  return { lines, rest: text.slice(end + 1) };
}

/**
 * Reads the front's request log spool as nginx appends to it (every `everyMs`), hands each complete line to `onLines`,
 * and rotates it once it passes `rotateBytes`: renamed, nginx told to reopen its logs (`reopen`: USR1 to its master),
 * the old file read to its end for a while longer (lines nginx still had buffered), then deleted. Stops with `stop()`
 * after a last read.
 */
export function tailSpool(path: string, onLines: (lines: SpoolLine[]) => void, o: { everyMs?: number; rotateBytes?: number; reopen: () => void; ownTimer?: boolean }) {
  const everyMs = o.everyMs ?? 250, rotateBytes = o.rotateBytes ?? 8 * 1024 * 1024;
  const buf = Buffer.alloc(256 * 1024);
  type Open = { fd: number; pos: number; rest: string };
  let cur: Open | null = null;
  let old: (Open & { left: number }) | null = null;
  const drain = (f: Open) => {
    for (;;) {
      const n = readSync(f.fd, buf, 0, buf.length, f.pos);
      if (n <= 0) return;
      f.pos += n;
      const { lines, rest } = splitSpool(f.rest, buf.toString('utf8', 0, n));
      f.rest = rest;
      if (lines.length) { try { onLines(lines); } catch { /* never stops the reader */ } }
    }
  };
  const tick = () => {
    try {
      if (old) {
        drain(old);
        if (--old.left <= 0) { closeSync(old.fd); old = null; }
      }
      if (!cur && existsSync(path)) cur = { fd: openSync(path, 'r'), pos: 0, rest: '' };
      if (!cur) return;
      drain(cur);
      if (!old && fstatSync(cur.fd).size >= rotateBytes) {
        const gone = `${path}.old`;
        renameSync(path, gone);
        unlinkSync(gone); // the open descriptor keeps reading it
        old = { ...cur, left: Math.ceil(2000 / everyMs) };
        cur = null;
        o.reopen();
      }
    } catch { /* the spool's directory removed while stopping: nothing left to read */ }
  };
  // ownTimer false: the caller runs `flush` every `everyMs` from a timer it already has (one wake-up instead of two).
  const timer = o.ownTimer === false ? null : setInterval(tick, everyMs);
  timer?.unref();
  return {
    /** Reads what is there now (the caller's timer, tests, shutdown). */
    flush: tick,
    stop(): void {
      if (timer) clearInterval(timer);
      tick();
      for (const f of [cur, old]) if (f) { try { closeSync(f.fd); } catch { /* closed */ } }
      cur = old = null;
    },
  };
}
