import { expect, test } from 'bun:test';
import { openStats } from '../../src/kernel/stats';
import { applyRetention, ensureTables } from '../../src/features/stats/tables';

test('retention deletes rows past each table\'s days (origin log, events, sessions, rollups, daily salts)', async () => {
  const st = await openStats(':memory:');
  try {
    await ensureTables(st);
    const day = 86_400_000, now = 1000 * day;
    for (const age of [1, 50, 100]) {
      const ts = now - age * day;
      await st.run(`INSERT INTO edge_requests (ts, tenant_id) VALUES (?, 't')`, [ts]);
      await st.run(`INSERT INTO player_events (ts, received, tenant_id, sid, e) VALUES (?, ?, 't', 's', 'heartbeat')`, [ts, ts]);
      await st.run(`INSERT INTO edge_minute VALUES ('t', ?, '', '', '', '', 1, 0, 0, 0, 0, 0)`, [ts]);
      await st.run(`INSERT INTO ip_salts VALUES (?, 'x')`, [ts]);
    }
    await applyRetention(st, now, { edge_requests: 60, player_events: 90, rollups: 10 });
    const n = async (sql: string) => (await st.all<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ${sql}`))[0].n;
    expect(await n('edge_requests')).toBe(2); // 1 and 50 days old
    expect(await n('player_events')).toBe(2);
    expect(await n('edge_minute')).toBe(1);
    expect(await n('ip_salts')).toBe(1); // salts live two days
  } finally { st.close(); }
});
