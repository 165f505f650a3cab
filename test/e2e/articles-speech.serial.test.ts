import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { liveEnv } from './live-helpers';
import { at, type Seg } from './catchup-helpers';
import { defaultTenantId } from './guide-helpers';
import { googleErrors } from './articles-helpers';
import { startReceiver, verifyLikeACustomer, type Receiver } from './webhooks-receiver';
import { IdentityService } from '../../src/features/identity/service';

// Issue 45 end to end on real speech: a channel records Debian's librivox recordings (pocketsphinx-testdata) pushed
// over SRT, the programme ends, it is published to the library (publish-vod), its speech is recognised by the
// built-in engine, the article job drafts it with the extractive engine, an editor corrects the draft, a publisher
// approves it and the signed artifact.published arrives once with JSON-LD Google's required properties accept.

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
let s: TestServer;
let rx: Receiver;
let pusher: ChildProcess | null = null;

beforeAll(async () => {
  s = await startTestServer({ env: { ...await liveEnv(), VS_PRIVATE_ALLOWLIST: '127.0.0.1/32' } });
  rx = startReceiver();
});
afterAll(async () => {
  try { if (pusher?.pid) process.kill(-pusher.pid, 'SIGKILL'); } catch { /* gone */ }
  rx.stop();
  await s?.stop();
});

/** Pushes a test picture with the two recordings (1 s of silence between) in real time to `url`; resolves on exit. */
function pushSpeech(url: string): Promise<number | null> {
  pusher = spawn('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25',
    '-re', '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0880.wav`, '-f', 'lavfi', '-t', '1', '-i', 'anullsrc=r=16000:cl=mono',
    '-re', '-i', `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-0930.wav`, '-f', 'lavfi', '-t', '2', '-i', 'anullsrc=r=16000:cl=mono',
    '-filter_complex', '[1:a][2:a][3:a][4:a]concat=n=4:v=0:a=1,aresample=48000[a]', '-map', '0:v', '-map', '[a]', '-shortest',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '50', '-keyint_min', '50', '-sc_threshold', '0', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '96k', '-f', 'mpegts', url], { detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((r) => pusher!.on('close', (c) => r(c)));
}

test('a recorded programme with real speech → subtitles → extractive draft → corrected → approved → one signed artifact.published', async () => {
  const hook = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['artifact.published'] })).json() as { secret: string };
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Readings', recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const segs = () => s.ctx.db.query<Seg, [string]>("SELECT start_ms, duration_ms, init_ms, path FROM live_segments WHERE channel_id = ? AND rendition = 'src' ORDER BY start_ms").all(ch.id);
  expect(await pushSpeech(ing.srt.primary.url)).toBe(0);
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(600); return n >= 3 && segs().length === n; }, 30_000);
  const rec = segs();
  const first = rec[0]!.start_ms, last = rec[rec.length - 1]!.start_ms + rec[rec.length - 1]!.duration_ms;

  // The programme of the recording: on air it cannot have an article yet (409); it has ended now.
  const prog = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Sense and Sensibility', start_at: at(first), end_at: at(last) })).json() as { id: string };
  expect(last).toBeLessThan(Date.now());
  const noSubs = await s.api('POST', `/v1/programmes/${prog.id}/article`);
  expect(noSubs.status).toBe(422);

  // Published to the library, then its speech recognised (the subtitles issue's path for a programme's video).
  expect((await s.api('POST', `/v1/channels/${ch.id}/programmes/${prog.id}/publish-vod`, {})).status).toBe(202);
  const assetId = await waitFor('library video', async () => {
    const list = await (await s.api('GET', `/v1/channels/${ch.id}/catchup?from=${at(first - 60_000)}&to=${at(Date.now())}`)).json() as { items: { id: string; status: string; vod: { asset_id: string | null; status: string } | null }[] };
    const it = list.items.find((i) => i.id === prog.id);
    if (it?.vod?.status === 'failed') throw new Error(JSON.stringify(it.vod));
    return it?.status === 'published' ? it.vod!.asset_id : null;
  }, 120_000, 500);
  const tr = await (await s.api('POST', `/v1/assets/${assetId}/subtitles`, { language: 'en' })).json() as { id: string };
  const track = await waitFor('recognised', async () => {
    const t = await (await s.api('GET', `/v1/assets/${assetId}/subtitles/${tr.id}`)).json() as { status: string; error: string | null; cue_count: number };
    if (t.status === 'failed') throw new Error(t.error ?? 'failed');
    return t.status === 'ready' ? t : null;
  }, 400_000, 250);
  expect(track!.cue_count).toBeGreaterThan(0);

  // The article job (extractive), with its progress.
  const req = await s.api('POST', `/v1/programmes/${prog.id}/article`, { engine: 'extractive' });
  expect(req.status).toBe(202);
  const { job_id } = await req.json() as { job_id: string };
  const art = (await waitFor('draft', async () => {
    const g = await (await s.api('GET', `/v1/programmes/${prog.id}/article`)).json() as { job: { id: string; status: string; progress: number; error: string | null }; artifact: Record<string, any> | null };
    if (g.job.status === 'failed') throw new Error(g.job.error ?? 'failed');
    return g.job.status === 'succeeded' ? { ...g.artifact!, job: g.job } as Record<string, any> : null;
  }, 60_000, 100))!;
  console.log('draft:', JSON.stringify(art.body, null, 1));
  expect([art.job.id, art.job.progress, art.status, art.engine, art.source.kind, art.language]).toEqual([job_id, 100, 'draft', 'extractive', 'asset_track', 'en']);
  expect(art.body.headline.startsWith('Sense and Sensibility: ')).toBe(true);
  const words = art.body.chapters.flatMap((c: { paragraphs: string[] }) => c.paragraphs).join(' ').toLowerCase().split(/\s+/);
  for (const w of ['young', 'man', 'might', 'even', 'have', 'been', 'made']) expect(words).toContain(w);
  const transcript = await (await s.api('GET', `/v1/ai/artifacts/${art.id}/transcript`)).json() as { cues: { text: string; start_ms: number; end_ms: number }[] };
  for (const q of art.body.quotes) {
    const inside = transcript.cues.filter((c) => c.start_ms >= q.start_ms && c.end_ms <= q.end_ms).map((c) => c.text.replace(/\n/g, ' ')).join(' ');
    expect(q.text).toBe(inside);
  }

  // An editor corrects the headline; a publisher approves (twice: one event).
  const tenant = defaultTenantId(s);
  const ids = new IdentityService(s.ctx.db, s.ctx.keys);
  const editor = ids.createKey(tenant, { role: 'editor' }).key, publisher = ids.createKey(tenant, { role: 'publisher' }).key;
  const ed = await (await s.api('PATCH', `/v1/ai/artifacts/${art.id}`, { body: { headline: 'A young man, perhaps amiable' } }, { key: editor })).json() as { corrections: { field: string; before: string; after: string }[] };
  expect(ed.corrections).toEqual([expect.objectContaining({ field: 'headline', before: art.body.headline, after: 'A young man, perhaps amiable' })]);
  expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`, undefined, { key: editor })).status).toBe(403);
  expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`, undefined, { key: publisher })).status).toBe(200);
  expect((await s.api('POST', `/v1/ai/artifacts/${art.id}/approve`, undefined, { key: publisher })).status).toBe(200);
  const got = (await waitFor('artifact.published', () => rx.received.find((r) => r.body.type === 'artifact.published'), 30_000, 50))!;
  expect(verifyLikeACustomer(hook.secret, got.headers, got.raw)).toBe(true);
  const d = got.body.data as Record<string, any>;
  expect(d.artifact).toBe(art.id);
  expect(d.url).toBe(`${s.ctx.config.playerUrl}/w/default/vod/${assetId}`);
  expect(d.moment_url).toMatch(new RegExp(`^${d.url.replace(/[/.?]/g, '\\$&')}\\?t=\\d+$`));
  expect(googleErrors(d.jsonld)).toEqual([]);
  expect(d.jsonld.headline).toBe('A young man, perhaps amiable');
  expect(d.jsonld.video.hasPart.length).toBe(art.body.chapters.length);
  expect(s.ctx.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM events WHERE type = 'artifact.published'").get()!.n).toBe(1);
  expect(rx.received.filter((r) => r.body.type === 'artifact.published')).toHaveLength(1);
}, 600_000);
