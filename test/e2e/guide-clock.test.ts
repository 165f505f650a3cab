import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { programmeClock } from '../../src/features/guide/programme-clock';
import { eventsAfter } from '../../src/kernel/events/outbox';
import { outboxCursor } from '../../src/kernel/events/cursors';

// The guide clock driven by hand (no background workers, so no other clock runs): what it announces, that an idle
// tick writes nothing, and what a restart (a new clock over the same database) announces.
let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false }); });
afterAll(async () => { await s?.stop(); });

const iso = (ms: number) => new Date(ms).toISOString();
const started = () => eventsAfter(s.ctx.db, 0, 10_000).filter((e) => e.type === 'channel.programme_started').map((e) => (e.data as { title: string }).title);
/** SQLite's count of rows changed by this connection: moves with every write the clock makes. */
const writes = () => s.ctx.db.query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n;

test('announces each start once, idle ticks write nothing (position saved at most once a minute), a restart neither repeats nor loses', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Clock one' })).json() as { id: string };
  const t0 = Math.ceil(Date.now() / 60_000) * 60_000 + 3_600_000; // a round minute an hour ahead: nothing else starts then
  for (const [title, at] of [['First', t0 + 10_000], ['Second', t0 + 20_000], ['Third', t0 + 200_000]] as const) {
    expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title, start_at: iso(at), end_at: iso(at + 5_000) })).status).toBe(201);
  }
  const clock = programmeClock(s.ctx);
  expect(clock.tick(t0)).toBe(0); // first run: the position starts at now
  expect(outboxCursor(s.ctx.db, 'guide-clock')).toBe(t0);

  // Idle seconds before the first start: no write at all.
  const w0 = writes();
  for (let t = t0 + 1_000; t < t0 + 10_000; t += 1_000) expect(clock.tick(t)).toBe(0);
  expect(writes()).toBe(w0);

  expect(clock.tick(t0 + 10_000)).toBe(1);
  expect(clock.tick(t0 + 10_000)).toBe(0);
  expect(clock.tick(t0 + 25_000)).toBe(1);
  expect(started()).toEqual(['First', 'Second']);
  expect(outboxCursor(s.ctx.db, 'guide-clock')).toBe(t0 + 25_000); // saved with the announcement

  // Idle for more than a minute: the position is written once a minute, not every second.
  const w1 = writes();
  for (let t = t0 + 26_000; t <= t0 + 95_000; t += 1_000) clock.tick(t);
  expect(writes() - w1).toBe(1);
  expect(outboxCursor(s.ctx.db, 'guide-clock')).toBe(t0 + 85_000);

  // A restart after the Third programme started: the new clock announces it once and repeats nothing.
  const again = programmeClock(s.ctx);
  expect(again.tick(t0 + 250_000)).toBe(1);
  expect(again.tick(t0 + 251_000)).toBe(0);
  expect(started()).toEqual(['First', 'Second', 'Third']);
});
