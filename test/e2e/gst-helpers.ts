import { spawn, type ChildProcess } from 'node:child_process';
import { keepRunning } from './live-helpers';

/** True when GStreamer has every named element (gst-inspect-1.0 answers 0). */
export function gstHas(...elements: string[]): boolean {
  return elements.every((e) => Bun.spawnSync(['gst-inspect-1.0', '--exists', e]).exitCode === 0);
}

/** What one GStreamer playback run did: exit code, playing time to EOS (ms, from gst-launch) and its output tail. */
export interface GstPlay { code: number | null; playMs: number | null; eos: boolean; out: string }

/**
 * Plays `uri` with `playbin` or `playbin3` into clock-synchronised fake sinks (real-time pace) until EOS, and reports
 * how long it played ("Execution ended after" of gst-launch-1.0, measured from PLAYING to EOS).
 */
export async function gstPlay(uri: string, element: 'playbin' | 'playbin3', timeoutMs: number): Promise<GstPlay> {
  const argv = ['gst-launch-1.0', '-e', element, `uri=${uri}`, 'video-sink=fakesink sync=true', 'audio-sink=fakesink sync=true'];
  const p = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, GST_DEBUG: '0' } });
  const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  const text = out + err;
  const m = /Execution ended after (\d+):(\d+):(\d+)\.(\d+)/.exec(text);
  const playMs = m ? (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000 + Math.round(Number(`0.${m[4]}`) * 1000) : null;
  return { code, playMs, eos: /Got EOS from element/.test(text), out: text.slice(-3000) };
}

const children = new Set<ChildProcess>();

/** A running GStreamer pipeline in its own process group (an encoder pushing live). */
export interface GstPipeline { proc: ChildProcess; exited: Promise<number | null>; output(): string; kill(): void }

/** Starts `gst-launch-1.0 <pipeline...>` (each element description one argv item run through gst's parser). */
export function gstLaunch(pipeline: string): GstPipeline {
  const proc = spawn('gst-launch-1.0', ['-q', ...pipeline.split(' ')], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(proc);
  let text = '';
  const keep = (d: Buffer) => { text = (text + d).slice(-4000); };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<number | null>((r) => proc.on('close', (c) => { children.delete(proc); r(c); }));
  return { proc, exited, output: () => text, kill: () => { try { process.kill(-proc.pid!, 'SIGKILL'); } catch { /* gone */ } } };
}

/** Keeps a GStreamer encoder pushing: restarts it when it exits (a caller dropped by a listener restart reconnects). */
export function gstPushForever(pipeline: string): { stop(): Promise<void>; current(): GstPipeline } {
  return keepRunning(() => gstLaunch(pipeline));
}

/** Kills every GStreamer pipeline still running (afterAll). */
export function killGst(): void {
  for (const c of children) try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ }
}

/** First video packet's decode and presentation time (s) of init + segment, read by ffprobe. */
export async function firstVideoTimes(init: Uint8Array, seg: Uint8Array, tmpFile: string): Promise<{ dts: number; pts: number } | null> {
  await Bun.write(tmpFile, Buffer.concat([init, seg]));
  const p = Bun.spawn(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=dts_time,pts_time', '-read_intervals', '%+#1', '-of', 'csv=p=0', tmpFile], { stdout: 'pipe', stderr: 'pipe' });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  const [pts, dts] = out.trim().split('\n')[0]?.split(',').map(Number) ?? [];
  return code === 0 && Number.isFinite(dts) && Number.isFinite(pts) ? { dts, pts } : null;
}

/** Presentation times (s) of the video buffers a live playback rendered within `ms` (playbin/playbin3, real-time sinks). */
export async function gstLivePts(uri: string, element: 'playbin' | 'playbin3', ms: number): Promise<number[]> {
  const argv = ['gst-launch-1.0', '-v', element, `uri=${uri}`, 'video-sink=fakesink sync=true silent=false', 'audio-sink=fakesink sync=true'];
  const p = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => p.kill('SIGKILL'), ms);
  const out = await new Response(p.stdout).text();
  clearTimeout(timer);
  await p.exited;
  const pts: number[] = [];
  for (const m of out.matchAll(/vbin\/GstFakeSink:[^:]+: last-message = chain .*?pts: (\d+):(\d+):(\d+\.\d+)/g)) pts.push(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
  return pts;
}
