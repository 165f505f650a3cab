import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startTestServer, waitFor, type TestServer } from '../helpers/server';
import { at, playThrough, recordChannel, type Seg } from './catchup-helpers';

/**
 * Availability rules against a real SRT recording: start-over while airing with its start recorded, catch-up only once
 * ended, recorded and not excluded; the EPG day in Asia/Jerusalem; channel now/next; catch-up in search and sitemaps.
 */
let s: TestServer;
let tmp: string;
beforeAll(async () => { s = await startTestServer(); tmp = mkdtempSync(join(tmpdir(), 'vs-sites-cu-')); });
afterAll(async () => { await s.stop(); rmSync(tmp, { recursive: true, force: true }); });

const pub = (p: string) => fetch(`${s.url}/s/v1/tv${p}`);
const json = async (p: string) => (await pub(p)).json() as Promise<any>;
const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));

test('start-over while airing, catch-up once ended and recorded, exclusions, EPG day, search and sitemap', async () => {
  const site = await (await s.api('POST', '/v1/sites', { slug: 'tv', name: 'TV' })).json() as { id: string };
  const { ch, pusher, segs } = await recordChannel(s, 'Kan Live', 8, 2);
  const first = segs()[0]!.start_ms;
  const air = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'מבזק חדשות', series: 'מבזק', start_at: at(first), end_at: at(Date.now() + 600_000) })).json() as { id: string };
  await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Night film', start_at: at(first - 3_600_000), end_at: at(first - 1_800_000) });
  await s.api('POST', `/v1/sites/${site.id}/shows`, { slug: 'mivzak', title: 'מבזקים', episodes: { series: 'מבזק' }, published: true });

  // Airing, its start recorded: start-over, no catch-up; not searchable yet (catch-up only).
  const epg = await json(`/epg?channel=${ch.slug}`);
  expect(epg.day).toBe(day(Date.now()));
  expect(epg.time_zone).toBe('Asia/Jerusalem');
  const onAir = epg.items.find((i: any) => i.id === air.id);
  expect(onAir).toMatchObject({ airing: true, start_over: true, catchup: false, series: 'מבזק' });
  expect((await playThrough(onAir.start_over_src)).codes.every((c) => c === 200)).toBe(true);
  const chan = await json(`/entities/channel/${ch.slug}`);
  expect(chan.playback).toMatchObject({ mode: 'live', channel: ch.slug, kind: 'live', tenant: 'default' });
  expect(chan.now.slug).toBe(air.id);
  expect((await json(`/search?q=${encodeURIComponent('מבזק')}&type=programme`)).items).toEqual([]);
  const prog = await json(`/entities/programme/${air.id}`);
  expect(prog).toMatchObject({ start_over: true, catchup: false, playback: { mode: 'startover', kind: 'live', channel: ch.slug } });

  await pusher.exited;
  await waitFor('recording settles', async () => { const n = segs().length; await Bun.sleep(700); return n >= 3 && segs().length === n; }, 20_000);
  const rec: Seg[] = segs();
  const last = rec[rec.length - 1]!.start_ms + rec[rec.length - 1]!.duration_ms;
  const mid = Math.round((first + last) / 2);
  // The programme ends at mid; an excluded one fills the rest of the recording.
  expect((await s.api('PATCH', `/v1/channels/${ch.id}/programmes/${air.id}`, { end_at: at(mid) })).status).toBe(200);
  const hidden = await (await s.api('POST', `/v1/channels/${ch.id}/programmes`, { title: 'Hidden gem', start_at: at(mid), end_at: at(last) })).json() as { id: string };
  expect((await s.api('PUT', '/v1/catchup/exclusions', { rules: [{ field: 'title', pattern: 'hidden*' }] })).status).toBe(200);

  const after = await waitFor('catch-up offered', async () => {
    const d = await json(`/epg?channel=${ch.slug}&day=${day(first)}`);
    const a = d.items.find((i: any) => i.id === air.id);
    return a?.catchup ? d : null;
  });
  const byId = Object.fromEntries(after.items.map((i: any) => [i.id, i]));
  expect(byId[air.id]).toMatchObject({ catchup: true, start_over: false, airing: false, start_over_src: null });
  expect(byId[hidden.id]).toMatchObject({ catchup: false });
  const night = after.items.find((i: any) => i.title === 'Night film');
  if (night) expect(night.catchup).toBe(false); // before the first recorded minute (and maybe on the day before)
  const cu = await json(`/entities/programme/${air.id}`);
  expect(cu.playback).toMatchObject({ mode: 'catchup', kind: 'catchup', channel: ch.slug });
  expect(cu.series.map((x: any) => x.slug)).toEqual(['mivzak']);
  expect((await playThrough(cu.playback.src)).codes.every((c) => c === 200)).toBe(true);
  expect((await pub(`/entities/programme/${hidden.id}`)).status).toBe(404);
  // Search and the show's episodes hold the catch-up programme; the sitemap lists it and validates.
  const found = await json(`/search?q=${encodeURIComponent('מבזק')}&type=programme`);
  expect(found.items.map((x: any) => x.slug)).toEqual([air.id]);
  const show = await json('/entities/show/mivzak');
  expect(show.episodes.map((x: any) => x.slug)).toEqual([air.id]);
  const xml = await (await pub('/sitemap/programmes.xml')).text();
  expect(xml).toContain(`/p/${air.id}`);
  expect(xml).not.toContain(hidden.id);
  const f = join(tmp, 'programmes.xml');
  writeFileSync(f, xml);
  const lint = Bun.spawnSync(['xmllint', '--noout', '--schema', join(import.meta.dir, '../fixtures/xsd/all.xsd'), f]);
  expect(lint.stderr.toString().trim()).toBe(`${f} validates`);
  // A bad day is 422; a channel the site does not show is 404.
  expect((await pub(`/epg?channel=${ch.slug}&day=2026-13-40`)).status).toBe(422);
  await s.api('PATCH', `/v1/sites/${site.id}`, { settings: { guide: { channels: ['other'] } } });
  await waitFor('channel hidden', async () => (await pub(`/epg?channel=${ch.slug}`)).status === 404);
}, 120_000);
