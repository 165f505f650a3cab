import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { identityService } from '../../src/features/identity/service';

const j = (r: Response): Promise<any> => r.json();
let s: TestServer;
let tenantId = '';
let ingest = '';

beforeAll(async () => {
  s = await startTestServer({ workers: false });
  tenantId = (await j(await s.api('GET', '/v1/me'))).current_tenant.id;
  ingest = join(s.dataDir, 'media', tenantId, 'ingest', 'news', 'in');
  mkdirSync(ingest, { recursive: true });
  writeFileSync(join(ingest, 'a.mp4'), 'fake mp4 bytes');
  writeFileSync(join(s.dataDir, 'secret.txt'), 'outside ingest');
  symlinkSync('/etc/passwd', join(ingest, 'link.mp4'));
});
afterAll(async () => { await s.stop(); });

const create = (body: unknown, key?: string) => s.api('POST', '/v1/assets', body, key ? { key } : {});

describe('create', () => {
  test('s3 source under ingest/<prefix>/in/ becomes a registered asset with a queued asset.process job', async () => {
    const r = await create({ source: { kind: 's3', key: 'ingest/news/in/a.mp4' }, title: 'חדשות הערב', external_id: 'cms:1', metadata: { ads: { cues: [10, 20] } } });
    expect(r.status).toBe(201);
    const a = await j(r);
    expect(a).toMatchObject({ status: 'registered', title: 'חדשות הערב', external_id: 'cms:1', publish: 'auto', published: false });
    const row = s.ctx.db.query<{ source_path: string }, [string]>('SELECT source_path FROM assets WHERE id = ?').get(a.id)!;
    expect(await Bun.file(join(s.dataDir, row.source_path)).text()).toBe('fake mp4 bytes');
    expect(s.ctx.db.query('SELECT type, status FROM jobs WHERE subject_id = ?').all(a.id)).toEqual([{ type: 'asset.process', status: 'queued' }]);
    // A safe retry with the same external_id answers 409 and creates nothing.
    const dup = await create({ source: { kind: 's3', key: 'ingest/news/in/a.mp4' }, external_id: 'cms:1' });
    expect(dup.status).toBe(409);
    expect(s.ctx.db.query(`SELECT COUNT(*) AS n FROM assets WHERE external_id = 'cms:1'`).get()).toEqual({ n: 1 });
  });

  test('s3 keys that escape or are malformed are refused (422) and nothing is read', async () => {
    const bad = ['../../../secret.txt', 'ingest/news/in/../../../../secret.txt', '/etc/passwd', 'ingest/news/in/%2e%2e/%2e%2e/x',
      'ingest/news/in/a.mp4\u0000.txt', 'ingest/news/out/a.mp4', 'ingest/news/in/', 'ingest//in/a.mp4', 'ingest/news/in/..\\..\\x',
      'ingest/news/in/link.mp4', 'ingest/news/in/missing.mp4', 'other/news/in/a.mp4'];
    for (const key of bad) {
      const r = await create({ source: { kind: 's3', key } });
      expect({ key, status: r.status }).toEqual({ key, status: 422 });
    }
    expect(s.ctx.db.query('SELECT COUNT(*) AS n FROM assets').get()).toEqual({ n: 1 });
  });

  test('url sources: hostile addresses refused at once; upload kind refused; field rules', async () => {
    for (const url of ['http://127.0.0.1/x.mp4', 'http://0x7f.1/x', 'http://[::ffff:127.0.0.1]/x', 'http://169.254.169.254/', 'http://localhost/x', 'file:///etc/passwd', 'http://10.1.1.1/v.mp4', 'http://[fd00::1]/']) {
      const r = await create({ source: { kind: 'url', url } });
      expect({ url, status: r.status }).toEqual({ url, status: 422 });
      expect((await j(r)).errors[0].field).toBe('source.url');
    }
    expect((await create({ source: { kind: 'upload' } })).status).toBe(422);
    expect((await create({ source: { kind: 'ftp', url: 'x' } })).status).toBe(422);
    const src = { kind: 's3', key: 'ingest/news/in/a.mp4' };
    expect((await create({ source: src, external_id: 'bad id!' })).status).toBe(422);
    expect((await create({ source: src, external_id: 'x'.repeat(201) })).status).toBe(422);
    expect((await create({ source: src, title: 'x'.repeat(501) })).status).toBe(422);
    expect((await create({ source: src, metadata: { blob: 'x'.repeat(17_000) } })).status).toBe(422);
    expect((await create({ source: src, metadata: { ads: { cues: Array.from({ length: 51 }, (_, i) => i) } } })).status).toBe(422);
    expect((await create({ source: src, unknown: 1 })).status).toBe(400);
    const editor = identityService(s.ctx).createKey(tenantId, { role: 'editor' }).key;
    expect((await create({ source: src, publish: 'auto' }, editor)).status).toBe(403);
    expect((await create({ source: src, publish: 'manual', external_id: 'ed:1' }, editor)).status).toBe(201);
  });
});

describe('read, search, edit, trash', () => {
  test('list newest first with cursors; Hebrew-aware prefix search', async () => {
    const src = { kind: 's3', key: 'ingest/news/in/a.mp4' };
    await create({ source: src, title: 'שָׁלוֹם עֲלֵיכֶם' });
    await create({ source: src, title: 'Video of the week' });
    const page1 = await j(await s.api('GET', '/v1/assets?limit=2'));
    expect(page1.items).toHaveLength(2);
    expect(page1.items[0].title).toBe('Video of the week');
    const page2 = await j(await s.api('GET', `/v1/assets?limit=2&cursor=${encodeURIComponent(page1.next_cursor)}`));
    expect(page2.items.length).toBeGreaterThan(0);
    const titles = async (q: string) => (await j(await s.api('GET', `/v1/assets?q=${encodeURIComponent(q)}`))).items.map((a: any) => a.title);
    expect(await titles('שלו')).toEqual(['שָׁלוֹם עֲלֵיכֶם']);
    expect(await titles('שלום')).toEqual(['שָׁלוֹם עֲלֵיכֶם']); // final mem folded
    expect(await titles('עליכם')).toEqual(['שָׁלוֹם עֲלֵיכֶם']);
    expect(await titles('vid')).toEqual(['Video of the week']);
    expect(await titles('הערב')).toEqual(['חדשות הערב']);
    expect(await titles('cms:1')).toEqual(['חדשות הערב']);
    expect((await s.api('GET', '/v1/assets?q=a')).status).toBe(422);
    expect((await s.api('GET', `/v1/assets?q=${'x'.repeat(101)}`)).status).toBe(422);
  });

  test('get, patch, publish rules, other tenant 404', async () => {
    const a = await j(await create({ source: { kind: 's3', key: 'ingest/news/in/a.mp4' }, title: 'Draft' }));
    expect((await j(await s.api('GET', `/v1/assets/${a.id}`))).title).toBe('Draft');
    const p = await s.api('PATCH', `/v1/assets/${a.id}`, { title: 'Edited', metadata: { section: 'news' } });
    expect((await j(p)).title).toBe('Edited');
    expect((await s.api('PATCH', `/v1/assets/${a.id}`, { publish: true })).status).toBe(409); // not ready
    const editor = identityService(s.ctx).createKey(tenantId, { role: 'editor' }).key;
    expect((await s.api('PATCH', `/v1/assets/${a.id}`, { publish: true }, { key: editor })).status).toBe(403);
    s.ctx.db.query(`UPDATE assets SET status = 'ready' WHERE id = ?`).run(a.id); // as the media engine would
    const pub = await s.api('PATCH', `/v1/assets/${a.id}`, { publish: true });
    expect(pub.status).toBe(200);
    expect((await j(pub)).published).toBe(true);
    expect(s.ctx.db.query(`SELECT COUNT(*) AS n FROM events WHERE type = 'asset.published'`).get()).toEqual({ n: 1 });
    const other = identityService(s.ctx).createTenant({ name: 'Other' });
    const ok = identityService(s.ctx).createKey(other.id, { role: 'owner' }).key;
    expect((await s.api('GET', `/v1/assets/${a.id}`, undefined, { key: ok })).status).toBe(404);
    expect((await s.api('DELETE', `/v1/assets/${a.id}`, undefined, { key: ok })).status).toBe(404);
    expect((await s.api('GET', '/v1/assets/not-a-uuid')).status).toBe(404);
  });

  test('trash: delete, list, restore, purge (files removed), empty, retention', async () => {
    const mk = async (title: string) => j(await create({ source: { kind: 's3', key: 'ingest/news/in/a.mp4' }, title }));
    const a = await mk('T1'), b = await mk('T2'), c = await mk('T3');
    for (const x of [a, b, c]) expect((await s.api('DELETE', `/v1/assets/${x.id}`)).status).toBe(204);
    expect((await s.api('GET', `/v1/assets/${a.id}`)).status).toBe(404);
    const trash = await j(await s.api('GET', '/v1/assets/trash'));
    expect(trash.items.map((x: any) => x.title)).toEqual(['T3', 'T2', 'T1']);
    expect(trash.items[0].deleted_at).toBeString();
    expect((await j(await s.api('POST', `/v1/assets/${a.id}/restore`))).title).toBe('T1');
    expect((await s.api('GET', `/v1/assets/${a.id}`)).status).toBe(200);
    const editor = identityService(s.ctx).createKey(tenantId, { role: 'editor' }).key;
    expect((await s.api('DELETE', `/v1/assets/trash/${b.id}`, undefined, { key: editor })).status).toBe(403);
    const dirB = join(s.dataDir, 'media', tenantId, 'assets', b.id);
    expect(existsSync(dirB)).toBe(true);
    expect((await s.api('DELETE', `/v1/assets/trash/${b.id}`)).status).toBe(204);
    expect(existsSync(dirB)).toBe(false);
    expect((await s.api('POST', `/v1/assets/${b.id}/restore`)).status).toBe(404);
    expect((await j(await s.api('DELETE', '/v1/assets/trash'))).purged).toBe(1);
    expect((await j(await s.api('GET', '/v1/assets/trash'))).items).toEqual([]);
    expect((await j(await s.api('GET', '/v1/assets/trash/settings'))).retention_days).toBe(30);
    expect((await s.api('PUT', '/v1/assets/trash/settings', { retention_days: 0 })).status).toBe(422);
    expect((await j(await s.api('PUT', '/v1/assets/trash/settings', { retention_days: 7 }))).retention_days).toBe(7);
    // Retention: an asset trashed 8 days ago is purged by the sweeper, a fresh one is kept.
    const d = await mk('old'), e = await mk('fresh');
    await s.api('DELETE', `/v1/assets/${d.id}`);
    await s.api('DELETE', `/v1/assets/${e.id}`);
    s.ctx.db.query('UPDATE assets SET deleted_at = ? WHERE id = ?').run(Date.now() - 8 * 86_400_000, d.id);
    const { AssetService } = await import('../../src/features/assets/service');
    expect(new AssetService(s.ctx).sweepTrash()).toBe(1);
    expect((await j(await s.api('GET', '/v1/assets/trash'))).items.map((x: any) => x.title)).toEqual(['fresh']);
  });
});
