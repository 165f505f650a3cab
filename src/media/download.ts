import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { downloadFromPipesArgs } from './args/images';
import { MediaError } from './errors';
import { readable } from './probe';
import { runTool } from './process';

/** The progressive download being written while the ladder encodes: `finish` once the encode is done, `stop` on failure. */
export interface LiveDownload {
  /** Feeds the segments still missing (the encode has exited: its playlists are final) and waits for the MP4. */
  finish(): Promise<void>;
  /** Kills the remux (encode failed or aborted); the partial file is left for the caller's cleanup. */
  stop(): Promise<void>;
}

/** Pure: the segment files a media playlist lists, in order (only `seg_<rep>_<n>.m4s` names: nothing else is read). */
export function listedSegments(playlist: string, rep: number): string[] {
  const re = new RegExp(`^seg_${rep}_\\d+\\.m4s$`);
  return playlist.split('\n').map((l) => l.trim()).filter((l) => re.test(l));
}

/** One representation fed into one pipe: its init segment, then every segment as its playlist lists it. */
function feeder(dir: string, rep: number, pipe: Writable) {
  let sent = 0, initSent = false, busy: Promise<void> | null = null, failed: unknown = null;
  const write = (buf: Uint8Array) => new Promise<void>((resolve, reject) => {
    if (pipe.destroyed || pipe.writableEnded) return reject(new Error('download remux input closed'));
    pipe.write(buf, (e) => (e ? reject(e) : resolve()));
  });
  const pump = async () => {
    let text: string;
    try { text = await readFile(join(dir, `media_${rep}.m3u8`), 'utf8'); } catch { return; }
    const segs = listedSegments(text, rep);
    if (!initSent) { await write(await readFile(join(dir, `init_${rep}.m4s`))); initSent = true; }
    // Sequential reads: one segment in memory at a time, and the pipe's backpressure paces the reads.
    while (sent < segs.length) { await write(await readFile(join(dir, segs[sent]))); sent++; }
  };
  /** One catch-up pass, unless one is under way or a write failed. */
  const poll = (): Promise<void> => {
    if (failed) return Promise.resolve();
    return (busy ??= pump().catch((e: unknown) => { failed = e; }).finally(() => { busy = null; }));
  };
  return {
    poll,
    /** The last pass once the playlist is final, then end of input; the first failure, if any. */
    async end(): Promise<unknown> {
      await busy;
      await poll();
      if (!pipe.destroyed) pipe.end();
      return failed;
    },
  };
}

/**
 * Starts the download remux (top video rendition, plus the audio when there is one, streams copied into one MP4 with
 * the index up front) beside the encode: ffmpeg reads both fMP4 representations from pipes, fed with each segment as
 * soon as the DASH muxer lists it in its HLS media playlist (a listed segment is complete). After the encode only
 * the last segments and the index move remain, instead of joining files and remuxing them from the start.
 */
export function startLiveDownload(o: { ffmpeg: string; dir: string; videoRep: number; audioRep: number | null; out: string; signal?: AbortSignal; everyMs?: number }): LiveDownload {
  const run = runTool(downloadFromPipesArgs(o.ffmpeg, o.audioRep !== null, o.out), { signal: o.signal, stallMs: 0, inputs: o.audioRep !== null ? 2 : 1, stderrLines: 20 });
  const feeds = [feeder(o.dir, o.videoRep, run.inputs[0]), ...(o.audioRep !== null ? [feeder(o.dir, o.audioRep, run.inputs[1])] : [])];
  const timer = setInterval(() => { for (const f of feeds) void f.poll(); }, o.everyMs ?? 500);
  return {
    async finish() {
      clearInterval(timer);
      const failed = (await Promise.all(feeds.map((f) => f.end()))).find((e) => e);
      // What is left after the encode (the last segments, the index move) takes a second or two; a remux that hangs
      // is stopped rather than holding the job.
      const deadline = setTimeout(() => void run.stop(0), 10 * 60_000);
      const r = failed ? await run.stop(0) : await run.done;
      clearTimeout(deadline);
      if (failed) throw new MediaError(`download remux input failed: ${String((failed as Error)?.message ?? failed)}`, true);
      if (r.code !== 0) throw new MediaError(r.aborted ? 'aborted' : `download remux failed: ${readable(r.stderrTail)}`, !r.aborted);
    },
    async stop() {
      clearInterval(timer);
      await run.stop(0);
    },
  };
}
