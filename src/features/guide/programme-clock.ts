/**
 * The guide clock: once a second, emits `channel.programme_started` for every programme whose start passed since the
 * last tick. Its position is durable (a named cursor holding epoch ms), so a restart neither repeats nor loses starts;
 * after a long stop it catches up at most the last 5 minutes. An idle tick only reads: the position is written with
 * the starts it announces, and otherwise at most once a minute (an idle appliance made a write transaction and
 * two WAL fsyncs every second here), so after a restart the clock looks back at most a minute further than it ran.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { LazyCursor } from '../../kernel/events/cursors';
import { iso } from '../../kernel/clock';
import { channelById } from '../channels/service';
import { GuideStore } from './store';

const CURSOR = 'guide-clock';
const CATCH_UP_MS = 5 * 60_000;
const BATCH = 500;
/** How far the stored position may lag the in-memory one while nothing starts. */
const IDLE_SAVE_MS = 60_000;

/** A guide clock over one database: `tick(now)` emits the starts in (last, now] and returns how many it emitted. */
export function programmeClock(ctx: AppContext): { tick(now?: number): number } {
  const store = new GuideStore(ctx.db);
  const cursor = new LazyCursor(ctx.db, CURSOR, IDLE_SAVE_MS);
  return {
    tick(now = ctx.clock.now()): number {
      // First run: start from now (programmes already on air are not announced).
      const last = cursor.position(now);
      if (last === null) return 0;
      const from = Math.max(last, now - CATCH_UP_MS);
      if (now <= from) return 0;
      // Read outside a transaction: this process is the database's only writer, so the rows cannot change before the
      // transaction below, which an idle tick never opens.
      const rows = store.startingBetween(from, now, BATCH);
      if (rows.length === 0) { cursor.idle(now); return 0; }
      // A full batch resumes after its last start (programmes starting at the same ms stay in one batch in practice).
      const next = rows.length === BATCH ? rows[rows.length - 1].start_ms : now;
      tx(ctx.db, () => {
        for (const p of rows) {
          const ch = channelById(ctx, p.tenant_id, p.channel_id);
          emitEvent(ctx.db, p.tenant_id, 'channel.programme_started', { channel: p.channel_id, channel_id: p.channel_id, slug: ch?.slug ?? null, programme: p.id, title: p.title, start: iso(p.start_ms), end: iso(p.end_ms) }, now);
        }
        cursor.write(next);
      });
      // Only once committed: a failed transaction leaves the position where it was, to be tried again next tick.
      cursor.committed(next);
      return rows.length;
    },
  };
}

/** Starts the guide clock (every `everyMs`); stops on shutdown. */
export function startProgrammeClock(ctx: AppContext, everyMs = 1000): void {
  const clock = programmeClock(ctx);
  const timer = setInterval(() => {
    try { clock.tick(); } catch (e) { ctx.log.error('guide clock failed', { error: String(e) }); }
  }, everyMs);
  ctx.onStop(() => clearInterval(timer));
}
