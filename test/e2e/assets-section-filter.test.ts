/** GET /v1/assets?section=: one section's assets, `none` for those in no section, 404 for other tenants, 422/400 for bad values. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';
import { newId } from '../../src/kernel/ids';
import { indexText } from '../../src/features/assets/search';

let s: TestServer;
let tenantId: string;
beforeAll(async () => {
  s = await startTestServer({ workers: false, validate: true });
  tenantId = identityService(s.ctx).tenant('default')!.id;
}, 60_000);
afterAll(async () => { await s?.stop(); }, 60_000);

/** Rows (and their search entries) straight into SQLite (ready, no media: the list only reads rows); ids newest last. */
function seedAssets(tenant: string, n: number, prefix: string): string[] {
  const ins = s.ctx.db.query(`INSERT INTO assets (id, tenant_id, external_id, title, status, ladder, source, source_path, duration_s, created_at, updated_at)
    VALUES (?, ?, ?, ?, 'ready', NULL, '{"kind":"upload"}', '', 10, ?, ?)`);
  const ids: string[] = [];
  const fts = s.ctx.db.query('INSERT INTO assets_fts (rowid, body) VALUES (?, ?)');
  for (let i = 0; i < n; i++) {
    const id = newId(); ids.push(id);
    const r = ins.run(id, tenant, `${prefix}-${i}`, `${prefix} ${i}`, Date.now(), Date.now());
    fts.run(Number(r.lastInsertRowid), indexText({ title: `${prefix} ${i}`, external_id: `${prefix}-${i}`, metadata: '{}' }));
  }
  return ids;
}

async function json<T>(r: Response): Promise<T> { return (await r.json()) as T; }
type Page = { items: { id: string }[]; next_cursor: string | null };

/** Every id of a filtered list, following cursors with a small page. */
async function all(query: string, key?: string): Promise<string[]> {
  const out: string[] = [];
  for (let cur = ''; ;) {
    const r = await s.api('GET', `/v1/assets?limit=2&${query}${cur ? `&cursor=${encodeURIComponent(cur)}` : ''}`, undefined, key ? { key } : undefined);
    expect(r.status).toBe(200);
    const p = await json<Page>(r);
    out.push(...p.items.map((a) => a.id));
    if (!p.next_cursor) return out;
    cur = p.next_cursor;
  }
}

test('section filter: its assets only (paged, with search), `none`, trash, a deleted section', async () => {
  const ids = seedAssets(tenantId, 7, 'filter');
  const news = await json<{ id: string }>(await s.api('POST', '/v1/library/sections', { name: 'News' }));
  const sport = await json<{ id: string }>(await s.api('POST', '/v1/library/sections', { name: 'Sport' }));
  for (const id of ids.slice(0, 3)) expect((await s.api('PUT', `/v1/assets/${id}/section`, { section_id: news.id })).status).toBe(200);
  expect((await s.api('PUT', `/v1/assets/${ids[3]}/section`, { section_id: sport.id })).status).toBe(200);

  expect(await all(`section=${news.id}`)).toEqual(ids.slice(0, 3).reverse());
  expect(await all(`section=${sport.id}`)).toEqual([ids[3]]);
  expect(await all('section=none')).toEqual(ids.slice(4).reverse());
  // With search: "filter 1" matches only the asset titled "filter 1" (prefix "1" also matches nothing else here).
  expect(await all(`section=${news.id}&q=${encodeURIComponent('filter 1')}`)).toEqual([ids[1]]);
  expect(await all(`section=${sport.id}&q=${encodeURIComponent('filter 1')}`)).toEqual([]);
  // A cursor of one section's list is not accepted for another list.
  const p = await json<Page>(await s.api('GET', `/v1/assets?limit=1&section=${news.id}`));
  expect(p.next_cursor).not.toBeNull();
  expect((await s.api('GET', `/v1/assets?limit=1&section=${sport.id}&cursor=${encodeURIComponent(p.next_cursor!)}`)).status).toBeGreaterThanOrEqual(400);

  // Trashed assets leave the section's list and show in the trash filtered the same way.
  expect((await s.api('DELETE', `/v1/assets/${ids[0]}`)).status).toBe(204);
  expect(await all(`section=${news.id}`)).toEqual([ids[2], ids[1]]);
  const trash = await json<Page>(await s.api('GET', `/v1/assets/trash?section=${news.id}`));
  expect(trash.items.map((a) => a.id)).toEqual([ids[0]]);
  expect((await json<Page>(await s.api('GET', `/v1/assets/trash?section=${sport.id}`))).items).toEqual([]);

  // Deleting the section moves its assets to "none"; its id then answers 404.
  expect((await s.api('DELETE', `/v1/library/sections/${sport.id}`)).status).toBe(204);
  expect(await all('section=none')).toEqual(ids.slice(3).reverse());
  const gone = await s.api('GET', `/v1/assets?section=${sport.id}`);
  expect(gone.status).toBe(404);
  expect(gone.headers.get('content-type')).toContain('application/problem+json');
});

test('another tenant\'s section answers 404 and never lists its assets', async () => {
  const other = identityService(s.ctx).createTenant({ name: 'Other', slug: 'other-sections' });
  const otherKey = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
  const [theirs] = seedAssets(other.id, 1, 'theirs');
  const sec = await json<{ id: string }>(await s.api('POST', '/v1/library/sections', { name: 'Private' }, { key: otherKey }));
  expect((await s.api('PUT', `/v1/assets/${theirs}/section`, { section_id: sec.id }, { key: otherKey })).status).toBe(200);
  expect(await all(`section=${sec.id}`, otherKey)).toEqual([theirs]);
  const r = await s.api('GET', `/v1/assets?section=${sec.id}`);
  expect(r.status).toBe(404);
  expect(JSON.stringify(await r.json())).not.toContain(theirs);
  expect((await s.api('GET', `/v1/assets/trash?section=${sec.id}`)).status).toBe(404);
  // `none` stays within the caller's tenant.
  expect(await all('section=none')).not.toContain(theirs);
});

test('bad values: 422 with errors[] for a malformed section, 400 for an unknown parameter, 401 first', async () => {
  for (const bad of ['nope', 'NONE', '', '1', `${newId()}x`]) {
    const r = await s.api('GET', `/v1/assets?section=${encodeURIComponent(bad)}`);
    expect(r.status).toBe(422);
    const p = await json<{ errors: { field: string }[] }>(r);
    expect(p.errors.map((e) => e.field).join()).toContain('section');
  }
  expect((await s.api('GET', `/v1/assets?section=${'a'.repeat(65)}`)).status).toBe(422);
  expect((await s.api('GET', `/v1/assets?sections=none`)).status).toBe(400);
  expect((await s.api('GET', `/v1/assets?section=none`, undefined, { key: null })).status).toBe(401);
  expect((await s.api('GET', `/v1/assets?section=${newId()}`)).status).toBe(404);
});

test('hostile section values never crash the list (fast-check)', async () => {
  await fc.assert(fc.asyncProperty(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.uuid(), fc.constantFrom("' OR 1=1 --", 'none', '%00', '../x')), async (v) => {
    const r = await s.api('GET', `/v1/assets?section=${encodeURIComponent(v)}`);
    expect([200, 404, 422]).toContain(r.status);
    if (r.status !== 200) expect(r.headers.get('content-type')).toContain('application/problem+json');
    else expect(v).toBe('none');
  }), { numRuns: 60 });
});
