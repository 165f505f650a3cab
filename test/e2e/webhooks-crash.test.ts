import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { waitFor } from '../helpers/server';
import { spawnServe, type ServeProc } from '../helpers/proc';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';

const dir = mkdtempSync(join(tmpdir(), 'vs-crash-'));
const ENV = { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' };
const argv = ['bun', 'src/main.ts', 'serve', '--data', dir, '--port', '0', '--host', '127.0.0.1'];
const procs: ServeProc[] = [];
const receivers: Receiver[] = [];
afterAll(() => {
  for (const p of procs) p.kill('SIGKILL');
  for (const r of receivers) r.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Receiver answering after a short delay, so work is in flight and pending when the server is killed. */
function slowReceiver(): Receiver {
  const r = startReceiver(async () => { await Bun.sleep(25); return new Response('ok'); });
  receivers.push(r);
  return r;
}

test('kill -9 with 1,000 events pending: after restart every event arrives exactly once per endpoint', async () => {
  const first = await spawnServe(argv, ENV);
  procs.push(first);
  const key = first.key!;
  const a = slowReceiver();
  const b = slowReceiver();
  const secrets: string[] = [];
  for (const rx of [a, b]) {
    const r = await fetch(`${first.url}/v1/webhooks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: rx.url, events: ['*'] }) });
    expect(r.status).toBe(201);
    secrets.push((await r.json() as { secret: string }).secret);
  }
  // 1,000 events committed by another process against the same data dir (the server finds them by polling).
  const emit = Bun.spawn(['bun', 'test/e2e/webhooks-emit.ts', dir, '1000'], { stdout: 'ignore', stderr: 'pipe' });
  expect(await emit.exited).toBe(0);
  await waitFor('some deliveries under way', () => a.byDelivery.size >= 100 && b.byDelivery.size >= 100, 20_000, 5);
  first.kill('SIGKILL');
  await first.proc.exited;
  const atKill = [a.byDelivery.size, b.byDelivery.size];
  expect(Math.min(...atKill)).toBeLessThan(1000); // the kill really left work pending

  const second = await spawnServe(argv, ENV);
  procs.push(second);
  const events = (rx: Receiver) => new Set(rx.received.map((r) => r.body.id));
  await waitFor('every event at both receivers', () => events(a).size === 1000 && events(b).size === 1000, 60_000);
  // Let any straggler from the restart land before judging duplicates: all deliveries recorded as delivered.
  const db = new Database(join(dir, 'db', 'meta.sqlite'), { readonly: true });
  await waitFor('all deliveries delivered', () => db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'delivered'").get()!.n === 2000, 30_000);
  db.close();
  for (const [i, rx] of [a, b].entries()) {
    const byEvent = new Map<string, Set<string>>();
    for (const r of rx.received) {
      expect(verifyLikeACustomer(secrets[i], r.headers, r.raw)).toBe(true);
      (byEvent.get(r.body.id) ?? byEvent.set(r.body.id, new Set()).get(r.body.id)!).add(r.headers['x-vs-delivery']);
    }
    expect(byEvent.size).toBe(1000);
    // Exactly once per endpoint: one delivery id per event; repeats of the same id are only the ones in flight at the kill.
    expect([...byEvent.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(rx.byDelivery.size).toBe(1000);
    // Repeats are bounded by what was in flight or not yet committed at the kill (outcomes are committed every 20 ms).
    expect(rx.received.length - 1000).toBeLessThanOrEqual(100);
  }
  second.kill('SIGTERM');
  expect(await second.proc.exited).toBe(0);
}, 120_000);
