/**
 * I-frame playlists (RFC 8216 §4.3.3.6 `EXT-X-I-FRAMES-ONLY`, §4.3.4.3 `EXT-X-I-FRAME-STREAM-INF`) over the CMAF
 * segments a ladder already wrote: no new media files. Each entry is a byte range of a segment that starts at a
 * fragment's `moof` and ends with its first sample (a keyframe), read together with the rendition's init segment
 * (`EXT-X-MAP`); its duration runs to the next keyframe. The ladder cuts a fragment at every keyframe when I-frame
 * playlists are on (`Plan.fragment_s`), so every keyframe is listed; with one fragment per segment, one a segment.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { segmentsOf } from './fmp4';
import { fragmentsOf, initFacts, type Fragment } from './fmp4-index';

/** One I-frame: where it is and how long it stands for. */
export interface IframeEntry { file: string; offset: number; length: number; durationS: number }

/** Name of the I-frame playlist of video rendition `i`. */
export const iframeName = (i: number) => `iframe_${i}.m3u8`;

/** Pure: the I-frame entries of one rendition, from its segments' fragments (in playback order). */
export function iframeEntries(segs: { file: string; fragments: Fragment[] }[], timescale: number): IframeEntry[] {
  const all = segs.flatMap((s) => s.fragments.map((f) => ({ file: s.file, f })));
  if (!all.length) return [];
  const last = all[all.length - 1]!.f;
  const end = last.decodeTime + last.duration;
  const keys = all.filter((x) => x.f.keyframe);
  return keys.map((k, i) => ({
    file: k.file, offset: k.f.moofOffset, length: k.f.firstSampleEnd,
    durationS: ((i + 1 < keys.length ? keys[i + 1]!.f.decodeTime : end) - k.f.decodeTime) / timescale,
  }));
}

/** Pure: the I-frame media playlist text. */
export function iframePlaylist(init: string, entries: IframeEntry[]): string {
  const target = Math.max(1, Math.ceil(Math.max(0, ...entries.map((e) => e.durationS)) - 1e-6));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-I-FRAMES-ONLY', '#EXT-X-INDEPENDENT-SEGMENTS', `#EXT-X-MAP:URI="${init}"`];
  for (const e of entries) lines.push(`#EXTINF:${e.durationS.toFixed(6)},`, `#EXT-X-BYTERANGE:${e.length}@${e.offset}`, e.file);
  lines.push('#EXT-X-ENDLIST');
  return lines.join('\n') + '\n';
}

/** Pure: peak bit rate of an I-frame playlist (bits per second of its largest entry over its duration). */
export function iframeBandwidth(entries: IframeEntry[]): number {
  return Math.max(1, ...entries.map((e) => (e.durationS > 0 ? Math.ceil((e.length * 8) / e.durationS) : 0)));
}

/**
 * Pure: the master playlist with one `EXT-X-I-FRAME-STREAM-INF` per video rendition (`media_<i>.m3u8`), placed
 * after the variant streams, carrying that variant's RESOLUTION and video CODECS. Any earlier I-frame lines go.
 */
export function withIframeStreams(master: string, streams: { media: string; uri: string; bandwidth: number }[]): string {
  const lines = master.split('\n').filter((l) => !l.startsWith('#EXT-X-I-FRAME-STREAM-INF'));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  const add: string[] = [];
  for (const s of streams) {
    const at = lines.indexOf(s.media);
    const inf = at > 0 ? lines[at - 1]! : '';
    if (!inf.startsWith('#EXT-X-STREAM-INF')) continue;
    const res = /RESOLUTION=(\d+x\d+)/.exec(inf)?.[1];
    const video = /CODECS="([^"]*)"/.exec(inf)?.[1]?.split(',').find((c) => /^(avc[13]|hvc1|hev1|av01)\./.test(c.trim()));
    add.push(`#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=${s.bandwidth}${res ? `,RESOLUTION=${res}` : ''}${video ? `,CODECS="${video.trim()}"` : ''},URI="${s.uri}"`);
  }
  return [...lines, '', ...add].join('\n') + '\n';
}

/** Writes `iframe_<i>.m3u8` for the first `videoCount` renditions of a packaged dir and lists them in its master. */
export async function writeIframePlaylists(dir: string, videoCount: number, master = 'master.m3u8'): Promise<void> {
  const streams: { media: string; uri: string; bandwidth: number }[] = [];
  for (let i = 0; i < videoCount; i++) {
    const init = `init_${i}.m4s`;
    const facts = initFacts(await readFile(join(dir, init)));
    const segs: { file: string; fragments: Fragment[] }[] = [];
    for (const file of segmentsOf(dir, i)) segs.push({ file, fragments: fragmentsOf(await readFile(join(dir, file)), facts) });
    const entries = iframeEntries(segs, facts.timescale);
    if (!entries.length) continue;
    await writeFile(join(dir, iframeName(i)), iframePlaylist(init, entries));
    streams.push({ media: `media_${i}.m3u8`, uri: iframeName(i), bandwidth: iframeBandwidth(entries) });
  }
  const path = join(dir, master);
  await writeFile(path, withIframeStreams(await readFile(path, 'utf8'), streams));
}
