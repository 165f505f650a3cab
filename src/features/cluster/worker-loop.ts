import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, type Consumer, type JsMsg } from '@nats-io/jetstream';
import { LocalMediaStore, openMediaStore, type MediaStore } from '../../kernel/media-store';
import type { Logger } from '../../kernel/log';
import { isPermanent } from '../../jobs/errors';
import type { FfmpegTools } from '../../media/locate';
import type { AsrEngine } from '../../engines/asr/types';
import type { EncoderChoice } from '../transcode/encoder';
import { consumerOf, encode, ensureJobConsumer, ensureStreams, JOB_STREAM, SUBJECTS, type Capability, type CancelMsg, type JobMsg, type JoinAnswer, type ResultMsg } from './protocol';
import { runArticle, runClip, runImage, runSubtitle, runTranscode, type TaskEnv } from './worker-tasks';
import { runExport, WorkerSinks } from './worker-export';
import type { Config } from '../../kernel/config/schema';

/** What a worker machine runs with: its join answer, token, tools, encoder and a scratch directory of its own. */
export interface WorkerOptions {
  join: JoinAnswer; token: string; tools: FfmpegTools; choice: EncoderChoice; scratch: string; log: Logger;
  /** This machine's capabilities (`gpu`, `lang:en`, ...): which job subjects it takes besides the `any` ones. */
  capabilities: Capability[];
  /** This machine's speech engines (subtitle jobs). */
  asr: AsrEngine[];
  /** This machine's article settings (article jobs; its own chat endpoint with capability `llm`). */
  articles?: Config['articles'];
  /** Called to re-check the token now and then; false (revoked) stops the worker. */
  stillJoined(): Promise<boolean>;
}

/** A running worker: `stop()` finishes nothing new, hands the job in hand back (nak) and disconnects. */
export interface RunningWorker { stop(): Promise<void>; done: Promise<void> }

/** The store a worker reads and writes: the control node's bucket, or its data directory (a shared disk). */
export function workerStore(j: JoinAnswer): MediaStore {
  return j.media_store.kind === 'local' && 'dir' in j.media_store ? new LocalMediaStore(j.media_store.dir) : openMediaStore(j.media_store, '/nonexistent');
}

/** The job subjects a worker with these capabilities takes, in the order it asks for them (GPU work first). */
export function workerSubjects(caps: Capability[]): string[] {
  const out: string[] = [];
  if (caps.includes('gpu')) out.push(SUBJECTS.transcode('gpu'));
  out.push(SUBJECTS.transcode('any'), SUBJECTS.job('clip', 'any'), SUBJECTS.job('image', 'any'));
  for (const c of caps) if (c.startsWith('lang:')) out.push(SUBJECTS.job('subtitle', c));
  out.push(SUBJECTS.job('article', 'any'));
  if (caps.includes('llm')) out.push(SUBJECTS.job('article', 'llm'));
  return [...new Set(out)];
}

/** Light job subjects, taken in a lane of their own beside the job in hand: an export batch (a quick network send) does not wait behind an encode. */
export const LIGHT_SUBJECTS = [SUBJECTS.job('export', 'any')];

/**
 * Takes jobs from the work queue one at a time, from one durable consumer per subject this machine's capabilities
 * allow (GPU transcodes first). A publish on a subject (seen as a plain NATS message) wakes the worker to ask that
 * consumer first; otherwise it asks each in turn. While a job runs the message's ack deadline is extended
 * (`working()`) and progress is published; outputs go to the media store (the job's output prefix is cleared first:
 * a dead worker's partial upload does not survive), the result is published durably, and only then is the job
 * acknowledged. A cancel (`vs.cancel.<job>`) kills the job's tools, clears its scratch and output and acknowledges.
 * Light jobs (LIGHT_SUBJECTS: export batches) run the same way in a second lane, one at a time, beside the first.
 */
export async function runWorker(o: WorkerOptions): Promise<RunningWorker> {
  const nc: NatsConnection = await connect({ servers: o.join.nats_url, name: `viewstream-worker-${o.join.name}-${process.pid}`, maxReconnectAttempts: -1 });
  await ensureStreams(nc, o.join.ack_wait_ms);
  const js = jetstream(nc);
  const store = workerStore(o.join);
  const subjects = workerSubjects(o.capabilities);
  for (const s of [...subjects, ...LIGHT_SUBJECTS]) await ensureJobConsumer(nc, s, o.join.ack_wait_ms);
  const consumers = new Map<string, Consumer>();
  for (const s of [...subjects, ...LIGHT_SUBJECTS]) consumers.set(s, await js.consumers.get(JOB_STREAM, consumerOf(s)));
  rmSync(o.scratch, { recursive: true, force: true }); // what a killed run of this worker left behind
  mkdirSync(o.scratch, { recursive: true });
  let stopping = false;
  /** The jobs in hand (one per lane). */
  const held = new Set<{ msg: JsMsg; ac: AbortController; jobId: string | null }>();
  const sinks = new WorkerSinks();
  let lastCheck = Date.now();
  const woken: string[] = [];
  const wake = nc.subscribe(SUBJECTS.jobsAll, { callback: (err, m) => { if (!err && consumers.has(m.subject) && !woken.includes(m.subject)) woken.push(m.subject); } });
  const dec = new TextDecoder();
  const cancels = nc.subscribe(SUBJECTS.cancelAll, {
    callback: (err, m) => {
      if (err) return;
      try {
        const c = JSON.parse(dec.decode(m.data)) as CancelMsg;
        for (const h of held) if (h.jobId === c.jobId) { o.log.info('job cancel received', { job: c.jobId }); h.ac.abort(new Error('cancelled')); }
      } catch { /* not ours */ }
    },
  });
  /** One lane: takes jobs from its subjects one at a time (the first lane also re-checks the token now and then). */
  const lane = async (mine: string[], checks: boolean) => {
    while (!stopping) {
      if (checks && Date.now() - lastCheck > 30_000) {
        lastCheck = Date.now();
        if (!(await o.stillJoined().catch(() => true))) { o.log.error('worker token revoked: leaving the cluster'); stopping = true; break; }
      }
      let msg: JsMsg | null = null;
      const first = mine.filter((s) => woken.includes(s));
      for (const s of first) woken.splice(woken.indexOf(s), 1);
      const order = [...new Set([...first, ...mine])];
      for (const s of order) {
        try { msg = await consumers.get(s)!.next({ expires: 1000 }); } catch (e) { if (!stopping) o.log.warn('job fetch failed', { error: String(e) }); await Bun.sleep(500); }
        if (msg || stopping || woken.some((w) => mine.includes(w))) break;
      }
      if (!msg) continue;
      if (stopping) { msg.nak(); break; }
      const ac = new AbortController();
      let jobId: string | null = null;
      try { jobId = msg.json<JobMsg>().jobId; } catch { /* unreadable: runOne drops it */ }
      const h = { msg, ac, jobId };
      held.add(h);
      try { await runOne(o, nc, js, store, msg, ac.signal, sinks); } finally { held.delete(h); }
    }
  };
  const done = Promise.all([lane(subjects, true), lane(LIGHT_SUBJECTS, false)]).then(() => undefined);
  return {
    done,
    async stop() {
      stopping = true;
      for (const h of held) { h.ac.abort(new Error('worker stopping')); h.msg.nak(); }
      await done.catch(() => undefined);
      wake.unsubscribe();
      cancels.unsubscribe();
      await sinks.close();
      await nc.drain().catch(() => undefined);
    },
  };
}

/** Runs one job message to its end (result published, message acknowledged or handed back). */
async function runOne(o: WorkerOptions, nc: NatsConnection, js: ReturnType<typeof jetstream>, store: MediaStore, msg: JsMsg, signal: AbortSignal, sinks: WorkerSinks): Promise<void> {
  let job: JobMsg;
  try { job = msg.json<JobMsg>(); } catch { o.log.error('unreadable job message; dropped'); msg.term(); return; }
  const kind = job.kind ?? 'transcode';
  const started = Date.now();
  const base = { jobId: job.jobId, gen: job.gen, token: o.token, worker: o.join.name };
  o.log.info('job taken', { job: job.jobId, gen: job.gen, kind, delivery: msg.info.deliveryCount });
  const beat = setInterval(() => msg.working(), Math.max(500, Math.floor(o.join.ack_wait_ms / 3)));
  let lastPct = -1, lastSent = 0;
  const dir = join(o.scratch, `${job.jobId}-${job.gen}`);
  // Where this job writes in the store: cleared before (a previous holder's partial upload) and after a failure.
  const outPrefix = 'outPrefix' in job ? job.outPrefix : null;
  const env: TaskEnv = {
    tools: o.tools, choice: o.choice, asr: o.asr, store, dir, signal, articles: o.articles,
    progress: (pct, eta) => {
      if (pct - lastPct < 0.5 && Date.now() - lastSent < 1000) return;
      lastPct = pct; lastSent = Date.now();
      nc.publish(SUBJECTS.progress(job.jobId), encode({ ...base, pct: Math.round(pct * 10) / 10, eta: eta === null ? null : Math.round(eta) }));
    },
  };
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    if (outPrefix) await store.deletePrefix(outPrefix);
    const output = job.kind === 'image' ? await runImage(env, job) : job.kind === 'subtitle' ? await runSubtitle(env, job)
      : job.kind === 'clip' ? await runClip(env, job) : job.kind === 'article' ? await runArticle(env, job) : job.kind === 'export' ? await runExport(env, sinks, job) : await runTranscode(env, job);
    if (signal.aborted) throw signal.reason;
    const result: ResultMsg = { ...base, ok: true, ms: Date.now() - started, output };
    await publishResult(js, result);
    msg.ack();
    o.log.info('job done', { job: job.jobId, kind, ms: result.ms });
  } catch (e) {
    const cancelled = signal.aborted && signal.reason instanceof Error && signal.reason.message === 'cancelled';
    if (signal.aborted && !cancelled) return; // stopping: the message was handed back
    const permanent = cancelled || isPermanent(e);
    if (cancelled) o.log.info('job cancelled', { job: job.jobId, kind });
    else o.log.warn('job failed', { job: job.jobId, kind, error: String(e), permanent });
    if (outPrefix) await store.deletePrefix(outPrefix).catch(() => undefined);
    if (job.kind === 'image') for (const ext of ['jpg', 'webp']) await store.delete(`${job.outKey}.${ext}`).catch(() => undefined);
    try {
      await publishResult(js, { ...base, ok: false, error: cancelled ? 'cancelled' : (e instanceof Error ? e.message : String(e)).slice(0, 2000), permanent, ...(cancelled ? { cancelled } : {}) });
      msg.ack();
    } catch { if (cancelled) msg.term(); else msg.nak(5000); }
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
