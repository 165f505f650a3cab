import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { tx } from '../../src/kernel/db/sqlite';
import { emitEvent } from '../../src/kernel/events/outbox';
import { identityService } from '../../src/features/identity/service';
import { startReceiver, type Receiver } from './webhooks-receiver';

let s: TestServer;
let rx: Receiver;
let tenant: string;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  rx = startReceiver();
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
});
afterAll(async () => { rx.stop(); await s.stop(); });

/** waitFor for a value that must be present. */
async function waitFor_<T>(what: string, fn: () => T | null | undefined | false, ms?: number): Promise<T> {
  return (await waitFor(what, fn, ms)) as T;
}

interface Frame { id?: string; event?: string; data?: string; comment?: string }

/** Opens the stream and collects parsed frames (comments included) as they arrive. */
async function open(query = '', headers: Record<string, string> = {}, key = s.key) {
  const ac = new AbortController();
  const res = await fetch(`${s.url}/v1/events/stream${query}`, { headers: { authorization: `Bearer ${key}`, ...headers }, signal: ac.signal });
  const frames: Frame[] = [];
  let buf = '';
  const done = (async () => {
    if (!res.body) return;
    const dec = new TextDecoder();
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done: end, value: chunk } = await reader.read();
        if (end) break;
        buf += dec.decode(chunk);
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const f: Frame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) f.comment = line.slice(1).trim();
            else { const k = line.slice(0, line.indexOf(':')); (f as Record<string, string>)[k] = line.slice(line.indexOf(':') + 1).trim(); }
          }
          frames.push(f);
        }
      }
    } catch { /* aborted */ }
  })();
  return { res, frames, events: () => frames.filter((f) => f.event), close: async () => { ac.abort(); await done; } };
}

test('the stream shows the same asset.ready a webhook receives, with the outbox seq as id', async () => {
  const hook = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['asset.ready'] })).json() as { id: string };
  const st = await open();
  expect(st.res.status).toBe(200);
  expect(st.res.headers.get('content-type')).toContain('text/event-stream');
  await waitFor('connected comment', () => st.frames.length > 0);
  const eventId = tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'asset.ready', { asset: 'a-sse', external_id: 'e1', status: 'ready' }));
  const f = await waitFor_('stream frame', () => st.events().find((x) => x.event === 'asset.ready'));
  const hooked = await waitFor_('webhook', () => rx.received.find((r) => r.body.id === eventId));
  expect(JSON.parse(f.data!)).toEqual(JSON.parse(hooked.raw));
  expect(f.data).toBe(hooked.raw);
  const seq = s.ctx.db.query<{ seq: number }, [string]>('SELECT seq FROM events WHERE id = ?').get(eventId)!.seq;
  expect(f.id).toBe(String(seq));
  expect(hook.id).toBeString();
  await st.close();
});

test('Last-Event-ID resumes after a disconnect with nothing lost; other tenants are not visible', async () => {
  const other = identityService(s.ctx).createTenant({ name: 'Elsewhere' });
  const a = await open();
  await waitFor('connected', () => a.frames.length > 0);
  tx(s.ctx.db, () => emitEvent(s.ctx.db, tenant, 'clip.ready', { clip: 'c1' }));
  const first = await waitFor_('c1', () => a.events().find((x) => x.event === 'clip.ready'));
  await a.close();
  // While disconnected: two more of ours and one of another tenant.
  tx(s.ctx.db, () => {
    emitEvent(s.ctx.db, tenant, 'clip.ready', { clip: 'c2' });
    emitEvent(s.ctx.db, other.id, 'clip.ready', { clip: 'foreign' });
    emitEvent(s.ctx.db, tenant, 'clip.final', { clip: 'c2' });
  });
  const b = await open('', { 'last-event-id': first.id! });
  const got = await waitFor_('two resumed', () => (b.events().length >= 2 ? b.events() : null));
  expect(got.map((x) => [x.event, JSON.parse(x.data!).data.clip])).toEqual([['clip.ready', 'c2'], ['clip.final', 'c2']]);
  expect(Number(got[0].id)).toBeGreaterThan(Number(first.id));
  await b.close();
  // The other tenant's key sees its own event only when replaying from the start.
  const k = identityService(s.ctx).createKey(other.id, { role: 'viewer' });
  const c = await open('?last_event_id=0', {}, k.key);
  const theirs = await waitFor_('foreign', () => c.events()[0]);
  expect(JSON.parse(theirs.data!).data.clip).toBe('foreign');
  expect(JSON.parse(theirs.data!).customer_id).toBe(other.id);
  await c.close();
  expect(c.events().length).toBe(1);
});

test('heartbeats, type filter, scope and bad resume ids', async () => {
  const st = await open('?heartbeat_s=1&types=asset.failed');
  await waitFor('heartbeat', () => st.frames.some((f) => f.comment?.startsWith('heartbeat')), 5000);
  tx(s.ctx.db, () => { emitEvent(s.ctx.db, tenant, 'clip.ready', { clip: 'skip' }); emitEvent(s.ctx.db, tenant, 'asset.failed', { asset: 'f' }); });
  const f = await waitFor_('filtered', () => st.events()[0]);
  expect(f.event).toBe('asset.failed');
  await st.close();
  expect(st.events().length).toBe(1);
  const noScope = identityService(s.ctx).createKey(tenant, { scopes: ['assets:read'] });
  expect((await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: `Bearer ${noScope.key}` } })).status).toBe(403);
  expect((await fetch(`${s.url}/v1/events/stream`)).status).toBe(401);
  expect((await fetch(`${s.url}/v1/events/stream`, { headers: { authorization: `Bearer ${s.key}`, 'last-event-id': 'abc' } })).status).toBe(422);
  expect((await fetch(`${s.url}/v1/events/stream?heartbeat_s=0`, { headers: { authorization: `Bearer ${s.key}` } })).status).toBe(422);
});
