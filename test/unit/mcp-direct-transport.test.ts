import { expect, test } from 'bun:test';
import fc from 'fast-check';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../src/kernel/http/auth';
import { isPlainRequest } from '../../src/features/mcp/direct-transport';
import { ServerPool } from '../../src/features/mcp/server-pool';

const principal: Principal = { kind: 'key', keyId: 'k1', userId: null, tenantId: 't1', tenantSlug: 't', tenantName: '', cdnOnly: false, scopes: new Set(['assets:read']), role: null };
const auth = { token: '', clientId: 'k1', scopes: ['assets:read'], extra: {} };

// Messages near the request shape: every key a JSON-RPC message may carry, plus strays, with odd values.
const value = fc.oneof(fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('name', '_meta', 'arguments', 'cursor'), fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), fc.dictionary(fc.constantFrom('progressToken', 'x'), fc.oneof(fc.string(), fc.integer(), fc.constant(null)))), { maxKeys: 3 }));
const message = fc.record({
  jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.constant(2)),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null), fc.double(), fc.constant(2 ** 60)),
  method: fc.oneof(fc.constantFrom('ping', 'tools/call', 'tools/list', 'initialize'), fc.integer()),
  params: value,
  extra: value,
}, { requiredKeys: [] });

test('the direct path never takes a message the SDK would not see as a request (it would get no answer there)', () => {
  fc.assert(fc.property(message, (m) => {
    if (isPlainRequest(m)) expect(isJSONRPCRequest(m)).toBe(true);
  }), { numRuns: 3000 });
  expect(isPlainRequest({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(true);
  expect(isPlainRequest({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBe(false);
  expect(isPlainRequest([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toBe(false);
});

test('a pooled server answers over its direct transport through the protocol\'s request entry, one request after another', async () => {
  const pool = new ServerPool(() => {
    const s = new McpServer({ name: 't', version: '1' }, { capabilities: { tools: {} } });
    s.registerTool('echo', { description: 'echo' }, (async () => ({ content: [{ type: 'text', text: 'hi' }] })) as never);
    return s;
  });
  const lease = await pool.take('call', principal);
  // The SDK still has the entry the transport uses to skip re-classifying a checked request (see DirectTransport).
  expect(typeof lease.transport.requestEntry).toBe('function');
  expect(await lease.transport.exchange({ jsonrpc: '2.0', id: 7, method: 'ping' }, auth)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  const call = await lease.transport.exchange({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', arguments: {} } }, auth);
  expect(call).toMatchObject({ id: 'a', result: { content: [{ type: 'text', text: 'hi' }] } });
  // Unknown method and bad params: the SDK's own JSON-RPC errors (as over the web-standard transport).
  expect(await lease.transport.exchange({ jsonrpc: '2.0', id: 8, method: 'nope/nope' }, auth)).toMatchObject({ id: 8, error: { code: -32601 } });
  const bad = await lease.transport.exchange({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 5 } } as never, auth) as { id: number; error: { message: string } };
  expect(bad.id).toBe(9);
  expect(bad.error.message).toContain('expected string');
  pool.give(lease);
  // The same lease comes back, synchronously, for the same scopes.
  expect(pool.take('call', principal)).toBe(lease);
  pool.drop();
});
