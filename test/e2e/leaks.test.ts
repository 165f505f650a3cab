/**
 * Leak detection (issue 46): one playback token used from several loopback addresses that MaxMind-format databases
 * written here place in Israel (127.0.0.20, .21: one network), France (.30) and Germany (.40). Past its policy's
 * `leaks` limits within the window the session becomes a suspicion with hashed evidence and `security.leak_suspected`;
 * dismiss, revoke (by hand and automatically, `security.revoked`) and hostile input.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { addReadyAsset } from '../helpers/ready-asset';
import { IdentityService } from '../../src/features/identity/service';
import { MORE_VIEWERS, VIEWERS, from, writeGeoDbs } from './geo-helpers';

const dir = mkdtempSync(join(tmpdir(), 'vs-leaks-'));
let s: TestServer, port: number, tenant: string;
const { il, il2, fr, de } = VIEWERS;
type Leak = { id: string; sid: string; status: string; asset?: string; reason: string; auto_revoked: boolean; evidence: { counts: Record<string, number>; countries: string[]; asns: number[]; user_agents: string[]; addresses: { hash: string; country: string; requests: number }[] } };

beforeAll(async () => {
  s = await startTestServer({ workers: false, env: writeGeoDbs(dir) });
  port = Number(new URL(s.url).port);
  tenant = s.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
});
afterAll(async () => { await s.stop(); rmSync(dir, { recursive: true, force: true }); });

/** A ready asset under a fresh policy with `leaks` limits; a token for it; a fetch of its segment from an address. */
async function watched(leaks: Record<string, unknown>) {
  const asset = addReadyAsset(s, tenant, new Uint8Array(2048).fill(7));
  const pol = await s.api('POST', '/v1/playback/policies', { name: `leaks ${asset.slice(0, 8)}`, leaks });
  expect(pol.status).toBe(201);
  const p = await pol.json() as { id: string; leaks: Record<string, unknown> };
  expect((await s.api('POST', `/v1/playback/policies/${p.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
  const tok = await (await s.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string; sid: string };
  const seg = new URL('seg_00001.m4s', tok.src).pathname;
  const get = (ip: string, ua = 'TestPlayer/1.0') => from(ip, port, 'GET', seg, { headers: { 'user-agent': ua } });
  return { asset, policy: p, sid: tok.sid, get };
}
const leaksOf = async (q = '') => ((await (await s.api('GET', `/v1/leaks${q}`)).json()) as { items: Leak[] }).items;
const eventsOf = (type: string, sid: string) => s.ctx.db.query<{ data: string }, [string, string]>('SELECT data FROM events WHERE type = ? AND json_extract(data, \'$.session\') = ? ORDER BY seq').all(type, sid).map((r) => JSON.parse(r.data) as Record<string, unknown>);

test('a session used from more addresses and countries than its policy allows becomes a leak suspicion with hashed evidence; dismiss; revoke', async () => {
  const w = await watched({ max_addresses: 2, max_countries: 1, window_s: 120 });
  expect(w.policy.leaks).toEqual({ max_addresses: 2, max_networks: 0, max_countries: 1, window_s: 120, auto_revoke: false });
  // Within the limits: two Israeli addresses on one network, many requests.
  for (let i = 0; i < 10; i++) expect((await w.get(il.ip)).status).toBe(200);
  expect((await w.get(il2.ip, 'OtherPlayer/2.0')).status).toBe(200);
  expect((await leaksOf()).filter((l) => l.sid === w.sid)).toEqual([]);
  // A third address, in France: over both limits.
  expect((await w.get(fr.ip, 'curl/8.0')).status).toBe(200);
  const [leak] = (await leaksOf('?status=open')).filter((l) => l.sid === w.sid);
  expect(leak).toBeDefined();
  expect(leak.asset).toBe(w.asset);
  expect(leak.reason).toContain('3 addresses (policy allows 2)');
  expect(leak.reason).toContain('2 countries (policy allows 1)');
  expect(leak.evidence.counts).toEqual({ addresses: 3, networks: 2, countries: 2, requests: 12 });
  expect(leak.evidence.countries.sort()).toEqual(['FR', 'IL']);
  expect(leak.evidence.asns.sort()).toEqual([fr.asn, il.asn].sort());
  expect(leak.evidence.user_agents.sort()).toEqual(['OtherPlayer/2.0', 'TestPlayer/1.0', 'curl/8.0']);
  expect(leak.evidence.addresses.map((a) => a.requests).sort((a, b) => a - b)).toEqual([1, 1, 10]);
  // Addresses are hashed, never stored or shown.
  const raw = JSON.stringify(await (await s.api('GET', `/v1/leaks/${leak.id}`)).json());
  for (const v of [il, il2, fr]) expect(raw).not.toContain(v.ip);
  expect(new Set(leak.evidence.addresses.map((a) => a.hash)).size).toBe(3);
  expect(eventsOf('security.leak_suspected', w.sid)).toEqual([expect.objectContaining({ leak: leak.id, asset: w.asset })]);
  // The evidence grows while it is open (Germany), and the event is not sent again.
  expect((await w.get(de.ip)).status).toBe(200);
  const grown = await (await s.api('GET', `/v1/leaks/${leak.id}`)).json() as Leak;
  expect(grown.evidence.counts.countries).toBe(3);
  expect(eventsOf('security.leak_suspected', w.sid).length).toBe(1);

  // Dismissed: the session keeps playing; dismissing again is a conflict.
  const dismissed = await s.api('POST', `/v1/leaks/${leak.id}/dismiss`);
  expect(dismissed.status).toBe(200);
  expect(((await dismissed.json()) as Leak).status).toBe('dismissed');
  expect((await s.api('POST', `/v1/leaks/${leak.id}/dismiss`)).status).toBe(409);
  expect((await w.get(fr.ip)).status).toBe(200);
  // Revoked after all: refused on the next request from anywhere, security.revoked fires once.
  const revoked = await s.api('POST', `/v1/leaks/${leak.id}/revoke`);
  expect(revoked.status).toBe(200);
  expect(((await revoked.json()) as Leak).status).toBe('revoked');
  for (const v of [il, fr]) expect((await w.get(v.ip)).status).toBe(403);
  expect(eventsOf('security.revoked', w.sid)).toEqual([expect.objectContaining({ leak: leak.id })]);
  expect((await s.api('POST', `/v1/leaks/${leak.id}/revoke`)).status).toBe(409);
});

test('with auto_revoke the session is revoked the moment it goes over (networks limit)', async () => {
  const w = await watched({ max_networks: 1, window_s: 60, auto_revoke: true });
  expect((await w.get(il.ip)).status).toBe(200);
  expect((await w.get(il2.ip)).status).toBe(200); // same network
  expect((await w.get(de.ip)).status).toBe(200); // the request that showed the leak is answered; the next is not
  const leak = (await waitFor('auto-revoked leak', async () => (await leaksOf('?status=revoked')).find((l) => l.sid === w.sid) ?? null))!;
  expect(leak.auto_revoked).toBe(true);
  expect(leak.reason).toContain('2 networks (policy allows 1)');
  expect((await w.get(il.ip)).status).toBe(403);
  expect(eventsOf('security.leak_suspected', w.sid).length).toBe(1);
  expect(eventsOf('security.revoked', w.sid).length).toBe(1);
  // A policy without limits watches nothing.
  const open = await watched({});
  for (const v of [il, il2, fr, de]) expect((await open.get(v.ip)).status).toBe(200);
  expect((await leaksOf()).some((l) => l.sid === open.sid)).toBe(false);
});

test('hostile input, scopes and tenants', async () => {
  const bad = async (leaks: unknown) => {
    const r = await s.api('POST', '/v1/playback/policies', { name: 'bad', leaks });
    expect(r.status >= 400 && r.status < 500 ? r.headers.get('content-type') : `status ${r.status}`).toContain('application/problem+json');
    return r.status;
  };
  expect(await bad({ max_addresses: -1 })).toBe(422);
  expect(await bad({ window_s: 5 })).toBe(422);
  expect(await bad({ window_s: 10 ** 9 })).toBe(422);
  expect(await bad({ max_countries: '3' })).toBe(422);
  expect(await bad({ max_addresses: 1.5 })).toBe(422);
  expect(await bad('lots')).toBe(422);
  expect([400, 422]).toContain(await bad({ max_addresses: 2, sneaky: true }));
  expect((await s.api('GET', '/v1/leaks?status=bogus')).status).toBe(422);
  expect((await s.api('GET', '/v1/leaks?limit=100000')).status).toBe(422);
  expect((await s.api('GET', '/v1/leaks/not-a-uuid')).status).toBe(404);
  expect((await s.api('POST', `/v1/leaks/${crypto.randomUUID()}/dismiss`)).status).toBe(404);
  const [mine] = await leaksOf();
  expect(mine).toBeDefined();
  const idn = new IdentityService(s.ctx.db, s.ctx.keys);
  const other = idn.createTenant({ name: 'Other', slug: 'other-leaks' });
  const otherKey = idn.createKey(other.id, { role: 'owner' }).key;
  expect((await s.api('GET', `/v1/leaks/${mine.id}`, undefined, { key: otherKey })).status).toBe(404);
  expect((await s.api('POST', `/v1/leaks/${mine.id}/revoke`, undefined, { key: otherKey })).status).toBe(404);
  expect(((await (await s.api('GET', '/v1/leaks', undefined, { key: otherKey })).json()) as { items: unknown[] }).items).toEqual([]);
  const viewer = idn.createKey(tenant, { role: 'viewer' }).key;
  expect((await s.api('GET', '/v1/leaks', undefined, { key: viewer })).status).toBe(200);
  expect((await s.api('POST', `/v1/leaks/${mine.id}/dismiss`, undefined, { key: viewer })).status).toBe(403);
  expect((await fetch(`${s.url}/v1/leaks`)).status).toBe(401);
});

test('through the delivery front: answers nginx sends on its own (grants) are watched too', async () => {
  const f = await startTestServer({ workers: false, env: { ...writeGeoDbs(dir), VS_DELIVERY_FRONT_PORT: '0' } });
  try {
    const t = f.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
    const asset = addReadyAsset(f, t, new Uint8Array(4096).fill(3));
    const pol = await (await f.api('POST', '/v1/playback/policies', { name: 'front leaks', leaks: { max_addresses: 1 } })).json() as { id: string };
    expect((await f.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
    const tok = await (await f.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string; sid: string };
    const seg = new URL('seg_00001.m4s', tok.src).pathname;
    expect(new URL(tok.src).port).toBe(String(f.front!.port));
    for (let i = 0; i < 3; i++) expect((await from(il.ip, f.front!.port, 'GET', seg)).status).toBe(200);
    // The grant exists now: nginx answers the French viewer without asking the appliance; its log line is read back.
    const fra = await from(fr.ip, f.front!.port, 'GET', seg);
    expect(fra.status).toBe(200);
    expect(fra.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]+-\d+-\d+-\d+$/); // nginx's own id: a granted answer
    const leak = (await waitFor('leak seen through the front', async () => ((await (await f.api('GET', '/v1/leaks')).json()) as { items: Leak[] }).items.find((l) => l.sid === tok.sid) ?? null, 10_000))!;
    expect(leak.evidence.countries.sort()).toEqual(['FR', 'IL']);
  } finally { await f.stop(); }
}, 60_000);

test('delivery workers: their answers are watched (forwarded observations) and judge blackouts from rules the main process wrote', async () => {
  const w = await startTestServer({ workers: false, env: { ...writeGeoDbs(dir), VS_DELIVERY_WORKERS: '2', VS_DELIVERY_TAG: '1' } });
  try {
    const wport = Number(new URL(w.url).port);
    const t = w.ctx.db.query<{ id: string }, []>("SELECT id FROM tenants WHERE slug = 'default'").get()!.id;
    const asset = addReadyAsset(w, t, new Uint8Array(1024).fill(5));
    const pol = await (await w.api('POST', '/v1/playback/policies', { name: 'worker leaks', leaks: { max_countries: 1 } })).json() as { id: string };
    expect((await w.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: asset })).status).toBe(200);
    const tok = await (await w.api('POST', '/v1/playback/tokens', { asset })).json() as { src: string; sid: string };
    const seg = new URL('seg_00001.m4s', tok.src).pathname;
    // Israel first (over no limit yet), then one fresh country per request until a worker answered one: that country
    // reaches the evidence only through the worker's forwarded observation.
    expect((await from(il.ip, wport, 'GET', seg)).status).toBe(200);
    let probe: string | null = null;
    for (const v of MORE_VIEWERS) {
      const a = await from(v.ip, wport, 'GET', seg);
      expect(a.status).toBe(200);
      if (a.headers['x-vs-served-by']?.startsWith('worker-')) { probe = v.country; break; }
    }
    expect(probe).not.toBeNull();
    const leak = (await waitFor(`${probe} in the evidence`, async () => ((await (await w.api('GET', '/v1/leaks')).json()) as { items: Leak[] }).items.find((l) => l.sid === tok.sid && l.evidence.countries.includes(probe!)) ?? null, 10_000))!;
    expect(leak.evidence.countries).toContain('IL');

    // Blackouts: a channel with no stream answers 404 to allowed viewers and 403 blackout to refused ones, in every process.
    const ch = await (await w.api('POST', '/v1/channels', { name: 'Worker Sports' })).json() as { slug: string };
    const live = `/live/default/${ch.slug}/master.m3u8`;
    const answers = async (ip: string, want: number) => {
      const seen = new Set<string>();
      await waitFor(`${want} from main and worker for ${ip}`, async () => {
        const a = await from(ip, wport, 'GET', live);
        expect(`${a.status} ${a.headers['x-vs-refusal'] ?? ''}`.trim()).toBe(want === 403 ? '403 blackout' : String(want));
        seen.add(a.headers['x-vs-served-by'] ?? 'main');
        return seen.size >= 2 || null;
      });
    };
    await answers(fr.ip, 404);
    const b = await (await w.api('POST', '/v1/blackouts', { channel: ch.slug, countries: ['FR'] })).json() as { id: string };
    await answers(fr.ip, 403);
    await answers(il.ip, 404);
    // A viewer naming another address in headers is still judged by its own socket address.
    const spoof = { 'x-real-ip': il.ip, 'x-forwarded-for': il.ip, 'x-vs-peer': il.ip };
    for (let i = 0; i < 6; i++) expect((await from(fr.ip, wport, 'GET', live, { headers: spoof })).status).toBe(403);
    expect((await w.api('DELETE', `/v1/blackouts/${b.id}`)).status).toBe(204);
    await answers(fr.ip, 404);
  } finally { await w.stop(); }
}, 90_000);
