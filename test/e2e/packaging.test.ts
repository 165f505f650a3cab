import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeClip, registerAsset, settled } from './transcode-helpers';
import { browserPlay, checkHlsTree, startBrowsers, strictPlaylist, type Browsers } from './interop-helpers';

// Packaging settings per tenant (issue 48): segment duration, DASH on/off, AES-128 by default and I-frame playlists
// reach the next encode's files and playback.
let s: TestServer, tmp: string, clip: string, b: Browsers | null = null;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'vs-packaging-'));
  clip = await makeClip(join(tmp, 'clip.mp4'), { seconds: 8, size: '320x180' });
  s = await startTestServer();
}, 60_000);
afterAll(async () => { await b?.close(); await s?.stop(); rmSync(tmp, { recursive: true, force: true }); });
const browsers = async () => (b ??= await startBrowsers());
/**
 * hls.js in Chromium plays the master to \`ended\` with no error and no stall. Its play-time check (the duration ±1 s)
 * is printed, not required: on a loaded 2-core box Chromium's decode alone stretches 8 s to 9.4 s.
 */
async function playedToEnd(src: string): Promise<boolean> {
  const cell = await browserPlay(await browsers(), 'hls.js', src, { expectS: 8 });
  console.log(`hls.js ${src.slice(-24)}: ${cell.ok ? 'ok' : 'slow'} ${cell.note}`);
  return cell.ok || /^[\d.]+ s/.test(cell.note);
}

const targetDuration = (m3u8: string) => Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(m3u8)?.[1]);
const extinfs = (m3u8: string) => [...m3u8.matchAll(/#EXTINF:([\d.]+)/g)].map((x) => Number(x[1]));

async function encoded(): Promise<{ id: string; dir: string; files: Record<string, string>; renditions: { width: number; height: number }[]; playback: Record<string, unknown> }> {
  const id = registerAsset(s.ctx, clip, { ladder: 'fast' });
  const row = await settled(s.ctx, id, 120_000);
  expect(row.status).toBe('ready');
  const out = JSON.parse(row.output!) as { dir: string; files: Record<string, string>; renditions: { width: number; height: number }[] };
  const a = await (await s.api('GET', `/v1/assets/${id}`)).json() as { playback: Record<string, unknown> };
  return { id, dir: join(s.ctx.config.dataDir, out.dir), files: out.files, renditions: out.renditions, playback: a.playback };
}

test('segment 2 s and DASH off: the next encode has 2 s segments and no MPD; back to defaults: the ladder\'s 4 s and an MPD', async () => {
  const def = await (await s.api('GET', '/v1/packaging')).json();
  expect(def).toMatchObject({ segment_s: null, dash: true, aes128_default: false, iframe_playlists: false, updated_at: null });
  const p = await s.api('PATCH', '/v1/packaging', { segment_s: 2, dash: false });
  expect(p.status).toBe(200);
  expect(await p.json()).toMatchObject({ segment_s: 2, dash: false });
  const a = await encoded();
  const media = readFileSync(join(a.dir, 'media_0.m3u8'), 'utf8');
  expect(targetDuration(media)).toBe(2);
  const d = extinfs(media);
  expect(d.length).toBe(4);
  for (const x of d) expect(x).toBeCloseTo(2, 1);
  expect(existsSync(join(a.dir, 'manifest.mpd'))).toBe(false);
  expect(a.files.dash).toBeUndefined();
  expect(a.playback.dash).toBeUndefined();
  expect(typeof a.playback.hls).toBe('string');
  expect((await fetch(String(a.playback.hls))).status).toBe(200);
  // Back to the defaults: the fast ladder's own 4 s segments and a DASH manifest.
  expect((await s.api('PATCH', '/v1/packaging', { segment_s: null, dash: true })).status).toBe(200);
  const b = await encoded();
  expect(targetDuration(readFileSync(join(b.dir, 'media_0.m3u8'), 'utf8'))).toBe(4);
  expect(existsSync(join(b.dir, 'manifest.mpd'))).toBe(true);
  expect(String(b.playback.dash)).toEndWith('/manifest.mpd');
}, 240_000);

test('packaging validation: range, types, unknown fields, AES-128 by default with I-frame playlists refused, scope', async () => {
  const bad = async (body: unknown, status: number) => expect((await s.api('PATCH', '/v1/packaging', body)).status).toBe(status);
  await bad({ segment_s: 0 }, 422);
  await bad({ segment_s: 11 }, 422);
  await bad({ segment_s: 2.5 }, 422);
  await bad({ dash: 'no' }, 422);
  await bad({ hls_time: 2 }, 400);
  await bad({}, 422);
  await bad({ aes128_default: 'yes' }, 422);
  // AES-128 by default and I-frame playlists exclude each other: the field that turns the second on is named.
  expect((await s.api('PATCH', '/v1/packaging', { aes128_default: true })).status).toBe(200);
  const both = await s.api('PATCH', '/v1/packaging', { iframe_playlists: true });
  expect(both.status).toBe(422);
  expect((await both.json() as { errors: { field: string }[] }).errors[0].field).toBe('iframe_playlists');
  const both2 = await s.api('PATCH', '/v1/packaging', { aes128_default: true, iframe_playlists: true });
  expect(both2.status).toBe(422);
  expect((await s.api('GET', '/v1/packaging').then((r) => r.json()))).toMatchObject({ aes128_default: true, iframe_playlists: false });
  expect((await s.api('PATCH', '/v1/packaging', { aes128_default: false })).status).toBe(200);
  const viewer = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  expect((await s.api('GET', '/v1/packaging', undefined, { key: viewer })).status).toBe(200);
  expect((await s.api('PATCH', '/v1/packaging', { dash: false }, { key: viewer })).status).toBe(403);
  expect((await s.api('GET', '/v1/packaging', undefined, { key: null })).status).toBe(401);
});

test('lip-sync: visible and off; switching it on is refused with the platform rule; lip_sync checks stay refused', async () => {
  const viewer = (await (await s.api('POST', '/v1/api-keys', { role: 'viewer' })).json() as { key: string }).key;
  const g = await s.api('GET', '/v1/lip-sync', undefined, { key: viewer });
  expect(g.status).toBe(200);
  expect(await g.json()).toEqual({ enabled: false, platform: 'off', checks_creatable: false, rule: 'Lip-sync checks cannot be created while lip-sync is switched off on the platform (currently off).' });
  const on = await s.api('PATCH', '/v1/lip-sync', { enabled: true });
  expect(on.status).toBe(403);
  const body = await on.json() as { type: string; detail: string };
  expect(body.type).toEndWith('/feature_disabled');
  expect(body.detail).toContain('switched off on the platform');
  expect((await s.api('PATCH', '/v1/lip-sync', { enabled: false })).status).toBe(200);
  expect((await s.api('PATCH', '/v1/lip-sync', { enabled: 'yes' })).status).toBe(422);
  expect((await s.api('PATCH', '/v1/lip-sync', { enabled: true }, { key: viewer })).status).toBe(403);
  const m = await s.api('POST', '/v1/monitors', { name: 'lips', target_kind: 'tenant', checks: [{ type: 'lip_sync' }] });
  expect(m.status).toBe(422);
  expect((await s.api('GET', '/v1/monitors/checks')).status).toBe(200);
});

test('AES-128 by default: the next encode plays only as AES-128 HLS (hls.js in Chromium); the key goes through the token gate', async () => {
  const p = await s.api('PATCH', '/v1/packaging', { aes128_default: true, segment_s: null, dash: true });
  expect(p.status).toBe(200);
  expect(await p.json()).toMatchObject({ aes128_default: true, iframe_playlists: false, dash: true });
  const a = await encoded();
  const hls = String(a.playback.hls);
  expect(hls).toEndWith(`/v${/v(\d+)$/.exec(a.dir)![1]}/aes/master.m3u8`);
  // No clear way around it: no DASH manifest written or offered, no download offered, the clear files refused.
  expect(a.playback.dash).toBeUndefined();
  expect(a.playback.download).toBeUndefined();
  expect(existsSync(join(a.dir, 'manifest.mpd'))).toBe(false);
  const clear = hls.replace('/aes/master.m3u8', '/master.m3u8');
  for (const f of ['master.m3u8', 'media_0.m3u8', 'init_0.m4s', 'seg_0_00001.m4s', 'download.mp4']) {
    expect((await fetch(new URL(f, clear))).status).toBe(403);
  }
  expect((await fetch(clear.replace(/\/v\d+\/master\.m3u8$/, '/preview/master.m3u8'))).status).toBe(403);
  expect((await fetch(String(a.playback.poster))).status).toBe(200);
  const tree = await checkHlsTree(hls);
  expect(tree.durationS).toBeCloseTo(8, 0);
  const media = await (await fetch(new URL('media_0.m3u8', hls))).text();
  expect(media).toMatch(/#EXT-X-KEY:METHOD=AES-128,URI="key.bin",IV=0x[0-9a-f]{32}\n#EXT-X-MAP/);
  // The encrypted segment is not the clear file.
  const seg = new Uint8Array(await (await fetch(new URL('seg_0_00001.m4s', hls))).arrayBuffer());
  expect(Buffer.from(seg.subarray(0, 64)).equals(readFileSync(join(a.dir, 'seg_0_00001.m4s')).subarray(0, 64))).toBe(false);
  expect(await playedToEnd(hls)).toBe(true);
  // A policy requiring tokens (and encryption): the key needs the token like every other file; the token's address
  // is the same single AES-128 view.
  const pol = await (await s.api('POST', '/v1/playback/policies', { name: 'aes-locked', require_token: true, require_encryption: true })).json() as { id: string };
  expect((await s.api('POST', `/v1/playback/policies/${pol.id}/attach`, { target_kind: 'asset', target_id: a.id })).status).toBe(200);
  expect((await fetch(new URL('key.bin', hls))).status).toBe(403);
  const tok = await (await s.api('POST', '/v1/playback/tokens', { asset: a.id })).json() as { src: string };
  expect(tok.src).toMatch(/\/v\d+\/aes\/master\.m3u8$/);
  expect((await fetch(tok.src)).status).toBe(200);
  const key = await fetch(new URL('key.bin', tok.src));
  expect(key.status).toBe(200);
  expect((await key.arrayBuffer()).byteLength).toBe(16);
  expect(key.headers.get('cache-control')).toBe('private, no-store');
  expect((await s.api('POST', `/v1/playback/policies/${pol.id}/detach`, { target_kind: 'asset', target_id: a.id })).status).toBe(200);
  expect((await s.api('PATCH', '/v1/packaging', { aes128_default: false })).status).toBe(200);
}, 240_000);

/** Hand rules of an I-frame media playlist (RFC 8216 §4.3.3.6, §4.3.2.2, §4.3.3.1); the problems found. */
function iframeProblems(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines[0] !== '#EXTM3U') out.push('first line is not #EXTM3U');
  const version = Number(/^#EXT-X-VERSION:(\d+)$/m.exec(text)?.[1]);
  if (!(version >= 4)) out.push('EXT-X-I-FRAMES-ONLY needs EXT-X-VERSION 4 or higher');
  if (!lines.includes('#EXT-X-I-FRAMES-ONLY')) out.push('no #EXT-X-I-FRAMES-ONLY');
  if (!/^#EXT-X-MAP:URI="[^"]+"$/m.test(text)) out.push('no EXT-X-MAP (fMP4 needs the init section)');
  if (lines[lines.length - 1] !== '#EXT-X-ENDLIST') out.push('no #EXT-X-ENDLIST at the end');
  const target = Number(/^#EXT-X-TARGETDURATION:(\d+)$/m.exec(text)?.[1]);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('#EXTINF:')) continue;
    const d = Number(/^#EXTINF:([\d.]+),$/.exec(lines[i]!)?.[1]);
    if (!(d > 0) || Math.round(d) > target) out.push(`line ${i + 1}: EXTINF ${lines[i]} not within TARGETDURATION ${target}`);
    if (!/^#EXT-X-BYTERANGE:\d+@\d+$/.test(lines[i + 1] ?? '')) out.push(`line ${i + 2}: an I-frame needs EXT-X-BYTERANGE with an explicit offset`);
    if (!lines[i + 2] || lines[i + 2]!.startsWith('#')) out.push(`line ${i + 3}: no URI after the byte range`);
  }
  return out;
}

test('I-frame playlists: the master lists one per rendition; each byte range is a keyframe (ffprobe with the init segment); DASH and hls.js still play', async () => {
  expect((await s.api('PATCH', '/v1/packaging', { iframe_playlists: true, aes128_default: false, segment_s: null, dash: true })).status).toBe(200);
  const a = await encoded();
  const hls = String(a.playback.hls);
  const master = await (await fetch(hls)).text();
  const iframes = master.split('\n').filter((l) => l.startsWith('#EXT-X-I-FRAME-STREAM-INF:'));
  expect(iframes.length).toBe(a.renditions.length);
  const parsed = strictPlaylist(master, 'master') as unknown as { variants: { isIFrameOnly?: boolean; uri: string; resolution?: { width: number; height: number } }[] };
  expect(parsed.variants.filter((v) => v.isIFrameOnly).length).toBe(a.renditions.length);
  for (const [i, line] of iframes.entries()) {
    const r = a.renditions[i]!;
    expect(line).toMatch(new RegExp(`^#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\\d+,RESOLUTION=${r.width}x${r.height},CODECS="avc1\\.[0-9a-f]{6}",URI="iframe_${i}\\.m3u8"$`));
    const url = new URL(`iframe_${i}.m3u8`, hls);
    const text = await (await fetch(url)).text();
    expect(iframeProblems(text)).toEqual([]);
    strictPlaylist(text, `iframe_${i}.m3u8`);
    const init = new Uint8Array(await (await fetch(new URL(/#EXT-X-MAP:URI="([^"]+)"/.exec(text)![1]!, url))).arrayBuffer());
    const entries = [...text.matchAll(/#EXTINF:([\d.]+),\n#EXT-X-BYTERANGE:(\d+)@(\d+)\n(\S+)/g)].map((m) => ({ d: Number(m[1]), len: Number(m[2]), off: Number(m[3]), file: m[4]! }));
    // The fast ladder's keyframe every 2 s: every keyframe of the 8 s clip is listed (two inside each 4 s segment),
    // covering the whole duration.
    expect(entries.length).toBe(4);
    expect(entries[1]!.file).toBe(entries[0]!.file);
    expect(entries[1]!.off).toBeGreaterThan(entries[0]!.off);
    expect(entries.reduce((x, e) => x + e.d, 0)).toBeCloseTo(8, 1);
    let at = 0;
    for (const [k, e] of entries.entries()) {
      const res = await fetch(new URL(e.file, url), { headers: { range: `bytes=${e.off}-${e.off + e.len - 1}` } });
      expect(res.status).toBe(206);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(bytes.length).toBe(e.len);
      expect(Buffer.from(bytes.subarray(4, 8)).toString('latin1')).toBe('moof');
      const f = join(tmp, `iframe-${i}-${k}.mp4`);
      await Bun.write(f, Buffer.concat([init, bytes]));
      const p = Bun.spawn(['ffprobe', '-v', 'quiet', '-select_streams', 'v', '-show_entries', 'frame=key_frame,pict_type,best_effort_timestamp_time', '-of', 'json', f], { stdout: 'pipe' });
      const frames = (JSON.parse(await new Response(p.stdout).text()) as { frames: { key_frame: number; pict_type: string; best_effort_timestamp_time: string }[] }).frames;
      await p.exited;
      expect(frames.length).toBeGreaterThanOrEqual(1);
      expect(frames[0]).toMatchObject({ key_frame: 1, pict_type: 'I' });
      // The keyframe is the one at this entry's place on the timeline (the sum of the durations before it).
      expect(Math.abs(Number(frames[0]!.best_effort_timestamp_time) - at)).toBeLessThan(0.2);
      at += e.d;
    }
  }
  // The keyframe fragments change nothing for the players: DASH is written, hls.js plays the master to its end.
  expect(existsSync(join(a.dir, 'manifest.mpd'))).toBe(true);
  expect(await playedToEnd(hls)).toBe(true);
  expect((await s.api('PATCH', '/v1/packaging', { iframe_playlists: false })).status).toBe(200);
}, 240_000);
