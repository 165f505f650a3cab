import { expect, test } from 'bun:test';
import { encodeArgs, ladderFilter, TILES_FILE } from '../../src/media/args/encode';
import { downloadFromPipesArgs, spriteFromTilesArgs } from '../../src/media/args/images';
import { listedSegments } from '../../src/media/download';
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

test('sprite from tiles and download from pipes argv golden; inputs whitelisted', () => {
  expect(spriteFromTilesArgs('ff', '/o/.tiles.nut', '/o/sprite.jpg', { cols: 10, rows: 3 }).join(' ')).toBe(
    'ff -nostdin -hide_banner -loglevel error -y -protocol_whitelist file -format_whitelist nut -f nut -i /o/.tiles.nut -vf tile=10x3 -frames:v 1 -q:v 5 -update 1 /o/sprite.jpg',
  );
  const pipeIn = (fd: number) => `-protocol_whitelist pipe -format_whitelist mov,mp4,m4a,3gp,3g2,mj2 -thread_queue_size 1024 -f mp4 -i pipe:${fd}`;
  expect(downloadFromPipesArgs('ff', true, '/o/d.mp4').join(' ')).toBe(
    `ff -nostdin -hide_banner -loglevel error -y ${pipeIn(0)} ${pipeIn(3)} -map 0:v:0 -map 1:a:0 -c copy -movflags +faststart -f mp4 /o/d.mp4`,
  );
  expect(downloadFromPipesArgs('ff', false, '/d').join(' ')).toBe(`ff -nostdin -hide_banner -loglevel error -y ${pipeIn(0)} -map 0:v:0 -c copy -movflags +faststart -f mp4 /d`);
});

test('listed segments: only this representation\'s segment names, in playlist order', () => {
  const pl = '#EXTM3U\n#EXT-X-MAP:URI="init_0.m4s"\n#EXTINF:4.0,\nseg_0_00001.m4s\n#EXTINF:4.0,\nseg_0_00002.m4s\r\n../../etc/passwd\nseg_1_00001.m4s\nseg_0_x.m4s\n';
  expect(listedSegments(pl, 0)).toEqual(['seg_0_00001.m4s', 'seg_0_00002.m4s']);
  expect(listedSegments('', 0)).toEqual([]);
});
