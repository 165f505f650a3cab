import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { AppContext } from '../../kernel/context';
import { checkWorkerToken, touchWorkerToken } from './tokens';
import { recordEnd, recordProgress } from './store';
import { encode, ensureStreams, RESULT_CONSUMER, RESULT_STREAM, SUBJECTS, type EncoderClass, type ProgressMsg, type ResultMsg, type TranscodeJobMsg } from './protocol';

/** The control node's link to the job cluster: publishes jobs; results and progress are written as they arrive. */
export interface ClusterLink {
  /** Publishes a transcode durably (de-duplicated by job id and generation); resolves once the stream holds it. */
  publishTranscode(msg: TranscodeJobMsg, cls: EncoderClass): Promise<void>;
}

/**
 * Connects to NATS (`VS_NATS_URL`), creates the streams, and consumes results durably: each result is checked
 * (a current, unrevoked worker token) and written to `cluster_jobs` before it is acknowledged, so results reported
 * while this node was down are read when it is back. Progress arrives as plain NATS messages. Null without NATS.
 */
export async function startCluster(ctx: AppContext): Promise<ClusterLink | null> {
  const url = ctx.config.natsUrl;
  if (!url) return null;
  const nc: NatsConnection = await connect({ servers: url, name: `viewstream-control-${process.pid}`, maxReconnectAttempts: -1 });
  await ensureStreams(nc, ctx.config.clusterAckWaitMs);
  const js: JetStreamClient = jetstream(nc);
  let stopping = false;
  const dec = new TextDecoder();
  const worker = (token: string) => {
    const w = checkWorkerToken(ctx.db, token);
    if (w) touchWorkerToken(ctx.db, w.id);
    return w;
  };
  const progress = nc.subscribe(SUBJECTS.progressAll, {
    callback: (err, m) => {
      if (err) return;
      try {
        const p = JSON.parse(dec.decode(m.data)) as ProgressMsg;
        if (checkWorkerToken(ctx.db, p.token)) recordProgress(ctx.db, p.jobId, p.gen, p.worker, p.pct, p.eta);
      } catch (e) { ctx.log.warn('cluster progress unreadable', { error: String(e) }); }
    },
  });
  const consumer = await js.consumers.get(RESULT_STREAM, RESULT_CONSUMER);
  const loop = (async () => {
    while (!stopping) {
      let m;
      try { m = await consumer.next({ expires: 2000 }); } catch (e) { if (!stopping) { ctx.log.warn('cluster results read failed', { error: String(e) }); await Bun.sleep(500); } continue; }
      if (!m) continue;
      try {
        const r = JSON.parse(dec.decode(m.data)) as ResultMsg;
        const w = worker(r.token);
        // A revoked (or unknown) worker's result is not trusted: the job fails this generation and is handed out again.
        const end = !w ? { error: 'worker token revoked or unknown: result refused', permanent: false }
          : r.ok ? { result: { output: r.output, ms: r.ms } } : { error: r.error, permanent: r.permanent };
        const fresh = recordEnd(ctx.db, r.jobId, r.gen, w ? w.name : r.worker, end);
        ctx.log.info('cluster result', { job: r.jobId, gen: r.gen, ok: r.ok && !!w, worker: w?.name ?? null, stale: !fresh });
        m.ack();
      } catch (e) {
        ctx.log.error('cluster result unreadable; dropped', { error: String(e) });
        m.term();
      }
    }
  })();
  ctx.onStop(async () => {
    stopping = true;
    progress.unsubscribe();
    await loop;
    await nc.drain().catch(() => undefined);
  });
  ctx.log.info('job cluster connected', { nats: url.replace(/\/\/[^@/]*@/, '//***@') });
  return {
    async publishTranscode(msg, cls) {
      await js.publish(SUBJECTS.transcode(cls), encode(msg), { msgID: `${msg.jobId}:${msg.gen}` });
    },
  };
}
