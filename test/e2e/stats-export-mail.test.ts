import { afterAll, beforeAll, expect, test } from 'bun:test';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server';
import { linkIn, signIn, startSmtp } from './people-helpers';
import { PeopleService } from '../../src/features/people/service';
import { statsRuntime } from '../../src/features/stats/runtime';
import { EVENT_COLUMNS } from '../../src/features/stats/tables';
import type { StatsParam } from '../../src/kernel/stats';

let s: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ workers: false, env: { VS_SMTP_URL: smtp.url } });
  const tenantId = s.ctx.db.query<{ id: string }, []>(`SELECT id FROM tenants WHERE slug = 'default'`).get()!.id;
  await new PeopleService(s.ctx).createUser({ email: 'analyst@example.com', name: 'Ana Lyst', password: 'numbers tower lamp 7', tenantId, role: 'owner' });
  await statsRuntime(s.ctx).ready;
  const now = s.ctx.clock.now();
  const row = (sid: string, e: string) => {
    const v: Record<string, StatsParam> = { ts: now - 60_000, received: now, tenant_id: tenantId, sid, viewer_id: `viewer-${sid}`, kind: 'vod', content_id: 'asset-x', live: false, e, pos: 0, buf: 0 };
    return EVENT_COLUMNS.map((c) => v[c] ?? null);
  };
  await s.ctx.stats.append('player_events', [row('a', 'play_request'), row('b', 'play_request')]);
  await statsRuntime(s.ctx).flush();
}, 60_000);
afterAll(async () => { await s?.stop(); await smtp?.stop(); });

test('email: true mails the signed download link to the signed-in person when the file is ready', async () => {
  const studio = await signIn(s, 'analyst@example.com', 'numbers tower lamp 7');
  expect((await studio.call('PUT', '/v1/me/tenant', { tenant: 'default' })).status).toBe(200);
  const r = await studio.call('POST', '/v1/stats/exports', { report: 'player_events', format: 'ndjson', email: true });
  expect([r.status, r.status === 202 ? '' : await r.text()]).toEqual([202, '']);
  const { id } = await r.json() as { id: string };
  const mail = await smtp.next('analyst@example.com');
  expect(mail.subject).toContain('player_events');
  expect(mail.text).toContain(`/v1/stats/exports/${id}`);
  const link = new URL(linkIn(mail.text, `${s.url}/v1/stats/exports/${id}/download?`));
  const d = await studio.call('GET', link.pathname + link.search);
  expect(d.status).toBe(200);
  expect(d.headers.get('x-export-rows')).toBe('2');
  expect(gunzipSync(new Uint8Array(await d.arrayBuffer())).toString('utf8').trim().split('\n').length).toBe(2);
});
