/**
 * Subtitles of channel recordings in catch-up, start-over and clip delivery (issue 43, "Delivery and players"): a real SRT
 * recording, a published Hebrew recording track over it; the range's master names a subtitle rendition, its playlist
 * mirrors the range's segments, WebVTT segments carry the track's cues timed on the range's media time, and hls.js in
 * Chromium shows them at those times (one cue across a segment boundary included).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { at, recordChannel, type Seg } from './catchup-helpers';
import { strictPlaylist } from './interop-helpers';
import { browserCues, norm } from './subtitles-helpers';
import { parseWebVtt } from '../../src/text/webvtt';
import { formatTimestamp } from '../../src/text/subtitle-file';
import type * as HLS from 'hls-parser';

let s: TestServer, ch: { id: string; slug: string }, rec: Seg[], first: number, last: number, boundary: number;
beforeAll(async () => { s = await startTestServer(); }, 60_000);
afterAll(async () => { await s?.stop(); });

test('catch-up, start-over and a clip of a recording with a published Hebrew track: rendition, aligned WebVTT, hls.js shows the cues in time', async () => {
  const r = await recordChannel(s, 'Subs One', 9, 2);
  ch = r.ch;
  await r.pusher.exited;
  await waitFor('recording settles', async () => { const n = r.segs().length; await Bun.sleep(700); return n >= 4 && r.segs().length === n; }, 20_000);
  rec = r.segs();
  first = rec[0].start_ms; last = rec[rec.length - 1].start_ms + rec[rec.length - 1].duration_ms;
  boundary = rec[1].start_ms + rec[1].duration_ms; // between the second and third segments
  // Cue times of a recording track are relative to its range start (here the recording's first segment).
  const c1 = [300, 1200], c2 = [boundary - first - 500, boundary - first + 700];
  const vtt = `WEBVTT\n\n${formatTimestamp(c1[0], '.')} --> ${formatTimestamp(c1[1], '.')}\nשלום.\n\n${formatTimestamp(c2[0], '.')} --> ${formatTimestamp(c2[1], '.')}\nחדשות 5 > 3 & עוד\n`;
  const created = await s.api('POST', `/v1/channels/${ch.id}/subtitles`, { language: 'he', start_at: at(first), end_at: at(last), content: vtt });
  expect(created.status).toBe(201);
  const track = ((await created.json()) as { id: string }).id;
  const src = `${s.url}/m/catchup/${ch.slug}/${first}/${last}/master.m3u8?c=default`;
  // Unpublished: the range plays without subtitles.
  expect(await (await fetch(src)).text()).not.toContain('SUBTITLES');
  expect((await s.api('POST', `/v1/channels/${ch.id}/subtitles/${track}/publish`)).status).toBe(200);

  const master = await (await fetch(src)).text();
  expect(master).toContain(`#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",LANGUAGE="he",NAME="עברית",DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI="subs-he-${first}/index.m3u8?c=default"`);
  const mp = strictPlaylist(master, 'master') as HLS.types.MasterPlaylist;
  expect(mp.variants.every((v) => v.subtitles.length === 1)).toBe(true);
  const variant = strictPlaylist(await (await fetch(new URL(mp.variants[0].uri, src))).text(), 'variant') as HLS.types.MediaPlaylist;
  const subsUrl = new URL(`subs-he-${first}/index.m3u8?c=default`, src).href;
  const sp = strictPlaylist(await (await fetch(subsUrl)).text(), 'subs') as HLS.types.MediaPlaylist;
  expect(sp.segments.map((x) => x.duration)).toEqual(variant.segments.map((x) => x.duration));
  expect([sp.endlist, sp.playlistType]).toEqual([true, 'VOD']);
  // The segments around the boundary both carry the cue across it, on the range's media time (first segment = 0).
  const texts = await Promise.all(sp.segments.slice(1, 3).map(async (x) => (await fetch(new URL(x.uri, subsUrl))).text()));
  for (const t of texts) {
    expect(t.split('\n')[1]).toBe('X-TIMESTAMP-MAP=MPEGTS:0,LOCAL:00:00:00.000');
    expect(parseWebVtt(t).map((c) => [c.startMs, c.endMs])).toContainEqual([c2[0], c2[1]]);
  }
  expect(texts[1]).toContain('\u200fחדשות 5 &gt; 3 &amp; עוד');
  expect((await fetch(new URL(`subs-ru-${first}/index.m3u8?c=default`, src))).status).toBe(404);
  expect((await fetch(new URL(`subs-he-${first}/vtt/${first - 100_000}-2000.vtt?c=default`, src))).status).toBe(404);

  // hls.js plays the range with the rendition shown: the cues at the media times above.
  const shown = norm(await browserCues('hls.js', src, 'he'));
  expect(shown).toEqual(norm([{ start: c1[0] / 1000, end: c1[1] / 1000, text: 'שלום.' }, { start: c2[0] / 1000, end: c2[1] / 1000, text: 'חדשות 5 > 3 & עוד' }]));

  // Start-over of a programme over the recording offers the same rendition.
  const prog = (await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'News', start_at: at(first), end_at: at(last) })).json()) as { id: string };
  const so = await (await fetch(`${s.url}/m/startover/${ch.slug}/${prog.id}/master.m3u8?c=default`)).text();
  expect(so).toContain('TYPE=SUBTITLES');
  const soSubs = /URI="(subs-he-\d+\/index\.m3u8\?c=default)"/.exec(so)![1];
  const soPl = await (await fetch(new URL(soSubs, `${s.url}/m/startover/${ch.slug}/${prog.id}/master.m3u8?c=default`))).text();
  expect(soPl).toContain('.vtt?c=default');

  // A clip over the recording (segment precision) from the second segment: the cue across the boundary, timed from
  // the clip's own first segment.
  const clip = (await (await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(rec[1].start_ms), end_at: at(last) })).json()) as { id: string; playback: { hls: string } };
  const cm = await (await fetch(clip.playback.hls)).text();
  const cSubs = new URL(/URI="(subs-he-\d+\/index\.m3u8\?c=default)"/.exec(cm)![1], clip.playback.hls).href;
  expect(cSubs).toContain(`/subs-he-${rec[1].start_ms}/`);
  const cPl = strictPlaylist(await (await fetch(cSubs)).text(), 'clip subs') as HLS.types.MediaPlaylist;
  const cVtt = await (await fetch(new URL(cPl.segments[0].uri, cSubs))).text();
  expect(parseWebVtt(cVtt).map((c) => [c.startMs, c.endMs])).toEqual([[c2[0] - (rec[1].start_ms - first), c2[1] - (rec[1].start_ms - first)]]);

  // A frame-precision clip, once final (re-encoded to its own files), keeps the rendition: cues timed from its start.
  const fStart = first + 1000;
  const fc = (await (await s.api('POST', '/v1/clips', { channel_id: ch.id, start_at: at(fStart), end_at: at(last), precision: 'frame' })).json()) as { id: string; playback: { hls: string } };
  await waitFor('frame clip final', async () => ((await (await s.api('GET', `/v1/clips/${fc.id}`)).json()) as { status: string }).status === 'final', 120_000, 500);
  const fm = await (await fetch(fc.playback.hls)).text();
  expect(fm).toContain(`URI="subs-he-${fStart}/index.m3u8?c=default"`);
  const fSubs = new URL(`subs-he-${fStart}/index.m3u8?c=default`, fc.playback.hls).href;
  const fPl = strictPlaylist(await (await fetch(fSubs)).text(), 'final clip subs') as HLS.types.MediaPlaylist;
  const fVariant = strictPlaylist(await (await fetch(new URL((strictPlaylist(fm, 'final master') as HLS.types.MasterPlaylist).variants[0].uri, fc.playback.hls))).text(), 'final variant') as HLS.types.MediaPlaylist;
  expect(fPl.segments.map((x) => x.duration)).toEqual(fVariant.segments.map((x) => x.duration));
  const fCues = (await Promise.all(fPl.segments.map(async (x) => parseWebVtt(await (await fetch(new URL(x.uri, fSubs))).text())))).flat();
  expect(fCues.map((c) => [c.startMs, c.endMs, c.text])).toContainEqual([c2[0] - 1000, c2[1] - 1000, 'חדשות 5 > 3 & עוד']);
}, 300_000);
