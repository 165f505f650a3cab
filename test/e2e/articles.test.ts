import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { defaultTenantId } from './guide-helpers';
import { channelWithProgramme, draftOf, googleErrors, newsCues, seedChannelTrack } from './articles-helpers';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';
import { IdentityService } from '../../src/features/identity/service';
import { setProgrammeVod } from '../../src/features/guide/service';
import { addReadyAsset } from '../helpers/ready-asset';

// AI articles through the API (issue 45) with the extractive engine: the pipeline's refusals, the draft written from a
// programme's channel-recording subtitle track, corrections, approve → one signed artifact.published with JSON-LD that
// Google's required properties accept, reject, read-only states.

let s: TestServer;
let rx: Receiver;
let tenant: string;
const MIN = 60_000;

beforeAll(async () => {
  s = await startTestServer({ env: { VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  rx = startReceiver();
  tenant = defaultTenantId(s);
});
afterAll(async () => { rx.stop(); await s?.stop(); });

const keyWith = (scopes: string[]) => new IdentityService(s.ctx.db, s.ctx.keys).createKey(tenant, { scopes }).key;

describe('asking for a draft', () => {
  test('unknown → 404; on air or in the future → 409; no subtitles → 422; llm without an endpoint → 422', async () => {
    expect((await s.api('POST', '/v1/programmes/0190aaaa-0000-7000-8000-000000000000/article')).status).toBe(404);
    expect((await s.api('GET', '/v1/programmes/not-an-id/article')).status).toBe(404);
    const now = Date.now();
    const onAir = await channelWithProgramme(s, { startMs: now - 5 * MIN, endMs: now + 5 * MIN });
    const r1 = await s.api('POST', `/v1/programmes/${onAir.programme}/article`);
    expect(r1.status).toBe(409);
    expect((await r1.json() as { detail: string }).detail).toContain('still on air');
    const later = await channelWithProgramme(s, { startMs: now + 60 * MIN, endMs: now + 90 * MIN });
    expect((await (await s.api('POST', `/v1/programmes/${later.programme}/article`)).json() as { detail: string }).detail).toContain('not started');
    const bare = await channelWithProgramme(s, { startMs: now - 30 * MIN, endMs: now - 20 * MIN });
    const r3 = await s.api('POST', `/v1/programmes/${bare.programme}/article`);
    expect(r3.status).toBe(422);
    expect((await r3.json() as { errors: { field: string; detail: string }[] }).errors[0]!.detail).toContain('no ready subtitle track');
    seedChannelTrack(s, tenant, bare.channel.id, bare.programme, now - 30 * MIN, now - 20 * MIN, newsCues());
    const r4 = await s.api('POST', `/v1/programmes/${bare.programme}/article`, { engine: 'llm' });
    expect(r4.status).toBe(422);
    expect(await r4.text()).toContain('VS_LLM_URL');
    expect((await s.api('POST', `/v1/programmes/${bare.programme}/article`, { engine: 'gpt' })).status).toBe(422);
    expect((await s.api('POST', `/v1/programmes/${bare.programme}/article`, { colour: 'red' })).status).toBe(400);
    // Another tenant's programme is unknown to this one.
    const other = new IdentityService(s.ctx.db, s.ctx.keys);
    const t2 = other.createTenant({ name: 'Other newsroom' });
    const k2 = other.createKey(t2.id, { role: 'owner' }).key;
    expect((await s.api('POST', `/v1/programmes/${bare.programme}/article`, undefined, { key: k2 })).status).toBe(404);
    expect((await s.api('GET', `/v1/programmes/${bare.programme}/article`, undefined, { key: k2 })).status).toBe(404);
  });

  test('one job per programme: a repeat while it is queued answers the same job; once done, a new one', async () => {
    // A server without job workers keeps the job queued (the extractive engine would otherwise finish it at once).
    const idle = await startTestServer({ workers: false });
    try {
      const now = Date.now();
      const t = defaultTenantId(idle);
      const x = await channelWithProgramme(idle, { startMs: now - 30 * MIN, endMs: now - 20 * MIN });
      seedChannelTrack(idle, t, x.channel.id, x.programme, now - 30 * MIN, now - 20 * MIN, newsCues());
      const a = await idle.api('POST', `/v1/programmes/${x.programme}/article`), b = await idle.api('POST', `/v1/programmes/${x.programme}/article`);
      const ja = await a.json() as { job_id: string; status: string; engine: string }, jb = await b.json() as { job_id: string; status: string };
      expect([a.status, b.status, ja.status, ja.engine, jb.status]).toEqual([202, 202, 'queued', 'extractive', 'queued']);
      expect(jb.job_id).toBe(ja.job_id);
      expect(await (await idle.api('GET', `/v1/programmes/${x.programme}/article`)).json()).toMatchObject({ job: { id: ja.job_id, status: 'queued' }, artifact: null });
    } finally { await idle.stop(); }
    const now = Date.now();
    const x = await channelWithProgramme(s, { startMs: now - 30 * MIN, endMs: now - 20 * MIN });
    seedChannelTrack(s, tenant, x.channel.id, x.programme, now - 30 * MIN, now - 20 * MIN, newsCues());
    const ja = await (await s.api('POST', `/v1/programmes/${x.programme}/article`)).json() as { job_id: string };
    const done = await waitFor('job', async () => { const g = await (await s.api('GET', `/v1/programmes/${x.programme}/article`)).json() as { job: { status: string; progress: number } }; return g.job.status === 'succeeded' ? g : null; }, 60_000, 100);
    expect(done!.job.progress).toBe(100);
    const again = await (await s.api('POST', `/v1/programmes/${x.programme}/article`)).json() as { job_id: string };
    expect(again.job_id).not.toBe(ja.job_id); // finished: a new draft can be asked for
  });
});

describe('draft → edit → approve → artifact.published once', () => {
  test('the whole review path, with corrections, JSON-LD for Google, and read-only after', async () => {
    const hook = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['artifact.published'] })).json() as { secret: string };
    const now = Date.now(), start = now - 20 * MIN, end = start + 80_000;
    const x = await channelWithProgramme(s, { startMs: start, endMs: end, title: 'Evening News', images: { tile_16x9: 'https://img.example.org/evening.jpg' } });
    const cues = newsCues();
    seedChannelTrack(s, tenant, x.channel.id, x.programme, start, end, cues);
    const art = await draftOf(s, x.programme);
    expect([art.status, art.kind, art.engine, art.subject.id, art.subject.title, art.source.kind]).toEqual(['draft', 'article', 'extractive', x.programme, 'Evening News', 'channel_track']);
    expect(art.body.headline.startsWith('Evening News: ')).toBe(true);
    expect(art.body.chapters.length).toBe(2);
    expect(art.body.chapters[1].start_ms).toBe(cues[6]!.startMs); // the weather starts with the 7th cue
    for (const q of art.body.quotes) expect(cues.map((c) => c.text)).toContain(q.text);

    // The transcript and the video the review page shows.
    const tr = await (await s.api('GET', `/v1/ai/artifacts/${art.id}/transcript`)).json() as { cues: { id: number; start_ms: number; text: string }[]; video: { hls: string; url: string } };
    expect(tr.cues.length).toBe(cues.length);
    expect(tr.cues[0]).toMatchObject({ id: 1, start_ms: 2000, text: cues[0]!.text });
    expect(tr.video.hls).toContain('/m/catchup/');

    // Edits: a bad chapter order and an invented quote are refused (422 naming them); good edits are corrections.
    const editor = keyWith(['ai:read', 'ai:write']);
    const bad = await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { chapters: [{ ...art.body.chapters[1] }, { ...art.body.chapters[0] }] } }, { key: editor });
    expect(bad.status).toBe(422);
    expect((await bad.json() as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(['body.chapters[1].start_ms']);
    const q0 = art.body.quotes[0];
    const invented = await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { quotes: [{ ...q0, text: 'We will win every match, the minister promised.' }] } }, { key: editor });
    expect(invented.status).toBe(422);
    expect(await invented.text()).toContain('verbatim');
    expect((await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: {} }, { key: editor })).status).toBe(422);
    expect((await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { headline: 7 } }, { key: editor })).status).toBe(422);
    expect((await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { author: 'x' } }, { key: editor })).status).toBe(400);
    const ed = await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { headline: 'Late goal wins it; storm on the way', quotes: [{ ...q0, role: 'guest' }] } }, { key: editor });
    expect(ed.status).toBe(200);
    const edited = await ed.json() as Record<string, any>;
    expect(edited.body.headline).toBe('Late goal wins it; storm on the way');
    expect(edited.corrections.map((c: Record<string, unknown>) => [c.field, c.who])).toEqual([['headline', expect.stringContaining('API key')], ['quotes', expect.stringContaining('API key')]]);
    expect(edited.corrections[0].before).toBe(art.body.headline);
    expect(edited.corrections[0].after).toBe('Late goal wins it; storm on the way');

    // An editor cannot approve; a publisher can, and only once fires the event.
    expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`, undefined, { key: editor })).status).toBe(403);
    const publisher = keyWith(['ai:read', 'ai:publish']);
    const ap = await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`, undefined, { key: publisher });
    expect(ap.status).toBe(200);
    expect((await ap.json() as { status: string }).status).toBe('published');
    const again = await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`, undefined, { key: publisher });
    expect([again.status, (await again.json() as { status: string }).status]).toEqual([200, 'published']);

    const got = (await waitFor('artifact.published', () => rx.received.find((r) => r.body.type === 'artifact.published' && r.body.data.artifact === art.id), 30_000, 50))!;
    expect(verifyLikeACustomer(hook.secret, got.headers, got.raw)).toBe(true);
    const d = got.body.data as Record<string, any>;
    expect(d.subject).toMatchObject({ kind: 'programme', id: x.programme, channel_id: x.channel.id, title: 'Evening News' });
    expect(d.url).toBe(`${s.ctx.config.playerUrl}/w/default/live/${x.channel.slug}`);
    expect(d.moment_url).toBe(`${d.url}?t=${Math.floor(q0.start_ms / 1000)}`);
    expect(googleErrors(d.jsonld)).toEqual([]);
    expect(d.jsonld.headline).toBe('Late goal wins it; storm on the way');
    expect(d.jsonld.video.thumbnailUrl).toEqual(['https://img.example.org/evening.jpg']);
    expect(d.jsonld.video.hasPart.map((c: Record<string, unknown>) => c.startOffset)).toEqual(art.body.chapters.map((c: { start_ms: number }) => Math.floor(c.start_ms / 1000)));
    expect(d.jsonld.author).toEqual({ '@type': 'Organization', name: expect.any(String), url: s.ctx.config.baseUrl });
    // Exactly once: the repeated approve wrote no second event (the outbox is what every delivery is made from).
    expect(rx.received.filter((r) => r.body.type === 'artifact.published' && r.body.data.artifact === art.id)).toHaveLength(1);
    expect(s.ctx.db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM events WHERE type = 'artifact.published' AND json_extract(data, '$.artifact') = ?").get(art.id)!.n).toBe(1);

    // Published is read-only.
    expect((await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { headline: 'x' } }, { key: editor })).status).toBe(409);
    expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/reject`, { reason: 'late' }, { key: editor })).status).toBe(409);
    const list = await (await s.api('GET', '/v1/ai/artifacts?status=published&kind=article')).json() as { items: { id: string }[] };
    expect(list.items.map((i) => i.id)).toContain(art.id);

    // The public site shows the published article on the programme's entity; a new draft of it changes nothing there.
    const site = await s.api('POST', '/v1/sites', { slug: 'articles-news', name: 'News' });
    expect(site.status).toBe(201);
    const siteId = ((await site.json()) as { id: string }).id;
    const entity = async () => (await (await fetch(`${s.url}/s/v1/articles-news/entities/programme/${x.programme}`)).json()) as { article: { id: string; headline: string } | null };
    expect((await entity()).article).toMatchObject({ id: art.id, headline: 'Late goal wins it; storm on the way' });
    await draftOf(s, x.programme);
    expect((await entity()).article).toMatchObject({ id: art.id, headline: 'Late goal wins it; storm on the way' });
    expect((await s.api('DELETE', `/v1/sites/${siteId}`)).status).toBe(204); // the later tests expect no site
  }, 120_000);

  test('reject needs a reason, then the artifact is read-only; lists filter and page', async () => {
    const now = Date.now(), start = now - 40 * MIN, end = start + 80_000;
    const x = await channelWithProgramme(s, { startMs: start, endMs: end, title: 'Morning' });
    seedChannelTrack(s, tenant, x.channel.id, x.programme, start, end, newsCues());
    const art = await draftOf(s, x.programme);
    expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/reject`, {})).status).toBe(422);
    expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/reject`, { reason: '   ' })).status).toBe(422);
    const r = await s.api('POST', `/v1/ai/artifacts/${art.id}/reject`, { reason: 'wrong programme' });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ status: 'rejected', reason: 'wrong programme' });
    expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`)).status).toBe(409);
    expect((await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { headline: 'x' } })).status).toBe(409);
    const rejected = await (await s.api('GET', '/v1/ai/artifacts?status=rejected')).json() as { items: { id: string; status: string }[] };
    expect(rejected.items.every((i) => i.status === 'rejected')).toBe(true);
    const page1 = await (await s.api('GET', '/v1/ai/artifacts?limit=1')).json() as { items: unknown[]; next_cursor: string };
    expect(page1.items).toHaveLength(1);
    const page2 = await (await s.api('GET', `/v1/ai/artifacts?limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`)).json() as { items: unknown[] };
    expect(page2.items).toHaveLength(1);
    expect((await s.api('GET', '/v1/ai/artifacts?status=gone')).status).toBe(422);
    expect((await s.api('GET', '/v1/ai/artifacts/0190aaaa-0000-7000-8000-000000000000')).status).toBe(404);
  }, 60_000);
});

describe('a programme published to the library', () => {
  test('without a channel track its library video\'s subtitle track is the transcript, and the page is the video\'s watch page', async () => {
    const now = Date.now(), start = now - 70 * MIN, end = start + 80_000;
    const x = await channelWithProgramme(s, { startMs: start, endMs: end, title: 'Late News' });
    const asset = addReadyAsset(s, tenant, new Uint8Array(16));
    setProgrammeVod(s.ctx, x.programme, { asset_id: asset, status: 'published', trigger: 'api' });
    const vtt = `WEBVTT\n\n${newsCues().map((c) => `${new Date(c.startMs).toISOString().slice(11, 23)} --> ${new Date(c.endMs).toISOString().slice(11, 23)}\n${c.text}`).join('\n\n')}\n`;
    const up = await s.api('POST', `/v1/assets/${asset}/subtitles`, { language: 'en', content: vtt });
    expect(up.status).toBe(201);
    const track = await up.json() as { id: string };
    const art = await draftOf(s, x.programme);
    expect(art.source).toEqual({ kind: 'asset_track', id: track.id });
    expect(art.body.chapters[1].start_ms).toBe(newsCues()[6]!.startMs);
    const pub = await (await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`)).json() as { status: string };
    expect(pub.status).toBe('published');
    const got = (await waitFor('artifact.published', () => rx.received.find((r) => r.body.type === 'artifact.published' && r.body.data.artifact === art.id), 30_000, 50))!;
    expect((got.body.data as { url: string }).url).toBe(`${s.ctx.config.playerUrl}/w/default/vod/${asset}`);
  }, 60_000);
});

describe('with a public site', () => {
  test('url, moment_url and each Clip url are the programme\'s page on the site', async () => {
    const now = Date.now(), start = now - 50 * MIN, end = start + 80_000;
    const x = await channelWithProgramme(s, { startMs: start, endMs: end, title: 'Night News', images: { tile_16x9: 'https://img.example.org/night.jpg' } });
    seedChannelTrack(s, tenant, x.channel.id, x.programme, start, end, newsCues());
    const art = await draftOf(s, x.programme);
    const site = await s.api('POST', '/v1/sites', { slug: 'news', name: 'News', settings: { seo: { base_url: 'https://news.example.org' } } });
    expect(site.status).toBe(201);
    expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`)).status).toBe(200);
    const got = (await waitFor('artifact.published', () => rx.received.find((r) => r.body.type === 'artifact.published' && r.body.data.artifact === art.id), 30_000, 50))!;
    const d = got.body.data as Record<string, any>;
    expect(d.url).toBe(`https://news.example.org/p/${x.programme}`);
    expect(d.moment_url.startsWith(`${d.url}?t=`)).toBe(true);
    for (const c of d.jsonld.video.hasPart) expect(c.url).toBe(`${d.url}?t=${c.startOffset}`);
    expect(googleErrors(d.jsonld)).toEqual([]);
  }, 60_000);
});
