/**
 * EPG sources and templates (issue 48) against a real local XMLTV server: a changed document arrives as a draft, the
 * conditional GET's 304 path is used (the server sees If-None-Match), bad XML is logged with its reason, auto-publish
 * makes a version, the scheduler fetches a due source; a weekly template fills a week's gaps (or replaces it) as a draft.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';
import { fetchDueSources } from '../../src/features/guide/sources';

let s: TestServer;
let ch: { id: string; slug: string };
let feed: ReturnType<typeof Bun.serve>;
const H = 3_600_000;
const base = Math.floor(Date.now() / H) * H + 48 * H; // two days ahead: outside any lock window
const xt = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + ' +0000';
const prog = (fromH: number, toH: number, title: string) => `<programme start="${xt(base + fromH * H)}" stop="${xt(base + toH * H)}" channel="feed.one"><title>${title}</title></programme>`;
const doc = (...p: string[]) => `<?xml version="1.0"?>\n<tv><channel id="feed.one"/>\n${p.join('\n')}\n</tv>\n`;

// What the feed serves now, with an ETag of its own; the requests it saw (their If-None-Match).
let body = doc(prog(0, 1, 'Morning'), prog(1, 2, 'Noon'));
let etag = '"v1"';
const seen: (string | null)[] = [];
// While set, the feed holds its answers until it is resolved (a fetch in flight).
let hold: Promise<void> | null = null;
let arrived = 0;

beforeAll(async () => {
  feed = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    fetch: async (r) => {
      arrived++;
      if (hold) await hold;
      seen.push(r.headers.get('if-none-match'));
      if (r.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag } });
      return new Response(body, { headers: { 'content-type': 'application/xml', etag } });
    },
  });
  s = await startTestServer({ workers: false, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  ch = await (await s.api('POST', '/v1/channels', { name: 'Sourced', recording: { retention_hours: 24 } })).json();
});
afterAll(async () => { feed?.stop(true); await s?.stop(); });

const drafts = async () => ((await (await s.api('GET', `/v1/channels/${ch.id}/guide/draft`)).json()) as { items: { change: { op: string; kind?: string; programmes?: { title: string }[] } }[] }).items;
const titles = async () => ((await (await s.api('GET', `/v1/channels/${ch.id}/programmes?from=${new Date(base - H).toISOString()}&to=${new Date(base + 30 * H).toISOString()}`)).json()).items as { title: string }[]).map((p) => p.title);

test('EPG source: a change arrives as a draft, 304 path used, bad XML logged, auto-publish makes a version, the scheduler fetches when due', async () => {
  const url = `http://127.0.0.1:${feed.port}/epg.xml`;
  const c = await s.api('POST', '/v1/guide/sources', { channel_id: ch.id, url, interval_minutes: 30 });
  expect(c.status).toBe(201);
  const src = await c.json() as { id: string; next_fetch_at: string; auto_publish: boolean };
  expect(src.auto_publish).toBe(false);
  const fetchNow = async () => (await s.api('POST', `/v1/guide/sources/${src.id}/fetch`)).json() as Promise<{ status: string; http_status: number | null; items: number; changed: boolean; error: string | null; version: number | null }>;

  // First fetch: the document is staged as one draft; nothing is published yet.
  expect(await fetchNow()).toMatchObject({ status: 'staged', http_status: 200, items: 2, changed: true });
  let d = await drafts();
  expect(d.length).toBe(1);
  expect(d[0].change.programmes!.map((p) => p.title)).toEqual(['Morning', 'Noon']);
  expect(await titles()).toEqual([]);

  // Same ETag: a conditional GET answered 304, nothing staged.
  expect(await fetchNow()).toMatchObject({ status: 'not_modified', http_status: 304, changed: false });
  expect(seen.at(-1)).toBe('"v1"');
  expect((await drafts()).length).toBe(1);

  // The source changes: a second draft with the new content; publishing applies the newest.
  body = doc(prog(0, 1, 'Morning'), prog(1, 3, 'Long Noon')); etag = '"v2"';
  expect(await fetchNow()).toMatchObject({ status: 'staged', items: 2 });
  d = await drafts();
  expect(d.length).toBe(2);
  expect(d[1].change.programmes!.map((p) => p.title)).toEqual(['Morning', 'Long Noon']);
  expect((await s.api('POST', `/v1/channels/${ch.id}/guide/publish`)).status).toBe(200);
  expect(await titles()).toEqual(['Morning', 'Long Noon']);

  // Bad XML: logged as an error with the reason; the validators are kept, so the next fetch reads it again.
  body = '<tv><programme start="20310101000000" channel="feed.one"><title>a</title></tv>'; etag = '"bad"';
  const bad = await fetchNow();
  expect(bad.status).toBe('error');
  expect(bad.error).toContain('bad XML');
  expect(bad.error).toContain('not closed');
  const srcNow = await (await s.api('GET', `/v1/guide/sources/${src.id}`)).json() as { last_status: string; last_error: string; etag: string };
  expect(srcNow).toMatchObject({ last_status: 'error', etag: '"v2"' });
  expect(srcNow.last_error).toContain('bad XML');
  expect((await drafts()).length).toBe(0);

  // Auto-publish: the next change is published at once as a version of kind `source`.
  expect((await s.api('PATCH', `/v1/guide/sources/${src.id}`, { auto_publish: true })).status).toBe(200);
  body = doc(prog(0, 2, 'Marathon')); etag = '"v3"';
  const pub = await fetchNow();
  expect(pub).toMatchObject({ status: 'published', items: 1 });
  expect(pub.version).toBeGreaterThan(0);
  expect(await titles()).toEqual(['Marathon']);
  const versions = (await (await s.api('GET', `/v1/channels/${ch.id}/guide/versions`)).json()).items as { version: number; kind: string }[];
  expect(versions[0]).toMatchObject({ version: pub.version, kind: 'source' });

  // The scheduler: nothing due now (the next fetch is one interval away), due after it.
  const before = seen.length;
  expect(await fetchDueSources(s.ctx, Date.now())).toBe(0);
  expect(await fetchDueSources(s.ctx, Date.now() + 31 * 60_000)).toBe(1);
  expect(seen.length).toBe(before + 1);
  expect(seen.at(-1)).toBe('"v3"');

  // "Fetch now" while the same source is being fetched answers 409 (the running fetch finishes as usual).
  let release!: () => void;
  hold = new Promise((r) => { release = r; });
  const n0 = arrived;
  const first = s.api('POST', `/v1/guide/sources/${src.id}/fetch`);
  for (const end = Date.now() + 10_000; arrived === n0;) { if (Date.now() > end) throw new Error('the feed never saw the first fetch'); await Bun.sleep(20); }
  const second = await s.api('POST', `/v1/guide/sources/${src.id}/fetch`);
  expect(second.status).toBe(409);
  expect(((await second.json()) as { type: string }).type).toEndWith('/conflict');
  release(); hold = null;
  expect(await (await first).json()).toMatchObject({ status: 'not_modified', trigger: 'manual' });

  // The fetch log, newest first.
  const log = (await (await s.api('GET', `/v1/guide/sources/${src.id}/log`)).json()).items as { status: string; trigger: string }[];
  expect(log.map((l) => l.status)).toEqual(['not_modified', 'not_modified', 'published', 'error', 'staged', 'not_modified', 'staged']);
  expect(log.slice(0, 2).map((l) => l.trigger)).toEqual(['manual', 'schedule']);

  // Bad input and other tenants' ids.
  expect((await s.api('POST', '/v1/guide/sources', { channel_id: ch.id, url: 'http://169.254.169.254/x' })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/sources', { channel_id: ch.id, url, interval_minutes: 'often' })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/sources', { channel_id: ch.id, url, extra: 1 })).status).toBe(400);
  expect((await s.api('POST', '/v1/guide/sources', { channel_id: crypto.randomUUID(), url })).status).toBe(404);
  expect((await s.api('POST', `/v1/guide/sources/${crypto.randomUUID()}/fetch`)).status).toBe(404);
  expect((await s.api('GET', '/v1/guide/sources', undefined, { key: null })).status).toBe(401);
});

test('Template: a week of slots fills the gaps of a week as a draft (preview), replace swaps the range; publish applies it', async () => {
  const tz = ((await (await s.api('GET', `/v1/channels/${ch.id}`)).json()) as { timezone: string }).timezone;
  const slots = [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => [
    { weekday, start: '06:00', duration_minutes: 180, title: 'Morning Show' },
    { weekday, start: '20:00', duration_minutes: 60, title: weekday >= 6 ? 'Weekend News' : 'Evening News', series: 'News' },
  ]);
  const c = await s.api('POST', '/v1/guide/templates', { name: 'Standard week', slots });
  expect(c.status).toBe(201);
  const tpl = await c.json() as { id: string; slots: unknown[] };
  expect(tpl.slots.length).toBe(14);
  // A week starting on a Monday 8-14 days ahead: past the EPG source's programmes above (2-3 days ahead). With 7 days
  // the Monday was 1-2 days ahead on a Saturday or Sunday and the week met them (programmes 12, skipped 2).
  const d0 = new Date(Date.now() + 14 * 86_400_000);
  const monday = new Date(d0.getTime() - ((d0.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  const sunday = new Date(Date.parse(monday) + 6 * 86_400_000).toISOString().slice(0, 10);
  // One programme already published on Monday evening: `fill` leaves that slot out.
  const [y, m, dd] = monday.split('-').map(Number);
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', hourCycle: 'h23' });
  let at = Date.UTC(y, m - 1, dd, 20);
  at -= (Number(fmt.format(new Date(at))) - 20) * H; // 20:00 channel time
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Special', start_at: new Date(at).toISOString(), end_at: new Date(at + H).toISOString() })).status).toBe(201);

  const fill = await s.api('POST', `/v1/guide/templates/${tpl.id}/apply`, { channel_id: ch.id, from_day: monday, to_day: sunday });
  expect(fill.status).toBe(202);
  expect(await fill.json()).toMatchObject({ staged: true, mode: 'fill', programmes: 13, skipped: 1 });
  let d = await drafts();
  expect(d.length).toBe(13);
  expect(d.every((x) => x.change.op === 'create')).toBe(true);
  expect((await s.api('POST', `/v1/channels/${ch.id}/guide/publish`)).status).toBe(200);
  const week = ((await (await s.api('GET', `/v1/channels/${ch.id}/programmes?from=${monday}T00:00:00Z&to=${sunday}T23:59:59Z`)).json()).items as { title: string; start_at: string }[]);
  expect(week.filter((p) => p.title === 'Morning Show').length).toBe(7);
  expect(week.filter((p) => p.title === 'Weekend News').length).toBe(2);
  expect(week.filter((p) => p.title === 'Special').length).toBe(1);
  // The slot starts at 06:00 channel time.
  expect(Number(fmt.format(new Date(week.find((p) => p.title === 'Morning Show')!.start_at)))).toBe(6);

  // replace: the whole range becomes the template (one staged replace), discarded here.
  const rep = await (await s.api('POST', `/v1/guide/templates/${tpl.id}/apply`, { channel_id: ch.id, from_day: monday, to_day: monday, mode: 'replace' })).json();
  expect(rep).toMatchObject({ mode: 'replace', programmes: 2 });
  d = await drafts();
  expect(d.map((x) => [x.change.op, x.change.kind])).toEqual([['replace', 'template']]);
  expect((await s.api('DELETE', `/v1/channels/${ch.id}/guide/draft`)).status).toBe(200);

  // Bad input.
  expect((await s.api('POST', `/v1/guide/templates/${tpl.id}/apply`, { channel_id: ch.id, from_day: monday, to_day: '2099-01-01' })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/templates', { name: 'x', slots: [{ weekday: 8, start: '06:00', duration_minutes: 60, title: 'a' }] })).status).toBe(422);
  expect((await s.api('POST', '/v1/guide/templates', { name: 'x', slots: [{ weekday: 1, start: '25:00', duration_minutes: 60, title: 'a' }] })).status).toBe(422);
  expect((await s.api('POST', `/v1/guide/templates/${crypto.randomUUID()}/apply`, { channel_id: ch.id, from_day: monday })).status).toBe(404);
});
