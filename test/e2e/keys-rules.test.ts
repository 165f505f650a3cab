import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';

// Issue 11 item 7: a key revokes only keys whose scopes it holds; the tenant's last owner-level key stays.
let s: TestServer;
beforeAll(async () => { s = await startTestServer({ workers: false }); });
afterAll(async () => { await s.stop(); });

type Created = { id: string; key: string };
const create = async (body: unknown, key?: string) => {
  const r = await s.api('POST', '/v1/api-keys', body, key ? { key } : {});
  expect(r.status).toBe(201);
  return await r.json() as Created;
};
const ownerId = async () => ((await (await s.api('GET', '/v1/me')).json()) as { key: { id: string } }).key.id;
const problem = async (r: Response, status: number, code: string) => {
  expect(r.status).toBe(status);
  const b = await r.json() as { type: string; detail: string };
  expect(b.type.endsWith(`/${code}`)).toBe(true);
  return b;
};

test('an engineer key cannot revoke an owner key (403) but can revoke keys within its scopes', async () => {
  const eng = await create({ role: 'engineer', name: 'eng' });
  const owner = await ownerId();
  const b = await problem(await s.api('DELETE', `/v1/api-keys/${owner}`, undefined, { key: eng.key }), 403, 'insufficient_scope');
  expect(b.detail).toContain('billing:read');
  // The owner key still works.
  expect((await s.api('GET', '/v1/me')).status).toBe(200);
  // A viewer key is within the engineer's scopes.
  const viewer = await create({ role: 'viewer' });
  expect((await s.api('DELETE', `/v1/api-keys/${viewer.id}`, undefined, { key: eng.key })).status).toBe(204);
  expect((await s.api('GET', '/v1/me', undefined, { key: viewer.key })).status).toBe(401);
  // An engineer key cannot revoke a key holding a scope it lacks (an admin key).
  const admin = await create({ role: 'admin' });
  await problem(await s.api('DELETE', `/v1/api-keys/${admin.id}`, undefined, { key: eng.key }), 403, 'insufficient_scope');
  expect((await s.api('DELETE', `/v1/api-keys/${admin.id}`)).status).toBe(204);
  // A key may revoke itself when it is not the last owner key.
  expect((await s.api('DELETE', `/v1/api-keys/${eng.id}`, undefined, { key: eng.key })).status).toBe(204);
  expect((await s.api('GET', '/v1/me', undefined, { key: eng.key })).status).toBe(401);
});

test('the only owner-level key cannot be revoked, not even by itself (409); with two, one can go (204)', async () => {
  const owner = await ownerId();
  const b = await problem(await s.api('DELETE', `/v1/api-keys/${owner}`), 409, 'conflict');
  expect(b.detail).toContain('last owner-level key');
  expect((await s.api('GET', '/v1/me')).status).toBe(200);
  // An explicit full scope list is owner-level too.
  const second = await create({ role: 'owner', name: 'second owner' });
  expect((await s.api('DELETE', `/v1/api-keys/${owner}`, undefined, { key: second.key })).status).toBe(204);
  expect((await s.api('GET', '/v1/me')).status).toBe(401);
  // Now `second` is the last one: it cannot revoke itself.
  await problem(await s.api('DELETE', `/v1/api-keys/${second.id}`, undefined, { key: second.key }), 409, 'conflict');
  expect((await s.api('GET', '/v1/me', undefined, { key: second.key })).status).toBe(200);
  // Revoking an already revoked owner key stays idempotent (204), it is not counted.
  expect((await s.api('DELETE', `/v1/api-keys/${owner}`, undefined, { key: second.key })).status).toBe(204);
});
