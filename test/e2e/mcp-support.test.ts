import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { ManualClock } from '../../src/kernel/clock';
import { connect, keyFor } from './mcp-helpers';

let s: TestServer;
const clock = new ManualClock(Date.parse('2026-05-01T10:00:00Z'));
beforeAll(async () => { s = await startTestServer({ workers: false, clock }); });
afterAll(async () => { await s?.stop(); });

type Req = { id: string; subject: string; status: string; category: string; via: string; opened_by: string; closed_at: string | null; messages?: { author: string; body: string }[] };

test('support requests: open, list, read with thread, reply, close; scopes; validation', async () => {
  const viewer = await keyFor(s, { role: 'viewer' });
  const readOnly = await keyFor(s, { scopes: ['support:read'] });
  const r = await s.api('POST', '/v1/support/requests', { subject: 'Clips fail', body: 'Every frame clip fails since noon', category: 'problem' }, { key: viewer });
  expect(r.status).toBe(201);
  const req = await r.json() as Req;
  expect(req).toMatchObject({ subject: 'Clips fail', status: 'open', category: 'problem', via: 'api', closed_at: null, messages: [{ body: 'Every frame clip fails since noon' }] });
  expect(req.opened_by).toStartWith('key:');
  expect((await s.api('POST', '/v1/support/requests', { subject: 'x', body: 'y' }, { key: readOnly })).status).toBe(403);
  expect((await s.api('GET', '/v1/support/requests', undefined, { key: readOnly })).status).toBe(200);
  expect((await s.api('POST', '/v1/support/requests', { subject: 'x' }, { key: viewer })).status).toBe(422);
  expect((await s.api('POST', '/v1/support/requests', { subject: '  ', body: 'y' }, { key: viewer })).status).toBe(422);
  expect((await s.api('POST', '/v1/support/requests', { subject: 'x', body: 'y', priority: 'p1' }, { key: viewer })).status).toBe(400);
  const rep = await s.api('POST', `/v1/support/requests/${req.id}/replies`, { body: 'It also fails at 14:00' }, { key: viewer });
  expect(rep.status).toBe(200);
  expect(((await rep.json()) as Req).messages!.map((m) => m.body)).toEqual(['Every frame clip fails since noon', 'It also fails at 14:00']);
  const closed = await (await s.api('POST', `/v1/support/requests/${req.id}/close`, undefined, { key: viewer })).json() as Req;
  expect(closed.status).toBe('closed');
  expect(closed.closed_at).not.toBeNull();
  expect((await s.api('POST', `/v1/support/requests/${req.id}/close`, undefined, { key: viewer })).status).toBe(200);
  expect((await s.api('POST', `/v1/support/requests/${req.id}/replies`, { body: 'again' }, { key: viewer })).status).toBe(409);
  const open = await (await s.api('GET', '/v1/support/requests?status=open')).json() as { items: Req[] };
  expect(open.items.map((x) => x.id)).not.toContain(req.id);
  const closedList = await (await s.api('GET', '/v1/support/requests?status=closed')).json() as { items: Req[] };
  expect(closedList.items.map((x) => x.id)).toEqual([req.id]);
  expect((await s.api('GET', '/v1/support/requests/00000000-0000-4000-8000-000000000000')).status).toBe(404);
});

test('at most 10 new requests per tenant per hour (REST and MCP together): the 11th answers 429 with Retry-After, then the window moves', async () => {
  clock.advance(2 * 3_600_000);
  const mcp = await connect(s, await keyFor(s, { role: 'viewer' }));
  for (let i = 0; i < 9; i++) expect((await s.api('POST', '/v1/support/requests', { subject: `n${i}`, body: 'b' })).status).toBe(201);
  clock.advance(60_000);
  const tenth = await mcp.callTool({ name: 'open_support_request', arguments: { subject: 'tenth', body: 'via the assistant' } });
  expect(tenth.isError).toBeFalsy();
  const over = await s.api('POST', '/v1/support/requests', { subject: 'eleventh', body: 'b' });
  expect(over.status).toBe(429);
  // The oldest of the ten was opened 60 s before the tenth: the window frees one hour after it.
  expect(Number(over.headers.get('retry-after'))).toBe(3540);
  const viaMcp = await mcp.callTool({ name: 'open_support_request', arguments: { subject: 'eleventh', body: 'b' } });
  expect(viaMcp.isError).toBe(true);
  expect(JSON.parse((viaMcp.content as { text: string }[])[0].text)).toMatchObject({ status: 429, title: 'rate_limited' });
  clock.advance(3540_000);
  expect((await s.api('POST', '/v1/support/requests', { subject: 'next hour', body: 'b' })).status).toBe(201);
  await mcp.close();
});
