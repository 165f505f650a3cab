import { expect, test } from 'bun:test';
import { inputCheckArgs, inputMonitorArgs, INPUT_CHECK_DEFAULTS } from '../../src/media/args/input-checks';
import { emptyInputState, feedInputLine } from '../../src/live/input-checks-parse';

// Input monitoring building blocks (issue 48): the filters run by real ffmpeg on generated black+silent, frozen and
// normal (moving picture, tone) media; the parser turns their reports into the checks' states.
async function run(lavfiVideo: string, lavfiAudio: string) {
  const argv = inputCheckArgs('ffmpeg', 'INPUT', INPUT_CHECK_DEFAULTS, { audio: true, live: false, whitelist: 'file' });
  // The generated sources replace the input (lavfi needs its own demuxer): same filters, same log lines.
  const i = argv.indexOf('-protocol_whitelist');
  const args = [...argv.slice(0, i), '-f', 'lavfi', '-i', `${lavfiVideo}`, '-f', 'lavfi', '-i', lavfiAudio, '-t', '4',
    ...argv.slice(i + 4).map((x) => x.replace('[0:a]', '[1:a]'))];
  const p = Bun.spawn(args, { stdout: 'ignore', stderr: 'pipe' });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  expect(code).toBe(0);
  const s = emptyInputState();
  const r = { start: null as number | null, last: null as number | null };
  // What fired while the media played (at the end of the input the filters close their open periods).
  const fired = { black: false, freeze: false, silence: false };
  for (const line of err.split('\n')) {
    feedInputLine(s, line, 2, r);
    for (const k of ['black', 'freeze', 'silence'] as const) if (s[k].active) fired[k] = true;
  }
  return { ...s, fired };
}

test('black and silent media: black, freeze and silence fire; loudness reads as silence', async () => {
  const s = await run('color=black:size=160x90:rate=25', 'anullsrc=r=48000:cl=stereo');
  expect(s.fired).toEqual({ black: true, freeze: true, silence: true });
  expect(s.black).toEqual({ active: true, since_s: 0 });
  expect(s.loudness!.short_term).toBeLessThan(-60);
});

test('frozen picture (a still test card) with a tone: freeze fires, black and silence do not; tone loudness measured', async () => {
  const s = await run('testsrc2=size=160x90:rate=25,trim=end_frame=1,loop=loop=-1:size=1', 'sine=frequency=1000:sample_rate=48000');
  expect(s.fired).toEqual({ black: false, freeze: true, silence: false });
  expect(s.loudness!.short_term).toBeGreaterThan(-30);
});

test('moving picture with a tone: no check fires', async () => {
  const s = await run('testsrc2=size=160x90:rate=25', 'sine=frequency=1000:sample_rate=48000');
  expect(s.fired).toEqual({ black: false, freeze: false, silence: false });
});

test('live monitor argv: the pipe input, only the enabled checks\' filters, null when none applies', () => {
  const on = { black: true, freeze: false, silence: true, loudness: true };
  const argv = inputMonitorArgs({ ffmpeg: 'ffmpeg', th: INPUT_CHECK_DEFAULTS, video: true, audio: true, on })!;
  expect(argv.slice(argv.indexOf('-protocol_whitelist'), argv.indexOf('-filter_complex'))).toEqual(['-protocol_whitelist', 'pipe', '-f', 'mp4', '-i', 'pipe:0']);
  expect(argv[argv.indexOf('-filter_complex') + 1]).toBe('[0:v:0]fps=10,blackframe=amount=98:threshold=32[v];[0:a:0]silencedetect=n=-50dB:d=2,ebur128[a]');
  expect(argv.slice(-7)).toEqual(['-map', '[v]', '-map', '[a]', '-f', 'null', '-']);
  // An audio-only feed with only picture checks on: nothing to run.
  expect(inputMonitorArgs({ ffmpeg: 'ffmpeg', th: INPUT_CHECK_DEFAULTS, video: false, audio: true, on: { black: true, freeze: true, silence: false, loudness: false } })).toBeNull();
});
