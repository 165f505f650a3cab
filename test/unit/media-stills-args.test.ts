import { expect, test } from 'bun:test';
import { encodeArgs, ladderFilter, teeEscape, TILES_FILE } from '../../src/media/args/encode';
import { downloadArgs } from '../../src/media/args/images';
import { planLadder, type Ladder } from '../../src/media/ladder';

const ladder: Ladder = {
  segment_s: 4, keyframe_s: 2, max_fps: 30, x264_preset: 'veryfast', audio: { bitrate_k: 128, channels: 2, sample_rate: 48000 },
  renditions: [{ name: '720p', height: 720, video_k: 2800 }, { name: '360p', height: 360, video_k: 800 }],
};
const plan = planLadder(ladder, { codec: 'h264', width: 1920, height: 1080, displayWidth: 1920, displayHeight: 1080, rotation: 0, fps: 25, pixFmt: 'yuv420p', bitDepth: 8, hdr: false, profile: 'High' });
if ('error' in plan) throw new Error(plan.error);
const stills = { posterAtS: 6, posterWidth: 1280, tiles: { intervalS: 2, w: 160, h: 90 } };

test('ladder filter with stills: poster and sprite-tile branches off the same decode', () => {
  expect(ladderFilter({ plan, encoder: 'libx264', stills })).toBe(
    '[0:v]format=yuv420p,split=4[s0][s1][ps][sp];[s0]scale=1280:720:flags=bicubic,setsar=1[v0];[s1]scale=640:360:flags=bicubic,setsar=1[v1];'
    + '[ps]select=gte(t\\,6.000)*isnan(prev_selected_t),scale=1280:-2,split=2[pj][pw];[sp]fps=1/2,scale=160:90,format=bgr24[st]',
  );
  // Without tiles: the poster branch only (as before).
  expect(ladderFilter({ plan, encoder: 'libx264', stills: { posterAtS: 6, posterWidth: 1280 } })).not.toContain('[sp]');
});

test('encode argv with stills: tiles written as headerless raw frames after the posters', () => {
  const a = encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan, encoder: 'libx264', audio: true, stills });
  expect(a.slice(a.indexOf('/o/manifest.mpd') + 1).join(' ')).toBe(
    '-map [pj] -frames:v 1 -q:v 3 -update 1 /o/poster.jpg -map [pw] -frames:v 1 -c:v libwebp -quality 80 -update 1 /o/poster.webp '
    + `-map [st] -c:v rawvideo -f rawvideo /o/${TILES_FILE}`,
  );
});

test('download remux: argv golden, every input whitelisted', () => {
  const mov = '-protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2';
  expect(downloadArgs('ff', '/o/v.mp4', '/o/a.mp4', '/o/download.mp4').join(' ')).toBe(
    `ff -nostdin -hide_banner -loglevel error -y ${mov} -i /o/v.mp4 ${mov} -i /o/a.mp4 -map 0:v:0 -map 1:a:0 -c copy -movflags +faststart -f mp4 /o/download.mp4`,
  );
});

test('with download: one tee output feeds the DASH packager and the download MP4 (top rendition and audio), headers out of band', () => {
  const a = encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan, encoder: 'libx264', audio: true, stills, download: true });
  const i = a.indexOf('tee');
  expect(a.slice(i - 5, i)).toEqual(['-flags:v', '+global_header', '-flags:a', '+global_header', '-f']);
  expect(a[i + 1]).toBe(
    '[f=dash:seg_duration=4:use_template=1:use_timeline=1:hls_playlist=1:hls_master_name=master.m3u8'
    // Option values are escaped twice: '=' becomes '\=' and then '\\\='.
    + String.raw`:adaptation_sets=id\\\=0,streams\\\=v\\\ id\\\=1,streams\\\=a`
    + ':init_seg_name=init_$RepresentationID$.m4s:media_seg_name=seg_$RepresentationID$_$Number%05d$.m4s]/o/manifest.mpd'
    + String.raw`|[f=mp4:movflags=+faststart:select=v\\\:0,a]/o/download.mp4`,
  );
  expect(a).not.toContain('dash');
  // The posters and tiles still follow as outputs of their own.
  expect(a[i + 2]).toBe('-map');
  // Without audio the download selects the video only; without `download` the DASH muxer is the output, as before.
  const silent = encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan, encoder: 'libx264', audio: false, download: true });
  expect(silent.at(-1)).toContain(String.raw`select=v\\\:0]/o/download.mp4`);
  const plain = encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan, encoder: 'libx264', audio: true });
  expect(plain.slice(plain.indexOf('-f'), plain.indexOf('-f') + 3)).toEqual(['-f', 'dash', '-seg_duration']);
  expect(plain).not.toContain('+global_header');
});

test('teeEscape: every character av_get_token treats specially gets a backslash', () => {
  expect(teeEscape(String.raw`/d/a:b|c'd[e]f=g h\i`)).toBe(String.raw`/d/a\:b\|c\'d\[e\]f\=g\ h\\i`);
  expect(teeEscape('/plain/path-1_2.mpd')).toBe('/plain/path-1_2.mpd');
});
