import { expect, test } from 'bun:test';
import fc from 'fast-check';
import { KeyCache, type Principal } from '../../src/kernel/http/auth';
import { RateLimiter } from '../../src/kernel/http/rate-limit';
import { AppError } from '../../src/kernel/errors';
import type { AppContext } from '../../src/kernel/context';
import { acceptsJson, mcpPrincipal } from '../../src/features/mcp/http-rules';
import { capResult, RESULT_MAX_BYTES } from '../../src/features/mcp/result';
import { TOOLS, refusalOf, toolsFor } from '../../src/features/mcp/catalogue';

const principal = (tenantId: string): Principal => ({ kind: 'key', keyId: 'k1', userId: null, tenantId, tenantSlug: tenantId ? 't' : '', tenantName: '', cdnOnly: false, scopes: new Set(['assets:read']), role: null });
const ctxWith = (p: Principal | null) => ({ keys: new KeyCache(() => p), limiter: new RateLimiter(20, 100) }) as unknown as AppContext;
const req = (auth?: string) => new Request('http://x/mcp', { method: 'POST', headers: auth ? { authorization: auth } : {} });
const KEY = `Bearer vs_${'a'.repeat(30)}`;

test('a key without a tenant answers 403; a tenant key passes; a bad key is 401 with WWW-Authenticate', () => {
  expect(mcpPrincipal(ctxWith(principal('t1')), req(KEY)).tenantId).toBe('t1');
  const e = (() => { try { mcpPrincipal(ctxWith(principal('')), req(KEY)); } catch (x) { return x as AppError; } })();
  expect(e).toBeInstanceOf(AppError);
  expect([e!.code, e!.status]).toEqual(['forbidden', 403]);
  const u = (() => { try { mcpPrincipal(ctxWith(null), req(KEY)); } catch (x) { return x as AppError; } })();
  expect(u!.status).toBe(401);
  expect(u!.extra.headers?.['www-authenticate']).toStartWith('Bearer');
});

test('Accept: the most specific range matching application/json decides', () => {
  const cases: [string | null, boolean][] = [
    [null, true], ['', true], ['application/json', true], ['*/*', true], ['application/*', true], ['text/event-stream, application/json', true],
    ['APPLICATION/JSON; charset=utf-8', true], ['application/json;q=0', false], ['application/json;q=0, */*', false], ['*/*;q=0', false],
    ['application/json;q=0.1, */*;q=0', true], ['text/event-stream', false], ['text/html, image/png', false], ['application/*;q=0, */*', false],
  ];
  for (const [h, want] of cases) expect([h, acceptsJson(h)]).toEqual([h, want]);
});

test('capResult: fits, marks _truncated/_omitted, keeps items in order, leaves small results alone', () => {
  fc.assert(fc.property(fc.array(fc.string({ maxLength: 2000 }), { maxLength: 300 }), fc.integer({ min: 500, max: 30_000 }), (texts, max) => {
    const v = { items: texts.map((t, i) => ({ i, t })), next_cursor: null };
    const out = capResult(v, max);
    const size = Buffer.byteLength(JSON.stringify(v));
    if (size <= max) { expect(out).toBe(v); return; }
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(max);
    const items = out.items as { i: number }[];
    expect(out._truncated).toBe(true);
    expect(items.length + (out._omitted as number)).toBe(texts.length);
    expect(items.map((x) => x.i)).toEqual(items.map((_, k) => k));
  }), { numRuns: 60 });
  expect(() => capResult({ blob: 'x'.repeat(RESULT_MAX_BYTES) })).toThrow(AppError);
});

test('the tool catalogue: unique names, scopes from the specification, no delete tool, writes need write scopes', () => {
  const names = TOOLS.map((t) => t.name);
  expect(new Set(names).size).toBe(names.length);
  for (const t of TOOLS) {
    expect(t.name).not.toMatch(/delete|remove|purge|trash/);
    if (t.write) expect(['clips:write', 'support:write', 'assets:write']).toContain(t.scope);
    else expect(['channels:read', 'assets:read', 'stats:read']).toContain(t.scope);
    expect(t.description.length).toBeGreaterThan(20);
  }
});

test('CDN-only tenants keep statistics and support tools; platform tools (assets, channels, clips) are refused', () => {
  const cdn: Principal = { ...principal('t1'), cdnOnly: true, scopes: new Set(['assets:read', 'stats:read', 'support:write', 'clips:write'] as const) };
  expect(toolsFor(cdn).map((t) => t.name).sort()).toEqual(['open_support_request', 'stats_overview', 'stats_timeseries', 'stats_top']);
  expect(refusalOf(cdn, TOOLS.find((t) => t.name === 'get_asset')!)?.code).toBe('feature_disabled');
  expect(refusalOf({ ...cdn, cdnOnly: false }, TOOLS.find((t) => t.name === 'get_asset')!)).toBeNull();
  expect(refusalOf(cdn, TOOLS.find((t) => t.name === 'list_channels')!)?.code).toBe('insufficient_scope');
});
