import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { defaultTenantId } from './guide-helpers';
import { channelWithProgramme, draftOf, newsCues, seedChannelTrack } from './articles-helpers';
import { IdentityService } from '../../src/features/identity/service';
import { ALL_SCOPES } from '../../src/kernel/http/scopes';
import { ArtifactStore } from '../../src/features/articles/store';
import { newId } from '../../src/kernel/ids';

// Scope, state and validation rules of every AI articles operation, generated from the route table (the OpenAPI
// document built from it) with fast-check: a key without the operation's scope gets 403 whatever else it holds, a key
// with it is never refused for scope; no key is 401; unknown fields 400, wrong types 422 with errors[]; others' ids
// 404; and random sequences of edit/approve/reject follow the state table, with artifact.published exactly once.

type Json = Record<string, any>;
interface Op { method: string; path: string; scope: string; body: Json | null }
let s: TestServer;
let ops: Op[];
let tenant: string;
let programme: string;
let template: Json; // a real draft (the extractive engine), cloned for each generated case
const keys = new Map<string, string>();

const keyFor = (scopes: string[]) => {
  const k = [...scopes].sort().join(',');
  if (!keys.has(k)) keys.set(k, new IdentityService(s.ctx.db, s.ctx.keys).createKey(tenant, { scopes }).key);
  return keys.get(k)!;
};

/** A fresh draft with the template's body (the same programme and transcript). */
function cloneDraft(): string {
  const store = new ArtifactStore(s.ctx.db), row = store.get(tenant, template.id)!;
  const id = newId(), now = Date.now();
  store.insert({ ...row, id, status: 'draft', job_id: null, created_at: now, updated_at: now });
  return id;
}

/** A body the operation accepts when the rules let it through. */
function goodBody(op: Op): unknown {
  if (op.method === 'GET') return undefined;
  if (op.path.endsWith('/reject')) return { reason: 'not ready' };
  if (op.method === 'PATCH') return { body: { headline: 'Edited headline' } };
  if (op.path === '/v1/programmes/{id}/article') return { engine: 'extractive' };
  return undefined;
}
const pathOf = (op: Op, id: string) => op.path.replace('{id}', id);
const idFor = (op: Op) => (op.path.startsWith('/v1/programmes/') ? programme : cloneDraft());

beforeAll(async () => {
  // Hundreds of generated requests per second from one key: the rate limit is not what is under test here.
  const cfg = join(mkdtempSync(join(tmpdir(), 'vs-articles-')), 'viewstream.yml');
  writeFileSync(cfg, 'rate_limit:\n  per_second: 100000\n  burst: 100000\n');
  s = await startTestServer({ env: { VS_CONFIG: cfg } });
  tenant = defaultTenantId(s);
  const now = Date.now(), start = now - 3_600_000, end = start + 80_000;
  const x = await channelWithProgramme(s, { startMs: start, endMs: end });
  seedChannelTrack(s, tenant, x.channel.id, x.programme, start, end, newsCues());
  programme = x.programme;
  template = await draftOf(s, programme);
  const doc = await (await fetch(`${s.url}/openapi.json`)).json() as Json;
  ops = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!(op.tags as string[] | undefined)?.includes('AI articles')) continue;
      ops.push({ method: method.toUpperCase(), path, scope: op['x-required-scope'], body: op.requestBody?.content?.['application/json']?.schema ?? null });
    }
  }
}, 120_000);
afterAll(async () => { await s?.stop(); });

describe('generated from the route table', () => {
  test('the operations and their scopes are the seed\'s', () => {
    expect(ops.map((o) => `${o.method} ${o.path} ${o.scope}`).sort()).toEqual([
      'GET /v1/ai/artifacts ai:read', 'GET /v1/ai/artifacts/{id} ai:read', 'GET /v1/ai/artifacts/{id}/transcript ai:read',
      'GET /v1/programmes/{id}/article ai:read', 'PATCH /v1/ai/artifacts/{id} ai:write', 'POST /v1/ai/artifacts/{id}/approve ai:publish',
      'POST /v1/ai/artifacts/{id}/reject ai:write', 'POST /v1/programmes/{id}/article assets:write',
    ]);
  });

  test('scope: any key without the operation\'s scope → 403 (before the body is read); with it, never 401/403', async () => {
    for (const op of ops) {
      const others = ALL_SCOPES.filter((x) => x !== op.scope);
      await fc.assert(fc.asyncProperty(fc.subarray(others, { minLength: 1 }), fc.boolean(), async (held, withIt) => {
        const scopes = withIt ? [...held, op.scope] : held;
        const r = await s.api(op.method, pathOf(op, idFor(op)), op.method === 'GET' ? undefined : { surely_unknown_field: 1 }, { key: keyFor(scopes) });
        return withIt ? r.status !== 403 && r.status !== 401 : r.status === 403;
      }), { numRuns: 6 });
      const anon = await s.api(op.method, pathOf(op, idFor(op)), goodBody(op), { key: null });
      expect(anon.status, `${op.method} ${op.path} without a key: ${await anon.clone().text()}`).toBe(401);
    }
  }, 120_000);

  test('validation: unknown fields → 400, wrong types → 422 naming the field, for every operation with a body', async () => {
    const owner = keyFor(ALL_SCOPES as unknown as string[]);
    const withBody = ops.filter((o) => o.body);
    expect(withBody.map((o) => `${o.method} ${o.path}`).sort()).toEqual(['PATCH /v1/ai/artifacts/{id}', 'POST /v1/ai/artifacts/{id}/reject', 'POST /v1/programmes/{id}/article']);
    for (const op of withBody) {
      const props = Object.keys(op.body!.properties ?? {});
      await fc.assert(fc.asyncProperty(fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !props.includes(k) && !/^(__proto__|constructor)$/.test(k)), async (k) => {
        const good = goodBody(op) as Json;
        const r = await s.api(op.method, pathOf(op, idFor(op)), { ...good, [k]: 1 }, { key: owner });
        return r.status === 400;
      }), { numRuns: 5 });
      for (const p of props) {
        await fc.assert(fc.asyncProperty(fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })), async (v) => {
          const r = await s.api(op.method, pathOf(op, idFor(op)), { ...(goodBody(op) as Json), [p]: v }, { key: owner });
          const j = await r.json() as { errors?: { field: string }[] };
          return r.status === 422 && (j.errors ?? []).length > 0;
        }), { numRuns: 4 });
      }
    }
  }, 120_000);

  test('ids: unknown or another tenant\'s → 404 on every operation that takes one', async () => {
    const ids = new IdentityService(s.ctx.db, s.ctx.keys);
    const t2 = ids.createTenant({ name: `Other ${newId().slice(-5)}` });
    const k2 = ids.createKey(t2.id, { role: 'owner' }).key;
    for (const op of ops.filter((o) => o.path.includes('{id}'))) {
      await fc.assert(fc.asyncProperty(fc.constantFrom('mine', 'uuid', 'junk'), async (kind) => {
        const id = kind === 'mine' ? idFor(op) : kind === 'uuid' ? newId() : 'x%20y';
        const r = await s.api(op.method, pathOf(op, id), goodBody(op), { key: kind === 'mine' ? k2 : undefined });
        return r.status === 404;
      }), { numRuns: 6 });
    }
  }, 120_000);
});

describe('state table', () => {
  type Action = 'edit' | 'approve' | 'reject';
  /** The seed's table: a draft can be edited, approved (published) or rejected; published answers approve again unchanged. */
  const model = (state: string, a: Action): { status: number; next: string } => {
    if (state === 'draft') return { status: 200, next: a === 'edit' ? 'draft' : a === 'approve' ? 'published' : 'rejected' };
    if (state === 'published' && a === 'approve') return { status: 200, next: 'published' };
    return { status: 409, next: state };
  };
  const call = (id: string, a: Action) => (a === 'edit'
    ? s.api('PATCH', `/v1/ai/artifacts/${id}`, { body: { headline: `Edit ${newId().slice(-6)}` } })
    : s.api('POST', `/v1/ai/artifacts/${id}/${a}`, a === 'reject' ? { reason: 'no' } : undefined));
  const events = (id: string) => s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM events WHERE type = 'artifact.published' AND json_extract(data, '$.artifact') = ?").get(id)!.n;

  test('random sequences of edit / approve / reject follow the table; artifact.published once iff published; corrections count the edits', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom<Action>('edit', 'approve', 'reject'), { minLength: 1, maxLength: 6 }), async (actions) => {
      const id = cloneDraft();
      let state = 'draft', edits = 0;
      for (const a of actions) {
        const want = model(state, a);
        const r = await call(id, a);
        if (r.status !== want.status) throw new Error(`${state} --${a}--> ${r.status}, want ${want.status}`);
        if (a === 'edit' && r.status === 200) edits++;
        state = want.next;
        const got = await (await s.api('GET', `/v1/ai/artifacts/${id}`)).json() as { status: string; corrections: unknown[] };
        if (got.status !== state) throw new Error(`after ${a}: ${got.status}, want ${state}`);
        if (got.corrections.length !== edits) throw new Error(`${got.corrections.length} corrections, want ${edits}`);
      }
      return events(id) === (state === 'published' ? 1 : 0);
    }), { numRuns: 25 });
  }, 120_000);
});
