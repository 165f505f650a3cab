import { expect, test } from 'bun:test';
import { encodeArgs, ladderFilter } from '../../src/media/args/encode';
import { downloadArgs, posterArgs, spriteArgs } from '../../src/media/args/images';
import { sourceInput } from '../../src/media/args/input';
import { probeArgs } from '../../src/media/args/probe';
import { H264_ENCODERS } from '../../src/media/encoders';
import { planLadder, type Ladder } from '../../src/media/ladder';
import type { VideoInfo } from '../../src/media/probe-parse';

const ladder: Ladder = {
  segment_s: 4, keyframe_s: 2, max_fps: 30, x264_preset: 'veryfast', audio: { bitrate_k: 128, channels: 2, sample_rate: 48000 },
  renditions: [{ name: '720p', height: 720, video_k: 2800 }, { name: '360p', height: 360, video_k: 800 }],
};
const v1080: VideoInfo = { codec: 'h264', width: 1920, height: 1080, displayWidth: 1920, displayHeight: 1080, rotation: 0, fps: 50, pixFmt: 'yuv420p', bitDepth: 8, hdr: false, profile: 'High' };
const plan = planLadder(ladder, v1080);
if ('error' in plan) throw new Error(plan.error);

const WL = '-protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,mpegts,avi,flv,mxf,wav,mp3,aac,ogg,asf,mpeg,mpegvideo,m4v,h264,hevc,flac,dv,gif -probesize 50000000 -analyzeduration 20000000 -i /d/src.mp4';
const TAIL = '-map_metadata -1 -dn -sn -progress pipe:1 -stats_period 0.5 -nostats -f dash -seg_duration 4 -use_template 1 -use_timeline 1 -hls_playlist 1 -hls_master_name master.m3u8 -adaptation_sets id=0,streams=v id=1,streams=a -init_seg_name init_$RepresentationID$.m4s -media_seg_name seg_$RepresentationID$_$Number%05d$.m4s /d/out/manifest.mpd';
const RATES = '-b:v:0 2800k -maxrate:v:0 4200k -bufsize:v:0 5600k -b:v:1 800k -maxrate:v:1 1200k -bufsize:v:1 1600k';
const AUDIO = '-map 0:a:0 -c:a aac -b:a 128k -ac 2 -ar 48000';
const KF = '-g 50 -force_key_frames:v expr:gte(t,n_forced*2)';

const golden: Record<string, string> = {
  libx264: `ffmpeg -nostdin -hide_banner -loglevel error -y ${WL} -filter_complex [0:v]fps=25,format=yuv420p,split=2[s0][s1];[s0]scale=1280:720:flags=bicubic,setsar=1[v0];[s1]scale=640:360:flags=bicubic,setsar=1[v1] -map [v0] -map [v1] -c:v libx264 ${KF} -preset veryfast -profile:v high -keyint_min 50 -sc_threshold 0 -flags:v +cgop ${RATES} ${AUDIO} ${TAIL}`,
  h264_nvenc: `ffmpeg -nostdin -hide_banner -loglevel error -y ${WL} -filter_complex [0:v]fps=25,format=yuv420p,split=2[s0][s1];[s0]scale=1280:720:flags=bicubic,setsar=1[v0];[s1]scale=640:360:flags=bicubic,setsar=1[v1] -map [v0] -map [v1] -c:v h264_nvenc ${KF} -preset p4 -rc vbr -profile:v high -forced-idr 1 -no-scenecut 1 ${RATES} ${AUDIO} ${TAIL}`,
  h264_vaapi: `ffmpeg -nostdin -hide_banner -loglevel error -y -vaapi_device /dev/dri/renderD128 ${WL} -filter_complex [0:v]fps=25,format=yuv420p,split=2[s0][s1];[s0]scale=1280:720:flags=bicubic,setsar=1,format=nv12,hwupload[v0];[s1]scale=640:360:flags=bicubic,setsar=1,format=nv12,hwupload[v1] -map [v0] -map [v1] -c:v h264_vaapi ${KF} -rc_mode VBR -profile:v high ${RATES} ${AUDIO} ${TAIL}`,
  h264_qsv: `ffmpeg -nostdin -hide_banner -loglevel error -y -init_hw_device qsv=hw -filter_hw_device hw ${WL} -filter_complex [0:v]fps=25,format=yuv420p,split=2[s0][s1];[s0]scale=1280:720:flags=bicubic,setsar=1,hwupload=extra_hw_frames=16,format=qsv[v0];[s1]scale=640:360:flags=bicubic,setsar=1,hwupload=extra_hw_frames=16,format=qsv[v1] -map [v0] -map [v1] -c:v h264_qsv ${KF} -preset medium -profile:v high -forced_idr 1 ${RATES} ${AUDIO} ${TAIL}`,
};

for (const enc of H264_ENCODERS) {
  test(`encode argv golden: ${enc}`, () => {
    expect(encodeArgs('ffmpeg', { source: '/d/src.mp4', outDir: '/d/out', plan, encoder: enc, audio: true }).join(' ')).toBe(golden[enc]);
  });
}

test('no audio stream: no audio map, video-only adaptation set; one rendition: no split', () => {
  const small = planLadder(ladder, { ...v1080, width: 640, height: 360, displayWidth: 640, displayHeight: 360, fps: 25 });
  if ('error' in small) throw new Error();
  const a = encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan: small, encoder: 'libx264', audio: false });
  expect(a).not.toContain('-c:a');
  expect(a[a.indexOf('-adaptation_sets') + 1]).toBe('id=0,streams=v');
  expect(ladderFilter({ plan: small, encoder: 'libx264' })).toBe('[0:v]format=yuv420p[s0];[s0]scale=640:360:flags=bicubic,setsar=1[v0]');
});

test('every argv starts with -nostdin and reads customer files only through the whitelists', () => {
  const all = [
    ...H264_ENCODERS.map((e) => encodeArgs('ffmpeg', { source: '/s', outDir: '/o', plan, encoder: e, audio: true })),
    posterArgs('ffmpeg', '/o/a.mp4', 1, '/o', 640), spriteArgs('ffmpeg', '/o/a.mp4', '/o/s.jpg', { intervalS: 2, w: 160, h: 90, cols: 10, rows: 1 }),
    downloadArgs('ffmpeg', '/o/v.mp4', '/o/a.mp4', '/o/d.mp4'),
  ];
  for (const a of all) {
    expect(a[1]).toBe('-nostdin');
    const inputs = a.flatMap((x, i) => (x === '-i' ? [i] : []));
    for (const i of inputs) expect(a.slice(0, i)).toContain('-protocol_whitelist');
    expect(a.filter((x) => x === '-protocol_whitelist').length).toBe(inputs.length);
    expect(a[a.indexOf('-protocol_whitelist') + 1]).toBe('file');
    expect(a.join(' ')).not.toContain('hls,');
  }
});

test('poster, sprite, download and probe argv golden', () => {
  expect(posterArgs('ff', '/o/v.mp4', 1.5, '/o', 1280).join(' ')).toBe('ff -nostdin -hide_banner -loglevel error -y -ss 1.500 -protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2 -i /o/v.mp4 -filter_complex [0:v]scale=1280:-2,split=2[j][w] -map [j] -frames:v 1 -q:v 3 -update 1 /o/poster.jpg -map [w] -frames:v 1 -c:v libwebp -quality 80 -update 1 /o/poster.webp');
  expect(spriteArgs('ff', '/o/l.mp4', '/o/sprite.jpg', { intervalS: 4, w: 160, h: 90, cols: 10, rows: 3 }).join(' ')).toBe('ff -nostdin -hide_banner -loglevel error -y -protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2 -i /o/l.mp4 -vf fps=1/4,scale=160:90,tile=10x3 -frames:v 1 -q:v 5 -update 1 /o/sprite.jpg');
  expect(downloadArgs('ff', '/v', null, '/d').join(' ')).toBe('ff -nostdin -hide_banner -loglevel error -y -protocol_whitelist file -format_whitelist mov,mp4,m4a,3gp,3g2,mj2 -i /v -map 0:v:0 -c copy -movflags +faststart -f mp4 /d');
  expect(probeArgs('ffprobe', '/x').slice(0, 8)).toEqual(['ffprobe', '-v', 'error', '-hide_banner', '-print_format', 'json', '-show_format', '-show_streams']);
  expect(sourceInput('/x', { probesize: 1, analyzeS: 2 }).slice(-6)).toEqual(['-probesize', '1', '-analyzeduration', '2000000', '-i', '/x']);
});

test('quick-play preview remux: stream copy into CMAF HLS (golden)', async () => {
  const { previewRemuxArgs } = await import('../../src/media/args/preview');
  expect(previewRemuxArgs('ffmpeg', { source: '/d/src.mp4', outDir: '/d/preview', segmentS: 4 }).join(' ')).toBe(
    `ffmpeg -nostdin -hide_banner -loglevel error -y ${WL} -map 0:v:0 -map 0:a:0? -c copy -map_metadata -1 -dn -sn -f hls -hls_segment_type fmp4 -hls_time 4 -hls_playlist_type vod -hls_flags independent_segments -hls_fmp4_init_filename preview_init.mp4 -hls_segment_filename /d/preview/preview_%05d.m4s -master_pl_name master.m3u8 /d/preview/preview.m3u8`,
  );
});

test('quick-play preview: only browser-ready H.264/AAC sources are remuxed', async () => {
  const { remuxBlocker } = await import('../../src/media/args/preview');
  const info = { format: 'mov', durationS: 60, sizeBytes: 1, bitRate: 1, streams: 2, video: v1080, audio: { codec: 'aac', channels: 2, layout: 'stereo', sampleRate: 48000 } };
  expect(remuxBlocker(info)).toBeNull();
  expect(remuxBlocker({ ...info, audio: null })).toBeNull();
  expect(remuxBlocker({ ...info, video: { ...v1080, codec: 'hevc' } })).toContain('hevc');
  expect(remuxBlocker({ ...info, video: { ...v1080, profile: 'High 10', pixFmt: 'yuv420p10le', bitDepth: 10 } })).toContain('profile');
  expect(remuxBlocker({ ...info, video: { ...v1080, pixFmt: 'yuv422p' } })).toContain('pixel');
  expect(remuxBlocker({ ...info, video: { ...v1080, rotation: 90 } })).toContain('rotated');
  expect(remuxBlocker({ ...info, audio: { ...info.audio, codec: 'ac3' } })).toContain('ac3');
});

test('poster from the encode: a branch of the same decode, written after the ladder output (golden)', () => {
  const a = encodeArgs('ffmpeg', { source: '/d/src.mp4', outDir: '/d/out', plan, encoder: 'libx264', audio: true, stills: { posterAtS: 1.5, posterWidth: 1280 } });
  const fc = a[a.indexOf('-filter_complex') + 1];
  expect(fc).toBe('[0:v]fps=25,format=yuv420p,split=3[s0][s1][ps];[s0]scale=1280:720:flags=bicubic,setsar=1[v0];[s1]scale=640:360:flags=bicubic,setsar=1[v1];'
    + '[ps]select=gte(t\\,1.500)*isnan(prev_selected_t),scale=1280:-2,split=2[pj][pw]');
  expect(a.slice(a.indexOf('/d/out/manifest.mpd')).join(' ')).toBe('/d/out/manifest.mpd -map [pj] -frames:v 1 -q:v 3 -update 1 /d/out/poster.jpg -map [pw] -frames:v 1 -c:v libwebp -quality 80 -update 1 /d/out/poster.webp');
  // Without stills the ladder command is unchanged (the benchmark's hand-written baseline).
  expect(encodeArgs('ffmpeg', { source: '/d/src.mp4', outDir: '/d/out', plan, encoder: 'libx264', audio: true }).join(' ')).toBe(golden.libx264);
});

test('quick first rendition of a source that must be transcoded (golden)', async () => {
  const { previewEncodeArgs } = await import('../../src/media/args/preview');
  expect(previewEncodeArgs('ffmpeg', { source: '/d/src.mkv', outDir: '/d/preview', width: 640, height: 360, fps: 25, segmentS: 1 }).join(' ')).toBe(
    `ffmpeg -nostdin -hide_banner -loglevel error -y ${WL.replace('/d/src.mp4', '/d/src.mkv')} -map 0:v:0 -map 0:a:0? -vf fps=25,scale=640:360:flags=fast_bilinear,setsar=1,format=yuv420p -c:v libx264 -preset ultrafast -profile:v baseline -g 25 -keyint_min 25 -sc_threshold 0 -b:v 900k -maxrate 1200k -bufsize 1800k -c:a aac -b:a 96k -ac 2 -ar 48000 -map_metadata -1 -dn -sn -progress pipe:1 -nostats -f hls -hls_segment_type fmp4 -hls_time 1 -hls_playlist_type event -hls_flags independent_segments -hls_fmp4_init_filename preview_init.mp4 -hls_segment_filename /d/preview/preview_%05d.m4s -master_pl_name master.m3u8 /d/preview/preview.m3u8`,
  );
});
