import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { audit, type AuditEntry } from '../audit/service';

/** Longest an `mcp.tool_call` entry waits before it is written (ms). */
export const AUDIT_FLUSH_MS = 100;
const FLUSH_AT = 200;

/** Buffers audit entries and writes each batch in one SQLite transaction (one commit instead of one per call). */
export interface AuditQueue {
  /** Queues one entry, or a function that makes it at write time (written within AUDIT_FLUSH_MS, or at once when 200 are waiting). */
  add(e: AuditEntry | (() => AuditEntry)): void;
  /** Writes everything queued now. */
  flush(): void;
}

/**
 * A tool call is a read of a few hundred microseconds; a synchronous (synchronous=FULL) commit per audit entry
 * costs about 1 ms on this class of disk and dominated the call. Batching keeps every entry while paying one commit
 * per 100 ms; a shutdown writes what is queued, a process crash loses at most the entries of the last 100 ms (a
 * power cut also those committed since the last ordinary commit, see flush).
 */
export function auditQueue(ctx: AppContext): AuditQueue {
  let pending: (AuditEntry | (() => AuditEntry))[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    // This one commit does not wait for the disk (synchronous=NORMAL, WAL mode): the database stays consistent and the
    // entries become durable with the next ordinary commit or checkpoint. The fsync of a FULL commit blocked the event
    // loop for 1-10 ms every 100 ms under a stream of calls (8 % of the MCP bench's profile); a power cut may lose the
    // entries of the last moments, which the queue's interval already allows.
    ctx.db.exec('PRAGMA synchronous = NORMAL');
    try { tx(ctx.db, () => { for (const e of batch) audit(ctx, typeof e === 'function' ? e() : e); }); } catch (err) {
      ctx.log.error('mcp audit batch not written', { entries: batch.length, error: String(err) });
    } finally { ctx.db.exec('PRAGMA synchronous = FULL'); }
  };
  // Shutdown writes what is still queued (stoppers run before the database closes).
  ctx.onStop(flush);
  return {
    add(e) {
      pending.push(e);
      if (pending.length >= FLUSH_AT) flush();
      else if (!timer) timer = setTimeout(flush, AUDIT_FLUSH_MS);
    },
    flush,
  };
}
