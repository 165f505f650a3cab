import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { channelAuto, SETTLE_MS } from '../../src/features/subtitles/channel-auto';
import { outboxCursor } from '../../src/kernel/events/cursors';

// Auto-subtitles for channel recordings driven by hand (no background workers): a pass that finds no programme
// writes nothing (its position is saved at most once a minute: every 2 s it made a write transaction and its WAL
// fsyncs on the event loop), a pass that finds one saves at once, and a restart resumes from the saved position.
let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false }); });
afterAll(async () => { await s?.stop(); });

const iso = (ms: number) => new Date(ms).toISOString();
/** SQLite's count of rows changed by this connection: moves with every write a pass makes. */
const writes = () => s.ctx.db.query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n;
const CURSOR = 'subtitles-auto-recordings';

test('idle passes write nothing (position saved at most once a minute), a pass that finds a programme saves, a restart resumes', async () => {
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Auto one' })).json() as { id: string };
  const t0 = Math.ceil(Date.now() / 60_000) * 60_000 + 3_600_000; // a round minute an hour ahead: nothing else ends then
  const end = t0 + 100_000;
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Ends', start_at: iso(end - 60_000), end_at: iso(end) })).status).toBe(201);
  const auto = channelAuto(s.ctx);
  expect(auto.pass(t0)).toBe(0); // first run: the position starts at now - SETTLE_MS
  expect(outboxCursor(s.ctx.db, CURSOR)).toBe(t0 - SETTLE_MS);

  // Idle every 2 s for almost a minute: no write at all; then the minute's save.
  const w0 = writes();
  for (let t = t0 + 2_000; t < t0 + 60_000; t += 2_000) expect(auto.pass(t)).toBe(0);
  expect(writes()).toBe(w0);
  expect(outboxCursor(s.ctx.db, CURSOR)).toBe(t0 - SETTLE_MS);
  auto.pass(t0 + 60_000);
  expect(writes() - w0).toBe(1);
  expect(outboxCursor(s.ctx.db, CURSOR)).toBe(t0 + 60_000 - SETTLE_MS);

  // The pass whose window holds the programme's end (settled) saves its position at once (no language is set for
  // recordings here, so no track is made).
  const w1 = writes();
  auto.pass(t0 + 62_000);
  expect(writes()).toBe(w1);
  auto.pass(end + SETTLE_MS + 1_000);
  expect(writes() - w1).toBe(1);
  expect(outboxCursor(s.ctx.db, CURSOR)).toBe(end + 1_000);

  // A restart (a new pass over the same database) resumes from the saved position: its first idle pass reads only.
  const again = channelAuto(s.ctx);
  const w2 = writes();
  expect(again.pass(end + SETTLE_MS + 3_000)).toBe(0);
  expect(writes()).toBe(w2);
});
