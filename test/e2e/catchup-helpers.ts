import { waitFor, type TestServer } from '../helpers/server';
import { push, type Pusher } from './live-helpers';

/** A recorded segment row as the test reads it from the index. */
export interface Seg { start_ms: number; duration_ms: number; init_ms: number; path: string }

/** Creates and starts a channel, pushes SRT (testsrc2 320x180) for `seconds`; resolves once `minSegs` are indexed. */
export async function recordChannel(s: TestServer, name: string, seconds: number, minSegs = 3): Promise<{ ch: { id: string; slug: string }; pusher: Pusher; segs: () => Seg[] }> {
  const ch = await (await s.api('POST', '/v1/channels', { name, recording: { retention_hours: 24 } })).json() as { id: string; slug: string };
  await s.api('POST', `/v1/channels/${ch.id}/start`);
  const ing = await (await s.api('GET', `/v1/channels/${ch.id}/ingest`)).json() as { srt: { primary: { url: string } } };
  const pusher = push(ing.srt.primary.url, { seconds });
  const segs = () => s.ctx.db.query<Seg, [string]>("SELECT start_ms, duration_ms, init_ms, path FROM live_segments WHERE channel_id = ? AND rendition = 'src' ORDER BY start_ms").all(ch.id);
  await waitFor(`${minSegs} segments`, () => segs().length >= minSegs, 30_000);
  return { ch, pusher, segs };
}

/** Fetches master, first variant, its init and every segment; returns the statuses (and the variant text). */
export async function playThrough(src: string): Promise<{ codes: number[]; variant: string; segments: number }> {
  const codes: number[] = [];
  const master = await fetch(src);
  codes.push(master.status);
  if (master.status !== 200) return { codes, variant: '', segments: 0 };
  const variantUrl = new URL((await master.text()).split('\n').find((l) => l && !l.startsWith('#'))!, src);
  const v = await fetch(variantUrl);
  codes.push(v.status);
  const text = await v.text();
  const init = /URI="([^"]+)"/.exec(text)?.[1];
  if (init) codes.push((await fetch(new URL(init, variantUrl))).status);
  const segs = text.split('\n').filter((l) => l && !l.startsWith('#'));
  for (const seg of segs) {
    const r = await fetch(new URL(seg, variantUrl));
    codes.push(r.status);
    await r.arrayBuffer();
  }
  return { codes, variant: text, segments: segs.length };
}

/** ISO text of epoch ms. */
export const at = (ms: number) => new Date(ms).toISOString();
