/**
 * The guide clock: once a second, emits `channel.programme_started` for every programme whose start passed since the
 * last tick. Its position is durable (a named cursor holding epoch ms), so a restart neither repeats nor loses starts;
 * after a long stop it catches up at most the last 5 minutes.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { outboxCursor, setOutboxCursor } from '../../kernel/events/cursors';
import { iso } from '../../kernel/clock';
import { channelById } from '../channels/service';
import { GuideStore } from './store';

const CURSOR = 'guide-clock';
const CATCH_UP_MS = 5 * 60_000;
const BATCH = 500;

/** One tick: emits the starts in (last, now]; returns how many were emitted. */
export function programmeClockTick(ctx: AppContext, now = ctx.clock.now()): number {
  const store = new GuideStore(ctx.db);
  return tx(ctx.db, () => {
    const stored = outboxCursor(ctx.db, CURSOR);
    // First run: start from now (programmes already on air are not announced).
    if (!stored) { setOutboxCursor(ctx.db, CURSOR, now); return 0; }
    const last = Math.max(stored, now - CATCH_UP_MS);
    if (now <= last) return 0;
    const rows = store.startingBetween(last, now, BATCH);
    for (const p of rows) {
      const ch = channelById(ctx, p.tenant_id, p.channel_id);
      emitEvent(ctx.db, p.tenant_id, 'channel.programme_started', { channel: p.channel_id, channel_id: p.channel_id, slug: ch?.slug ?? null, programme: p.id, title: p.title, start: iso(p.start_ms), end: iso(p.end_ms) }, now);
    }
    // A full batch resumes after its last start (programmes starting at the same ms stay in one batch in practice).
    setOutboxCursor(ctx.db, CURSOR, rows.length === BATCH ? rows[rows.length - 1].start_ms : now);
    return rows.length;
  });
}

/** Starts the guide clock (every `everyMs`); stops on shutdown. */
export function startProgrammeClock(ctx: AppContext, everyMs = 1000): void {
  const timer = setInterval(() => {
    try { programmeClockTick(ctx); } catch (e) { ctx.log.error('guide clock failed', { error: String(e) }); }
  }, everyMs);
  ctx.onStop(() => clearInterval(timer));
}
