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
// live over SRT, the programme ends, the subtitles issue's auto-subtitles recognise the recording into a channel track
// (built-in engine), the article job drafts it with the extractive engine, an editor corrects the draft, a publisher
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

test('a recorded programme with real speech → channel subtitles → extractive draft → corrected → approved → one signed artifact.published', async () => {
  const hook = await (await s.api('POST', '/v1/webhooks', { url: rx.url, events: ['artifact.published'] })).json() as { secret: string };
  // The tenant asks for English subtitles of every recorded programme (the subtitles issue's auto-subtitles).
  expect((await s.api('PATCH', '/v1/settings/subtitles', { auto_subtitles: { recordings: ['en'] } })).status).toBe(200);
  const ch = await (await s.api('POST', '/v1/channels', { name: 'Readings', recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const segs = () => s.ctx.db.query<Seg, [string]>("SELECT start_ms, duration_ms, init_ms, path FROM live_segments WHERE channel_id = ? AND rendition = 'src' ORDER BY start_ms").all(ch.id);
  const pushed = pushSpeech(ing.srt.primary.url);
  await waitFor('first segment', () => segs().length >= 1, 30_000);
  const first = segs()[0]!.start_ms;
  // The programme: from the first recorded frame to shortly after the speech (the push lasts about 9.3 s).
  const prog = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Sense and Sensibility', start_at: at(first), end_at: at(first + 11_000), images: { tile_16x9: 'https://img.example.org/readings.jpg' } })).json() as { id: string };
  // On air: no article yet.
  const early = await s.api('POST', `/v1/programmes/${prog.id}/article`);
  expect(early.status).toBe(409);
  expect(await pushed).toBe(0);
  await waitFor('programme over and recorded', async () => { const n = segs().length; await Bun.sleep(500); return Date.now() > first + 11_500 && segs().length === n; }, 30_000);

  // Auto-subtitles recognise the ended programme into a channel track.
  const track = (await waitFor('recognised channel track', async () => {
    const l = await (await s.api('GET', `/v1/channels/${ch.id}/subtitles?programme_id=${prog.id}`)).json() as { items: { id: string; status: string; error: string | null; cue_count: number }[] };
    const t = l.items[0];
    if (t?.status === 'failed') throw new Error(t.error ?? 'failed');
    return t?.status === 'ready' ? t : null;
  }, 420_000, 250))!;
  expect(track.cue_count).toBeGreaterThan(0);

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
  expect([art.job.id, art.job.progress, art.status, art.engine, art.source, art.language]).toEqual([job_id, 100, 'draft', 'extractive', { kind: 'channel_track', id: track.id }, 'en']);
  expect(art.body.headline.startsWith('Sense and Sensibility: ')).toBe(true);
  const words = art.body.chapters.flatMap((c: { paragraphs: string[] }) => c.paragraphs).join(' ').toLowerCase().split(/\s+/);
  for (const w of ['young', 'man', 'might', 'even', 'have', 'been', 'made']) expect(words).toContain(w);
  const transcript = await (await s.api('GET', `/v1/ai/artifacts/${art.id}/transcript`)).json() as { cues: { text: string; start_ms: number; end_ms: number }[] };
  // Times from the programme's start: the first reading starts after about 0.3 s, the second after 0.3 + 2.99 + 1 s.
  const might = transcript.cues.find((c) => c.text.includes('might'))!;
  expect(might.start_ms).toBeGreaterThan(3000);
  expect(might.start_ms).toBeLessThan(6500);
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
  expect(d.url).toBe(`${s.ctx.config.playerUrl}/w/default/live/${ch.slug}`);
  expect(d.moment_url).toBe(`${d.url}?t=${Math.floor(art.body.quotes[0].start_ms / 1000)}`);
  expect(googleErrors(d.jsonld)).toEqual([]);
  expect(d.jsonld.headline).toBe('A young man, perhaps amiable');
  expect(d.jsonld.video.contentUrl).toContain(`/m/catchup/${ch.slug}/`);
  expect(d.jsonld.video.hasPart.length).toBe(art.body.chapters.length);
  expect(s.ctx.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM events WHERE type = 'artifact.published'").get()!.n).toBe(1);
  expect(rx.received.filter((r) => r.body.type === 'artifact.published')).toHaveLength(1);
}, 600_000);
