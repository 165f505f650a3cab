import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../helpers/server';

let s: TestServer;
let ch: { id: string; slug: string };
let feed: ReturnType<typeof Bun.serve>;
const H = 3_600_000;
const xt = (ms: number) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14) + ' +0000';
// Past hours inside the 24 h retention, so search (catch-up programmes) finds them.
const base = Math.floor(Date.now() / H) * H - 20 * H;
const xml = (progs: string) => `<?xml version="1.0"?>\n<tv>\n<channel id="news.il"/>\n${progs}\n</tv>\n`;
const prog = (fromH: number, toH: number, title: string, desc = '') => `<programme start="${xt(base + fromH * H)}" stop="${xt(base + toH * H)}" channel="news.il"><title lang="he">${title}</title>${desc ? `<desc>${desc}</desc>` : ''}</programme>`;

beforeAll(async () => {
  feed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(xml(prog(10, 11, 'From URL')), { headers: { 'content-type': 'application/xml' } }) });
  s = await startTestServer({ workers: false, env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  ch = await (await s.api('POST', '/v1/channels', { name: 'Import One', recording: { retention_hours: 24 } })).json();
});
afterAll(async () => { feed?.stop(true); await s?.stop(); });

const upload = (text: string, extra: Record<string, string> = {}) => {
  const fd = new FormData();
  fd.append('file', new Blob([text], { type: 'application/xml' }), 'guide.xml');
  for (const [k, v] of Object.entries(extra)) fd.append(k, v);
  return fetch(`${s.url}/v1/channels/${ch.id}/guide/import`, { method: 'POST', headers: { authorization: `Bearer ${s.key}` }, body: fd });
};
const titles = async () => ((await (await s.api('GET', `/v1/channels/${ch.id}/programmes?from=${new Date(base - H).toISOString()}&to=${new Date(base + 30 * H).toISOString()}`)).json()).items as { title: string; start_at: string; end_at: string }[]);

test('XMLTV upload: overlaps resolved predictably, replaced on re-import; malformed answers 422; URL source through the safe fetcher', async () => {
  const r = await upload(xml([prog(0, 2, 'מַהֲדוּרַת הַבֹּקֶר', 'סיכום החדשות של הלילה'), prog(1, 3, 'צה"ל היום'), prog(3, 4, 'ספורט')].join('\n')));
  expect(r.status).toBe(200);
  expect(await r.json()).toMatchObject({ programmes: 3, overlaps_resolved: 1, xmltv_channel: 'news.il' });
  let t = await titles();
  expect(t.map((p) => p.title)).toEqual(['מַהֲדוּרַת הַבֹּקֶר', 'צה"ל היום', 'ספורט']);
  expect(t[0].end_at).toBe(new Date(base + H).toISOString());
  // Re-import of the same range replaces it.
  expect((await upload(xml(prog(0, 4, 'Marathon')))).status).toBe(200);
  expect((await titles()).map((p) => p.title)).toEqual(['Marathon']);
  // Malformed: not closed, bad time, wrong channel, no programmes.
  for (const bad of ['<tv><programme start="x" channel="news.il"><title>a</title></programme></tv>', '<tv><programme start="20310101000000" channel="news.il"><title>a</title></tv>', 'not xml at all']) {
    const res = await upload(bad);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { errors: { field: string }[] }).errors[0].field).toBe('file');
  }
  expect((await upload(xml(prog(0, 1, 'x')), { xmltv_channel: 'other' })).status).toBe(422);
  expect((await upload(xml(''))).status).toBe(422);
  const u = await s.api('POST', `/v1/channels/${ch.id}/guide/import-url`, { url: `http://127.0.0.1:${feed.port}/guide.xml` });
  expect(u.status).toBe(200);
  t = await titles();
  expect(t.map((p) => p.title)).toContain('From URL');
  expect((await s.api('POST', `/v1/channels/${ch.id}/guide/import-url`, { url: 'http://169.254.169.254/latest' })).status).toBe(422);
});

test('Hebrew-aware catch-up search: niqqud, final letters, prefixes, gershayim; match and truncated; bad q/limit', async () => {
  await upload(xml([prog(12, 13, 'מַהֲדוּרַת הַבֹּקֶר', 'סיכום החדשות של הלילה'), prog(13, 14, 'צה"ל היום'), prog(14, 15, 'שלום עולם'), prog(15, 16, 'Shalom World')].join('\n')));
  const q = async (text: string, limit = '') => (await s.api('GET', `/v1/channels/${ch.id}/catchup/search?q=${encodeURIComponent(text)}${limit ? `&limit=${limit}` : ''}`)).json() as Promise<{ truncated: boolean; items: { title: string; match: { field: string; snippet: string } }[] }>;
  expect((await q('מהדורת')).items.map((i) => i.title)).toEqual(['מַהֲדוּרַת הַבֹּקֶר']);
  expect((await q('מהדו')).items.length).toBe(1);
  const d = await q('חדשות');
  expect(d.items[0].match.field).toBe('description');
  expect(d.items[0].match.snippet).toContain('החדשות');
  expect((await q('שלומ')).items.map((i) => i.title)).toEqual(['שלום עולם']);
  expect((await q('שלום')).items.map((i) => i.title)).toEqual(['שלום עולם']);
  expect((await q('צה"ל')).items.map((i) => i.title)).toEqual(['צה"ל היום']);
  expect((await q('shal')).items.map((i) => i.match.field)).toEqual(['title']);
  const many = await q('עולם', '1');
  expect(many.items.length).toBe(1);
  await upload(xml([prog(16, 17, 'עולם הספורט'), prog(17, 18, 'עולם המדע')].join('\n')));
  const trunc = await q('עולם', '2');
  expect(trunc.items.length).toBe(2);
  expect(trunc.truncated).toBe(true);
  expect((await s.api('GET', `/v1/channels/${ch.id}/catchup/search?q=a`)).status).toBe(422);
  expect((await s.api('GET', `/v1/channels/${ch.id}/catchup/search?q=${'x'.repeat(101)}`)).status).toBe(422);
  expect((await s.api('GET', `/v1/channels/${ch.id}/catchup/search?q=news&limit=51`)).status).toBe(422);
});
