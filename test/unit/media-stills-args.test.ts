import { expect, test } from 'bun:test';
import { encodeArgs, ladderFilter, TILES_FILE } from '../../src/media/args/encode';
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
    + '[ps]select=gte(t\\,6.000)*isnan(prev_selected_t),scale=1280:-2,split=2[pj][pw];[sp]fps=1/2,scale=160:90[st]',
  );
  // Without tiles: the poster branch only (as before).
  expect(ladderFilter({ plan, encoder: 'libx264', stills: { posterAtS: 6, posterWidth: 1280 } })).not.toContain('[sp]');
});

test('encode argv with stills: tiles written raw into the NUT work file after the posters', () => {
  const a = encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan, encoder: 'libx264', audio: true, stills });
  expect(a.slice(a.indexOf('/o/manifest.mpd') + 1).join(' ')).toBe(
    '-map [pj] -frames:v 1 -q:v 3 -update 1 /o/poster.jpg -map [pw] -frames:v 1 -c:v libwebp -quality 80 -update 1 /o/poster.webp '
    + `-map [st] -c:v rawvideo -f nut /o/${TILES_FILE}`,
  );
});

test('download remux and sprite sheet from tiles in one run: argv golden, every input whitelisted, tiles input index follows audio', () => {
  const sheet = { tiles: '/o/.tiles.nut', outFile: '/o/sprite.jpg', cols: 10, rows: 3 };
  const mov = '-protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2';
  expect(downloadArgs('ff', '/o/v.mp4', '/o/a.mp4', '/o/download.mp4', sheet).join(' ')).toBe(
    `ff -nostdin -hide_banner -loglevel error -y ${mov} -i /o/v.mp4 ${mov} -i /o/a.mp4 -protocol_whitelist file -format_whitelist nut -f nut -i /o/.tiles.nut `
    + '-map 0:v:0 -map 1:a:0 -c copy -movflags +faststart -f mp4 /o/download.mp4 -map 2:v:0 -vf tile=10x3 -frames:v 1 -q:v 5 -update 1 /o/sprite.jpg',
  );
  // No audio: the tiles are input 1.
  expect(downloadArgs('ff', '/o/v.mp4', null, '/o/download.mp4', sheet).join(' ')).toContain('-c copy -movflags +faststart -f mp4 /o/download.mp4 -map 1:v:0 -vf tile=10x3');
  // Without a sheet: the download alone, as before.
  expect(downloadArgs('ff', '/o/v.mp4', null, '/o/download.mp4').join(' ')).not.toContain('nut');
});
