import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JsMsg } from '@nats-io/jetstream';
import { LocalMediaStore, openMediaStore, type MediaStore } from '../../kernel/media-store';
import type { Logger } from '../../kernel/log';
import { isPermanent } from '../../jobs/errors';
import type { FfmpegTools } from '../../media/locate';
import { transcode } from '../../media/transcode';
import type { EncoderChoice } from '../transcode/encoder';
import { consumerOf, encode, ensureStreams, JOB_STREAM, SUBJECTS, type EncoderClass, type JoinAnswer, type ResultMsg, type TranscodeJobMsg } from './protocol';

/** What a worker machine runs with: its join answer, token, tools, encoder and a scratch directory of its own. */
export interface WorkerOptions {
  join: JoinAnswer; token: string; tools: FfmpegTools; choice: EncoderChoice; scratch: string; log: Logger;
  /** Called to re-check the token now and then; false (revoked) stops the worker. */
  stillJoined(): Promise<boolean>;
}

/** A running worker: `stop()` finishes nothing new, hands the job in hand back (nak) and disconnects. */
export interface RunningWorker { stop(): Promise<void>; done: Promise<void> }

/** The store a worker reads and writes: the control node's bucket, or its data directory (a shared disk). */
export function workerStore(j: JoinAnswer): MediaStore {
  return j.media_store.kind === 'local' && 'dir' in j.media_store ? new LocalMediaStore(j.media_store.dir) : openMediaStore(j.media_store, '/nonexistent');
}

/**
 * Takes transcodes from the work queue one at a time: the GPU subject first when this machine has a GPU encoder,
 * then the `any` subject. While a job runs the message's ack deadline is extended (`working()`) and progress is
 * published; the output goes to the media store under the job's prefix (cleared first: a dead worker's partial
 * upload does not survive), the result is published durably, and only then is the job acknowledged.
 */
export async function runWorker(o: WorkerOptions): Promise<RunningWorker> {
  const nc: NatsConnection = await connect({ servers: o.join.nats_url, name: `viewstream-worker-${o.join.name}-${process.pid}`, maxReconnectAttempts: -1 });
  await ensureStreams(nc, o.join.ack_wait_ms);
  const js = jetstream(nc);
  const store = workerStore(o.join);
  const classes: EncoderClass[] = o.choice.encoder === 'libx264' ? ['any'] : ['gpu', 'any'];
  const consumers = await Promise.all(classes.map((c) => js.consumers.get(JOB_STREAM, consumerOf(c))));
  rmSync(o.scratch, { recursive: true, force: true }); // what a killed run of this worker left behind
  mkdirSync(o.scratch, { recursive: true });
  let stopping = false;
  let current: { msg: JsMsg; ac: AbortController } | null = null;
  let lastCheck = Date.now();
  const done = (async () => {
    while (!stopping) {
      if (Date.now() - lastCheck > 30_000) {
        lastCheck = Date.now();
        if (!(await o.stillJoined().catch(() => true))) { o.log.error('worker token revoked: leaving the cluster'); stopping = true; break; }
      }
      let msg: JsMsg | null = null;
      for (const c of consumers) {
        try { msg = await c.next({ expires: consumers.length > 1 ? 1000 : 2000 }); } catch (e) { if (!stopping) o.log.warn('job fetch failed', { error: String(e) }); await Bun.sleep(500); }
        if (msg || stopping) break;
      }
      if (!msg) continue;
      if (stopping) { msg.nak(); break; }
      const ac = new AbortController();
      current = { msg, ac };
      try { await runOne(o, nc, js, store, msg, ac.signal); } finally { current = null; }
    }
  })();
  return {
    done,
    async stop() {
      stopping = true;
      if (current) { current.ac.abort(new Error('worker stopping')); current.msg.nak(); }
      await done.catch(() => undefined);
      await nc.drain().catch(() => undefined);
    },
  };
}

/** Runs one transcode message to its end (result published, message acknowledged or handed back). */
async function runOne(o: WorkerOptions, nc: NatsConnection, js: ReturnType<typeof jetstream>, store: MediaStore, msg: JsMsg, signal: AbortSignal): Promise<void> {
  let job: TranscodeJobMsg;
  try { job = msg.json<TranscodeJobMsg>(); } catch { o.log.error('unreadable job message; dropped'); msg.term(); return; }
  const started = Date.now();
  const base = { jobId: job.jobId, gen: job.gen, token: o.token, worker: o.join.name };
  o.log.info('job taken', { job: job.jobId, gen: job.gen, asset: job.assetId, delivery: msg.info.deliveryCount });
  const beat = setInterval(() => msg.working(), Math.max(500, Math.floor(o.join.ack_wait_ms / 3)));
  let lastPct = -1, lastSent = 0;
  const dir = join(o.scratch, `${job.jobId}-${job.gen}`);
  try {
    rmSync(dir, { recursive: true, force: true });
    const work = join(dir, 'out');
    mkdirSync(work, { recursive: true });
    await store.deletePrefix(job.outPrefix); // a previous holder's partial upload
    const src = join(dir, 'source');
    if (!(await store.getFile(job.sourceKey, src))) throw Object.assign(new Error(`source ${job.sourceKey} missing from the media store`), { permanent: true });
    const res = await transcode({
      tools: o.tools, source: src, workDir: work, info: job.info, plan: job.plan, encoder: o.choice.encoder, signal, nice: o.choice.nice,
      onProgress: (pct, eta) => {
        const overall = 2 + pct * 0.9;
        if (overall - lastPct < 0.5 && Date.now() - lastSent < 1000) return;
        lastPct = overall; lastSent = Date.now();
        nc.publish(SUBJECTS.progress(job.jobId), encode({ ...base, pct: Math.round(overall * 10) / 10, eta: eta === null ? null : Math.round(eta) }));
      },
    });
    for (const f of filesUnder(work)) await store.putFile(`${job.outPrefix}${relative(work, f).split('\\').join('/')}`, f);
    const result: ResultMsg = {
      ...base, ok: true, ms: Date.now() - started,
      output: {
        encoder: res.encoder, fallbackFrom: res.fallbackFrom, audio: res.audio, files: res.files, thumb: res.thumb,
        renditions: res.renditions.map((r) => ({ name: r.name, width: r.width, height: r.height, video_k: r.video_k })),
      },
    };
    await publishResult(js, result);
    msg.ack();
    o.log.info('job done', { job: job.jobId, ms: result.ms });
  } catch (e) {
    if (signal.aborted) return; // stopping: the message was handed back
    const permanent = isPermanent(e);
    o.log.warn('job failed', { job: job.jobId, error: String(e), permanent });
    await store.deletePrefix(job.outPrefix).catch(() => undefined);
    try {
      await publishResult(js, { ...base, ok: false, error: (e instanceof Error ? e.message : String(e)).slice(0, 2000), permanent });
      msg.ack();
    } catch { msg.nak(5000); }
  } finally {
    clearInterval(beat);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Publishes a result durably (retried until the stream takes it; de-duplicated by job and generation). */
async function publishResult(js: ReturnType<typeof jetstream>, r: ResultMsg): Promise<void> {
  for (let i = 0; ; i++) {
    try { await js.publish(SUBJECTS.result(r.jobId), encode(r), { msgID: `${r.jobId}:${r.gen}:${r.ok ? 'ok' : 'fail'}` }); return; } catch (e) {
      if (i >= 20) throw e;
      await Bun.sleep(Math.min(5000, 250 * 2 ** i));
    }
  }
}

/** Every file under a directory (recursively). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}
