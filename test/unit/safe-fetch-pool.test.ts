import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import http from 'node:http';
import { safeFetch } from '../../src/kernel/net/safe-fetch';
import { agentFor, pinned, resolveName, RESOLVE_TTL_MS } from '../../src/kernel/net/pool';

/** Two servers on the same port of two loopback addresses; each records the client ports it saw. */
describe('safeFetch connection reuse', () => {
  let a: ReturnType<typeof Bun.serve>;
  let b: ReturnType<typeof Bun.serve>;
  const seen = { a: new Set<number>(), b: new Set<number>() };
  beforeAll(() => {
    a = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req, s) => { seen.a.add(s.requestIP(req)!.port); return new Response('A'); } });
    b = Bun.serve({ port: a.port, hostname: '127.0.0.2', fetch: (req, s) => { seen.b.add(s.requestIP(req)!.port); return new Response('B'); } });
  });
  afterAll(() => { a.stop(true); b.stop(true); });

  test('sequential requests to one checked address share a kept-alive connection', async () => {
    seen.a.clear();
    const opts = { timeoutMs: 5000, maxBytes: 1 << 16, maxRedirects: 0, allowlist: ['127.0.0.1/32'] };
    for (let i = 0; i < 20; i++) {
      const r = await safeFetch(`http://127.0.0.1:${a.port}/hook`, { ...opts, method: 'POST', body: `{"n":${i}}` });
      expect(r.status).toBe(200);
      await r.body?.cancel(); // a caller that never reads the body (safeFetch users; webhook attempts now go through safeSend)
    }
    expect(seen.a.size).toBeLessThanOrEqual(2);
  });

  test('a cancelled body larger than the drain bound never leaks into the next answer on the connection', async () => {
    // Answer n is 1 MiB of the byte n: a rest left on a reused connection would show up as another answer's bytes.
    const big = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => new Response(new Uint8Array(1 << 20).fill(Number(new URL(req.url).searchParams.get('n')))) });
    try {
      const opts = { timeoutMs: 5000, maxBytes: 1 << 21, maxRedirects: 0, allowlist: ['127.0.0.1/32'] };
      for (let i = 1; i <= 3; i++) {
        const r = await safeFetch(`http://127.0.0.1:${big.port}/big?n=${i}`, opts);
        expect(r.status).toBe(200);
        await r.body?.cancel();
        const whole = await (await safeFetch(`http://127.0.0.1:${big.port}/big?n=${i + 10}`, opts)).bytes();
        expect([whole.length, whole.every((x) => x === i + 10)]).toEqual([1 << 20, true]);
      }
    } finally {
      big.stop(true);
    }
  });

  test('one host name whose checked address changes never reuses the old connection', async () => {
    seen.a.clear(); seen.b.clear();
    const get = (address: string) => new Promise<string>((resolve, reject) => {
      const to = { address, family: 4 as const };
      const q = http.request({ host: 'hooks.example', port: a.port, path: '/', lookup: pinned(address, 4), agent: agentFor('http:', 'hooks.example', String(a.port), to) }, (r) => {
        let s = '';
        r.on('data', (c) => (s += c));
        r.on('end', () => resolve(s));
      });
      q.on('error', reject);
      q.end();
    });
    // Same scheme, host and port: only the checked address differs between the two agents.
    expect(agentFor('http:', 'hooks.example', '1', { address: '127.0.0.1', family: 4 })).not.toBe(agentFor('http:', 'hooks.example', '1', { address: '127.0.0.2', family: 4 }));
    expect(agentFor('http:', 'hooks.example', '1', { address: '127.0.0.1', family: 4 })).toBe(agentFor('http:', 'hooks.example', '1', { address: '127.0.0.1', family: 4 }));
    for (let i = 0; i < 3; i++) {
      expect(await get('127.0.0.1')).toBe('A');
      expect(await get('127.0.0.2')).toBe('B');
    }
    expect(seen.a.size).toBeGreaterThan(0);
    expect(seen.b.size).toBeGreaterThan(0);
  });

  test('a pinned lookup answers only the checked address, whatever name it is asked for', () => {
    const l = pinned('203.0.113.7', 4) as unknown as (h: string, o: object, cb: (...x: unknown[]) => void) => void;
    let one: unknown[] = [];
    let all: unknown[] = [];
    l('evil.example', {}, (...x) => { one = x; });
    l('other.example', { all: true }, (...x) => { all = x; });
    expect(one).toEqual([null, '203.0.113.7', 4]);
    expect(all).toEqual([null, [{ address: '203.0.113.7', family: 4 }]]);
  });
});

describe('name resolution cache', () => {
  test('an answer is shared for at most RESOLVE_TTL_MS, then resolved again', async () => {
    const t = Date.now();
    const first = resolveName('localhost', t);
    expect(resolveName('localhost', t + RESOLVE_TTL_MS - 1)).toBe(first);
    const later = resolveName('localhost', t + RESOLVE_TTL_MS);
    expect(later).not.toBe(first);
    expect((await later).length).toBeGreaterThan(0);
    expect(RESOLVE_TTL_MS).toBeLessThanOrEqual(5_000);
  });

  test('failures are not cached', async () => {
    const p = resolveName('no-such-host.invalid');
    await expect(p).rejects.toBeDefined();
    expect(resolveName('no-such-host.invalid')).not.toBe(p);
  });
});
