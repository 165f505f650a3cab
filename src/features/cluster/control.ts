import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { AppContext } from '../../kernel/context';
import { posterDrawerOf } from '../assets/poster-remote';
import { checkWorkerToken, touchWorkerToken } from './tokens';
import { remotePosterDrawer } from './remote-image';
import { remoteExportSender } from './remote-export';
import { exportSenderOf } from '../export/remote';
import { recordEnd, recordProgress } from './store';
import { encode, ensureJobConsumer, ensureStreams, JOB_STREAM, RESULT_CONSUMER, RESULT_STREAM, SUBJECTS, type CancelMsg, type JobMsg, type ProgressMsg, type ResultMsg } from './protocol';
import type { ClusterLink } from './link';

export type { ClusterLink } from './link';

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
  const waiters = new Map<string, (r: ResultMsg) => void>();
  const consumersMade = new Set<string>();
  const jsm = await jetstreamManager(nc);
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
        const waiter = waiters.get(r.jobId);
        if (waiter && w) { waiters.delete(r.jobId); waiter(r); }
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
  const link: ClusterLink = {
    async publishTranscode(msg, cls) {
      await js.publish(SUBJECTS.transcode(cls), encode(msg), { msgID: `${msg.jobId}:${msg.gen}` });
    },
    async publish(subject, msg) {
      // The subject's consumer exists before the first message (a worker with the capability may join later).
      if (!consumersMade.has(subject)) { await ensureJobConsumer(nc, subject, ctx.config.clusterAckWaitMs); consumersMade.add(subject); }
      return (await js.publish(subject, encode(msg), { msgID: `${msg.jobId}:${msg.gen}` })).seq;
    },
    async cancel(jobId, gen, seq) {
      const m: CancelMsg = { jobId, gen };
      nc.publish(SUBJECTS.cancel(jobId), encode(m));
      if (seq !== null) await jsm.streams.deleteMessage(JOB_STREAM, seq, false).catch(() => false); // gone already: taken and acknowledged
      await nc.flush().catch(() => undefined);
      ctx.log.info('cluster job cancelled', { job: jobId, gen });
    },
    awaitResult(jobId, signal) {
      return new Promise<ResultMsg>((resolve, reject) => {
        const off = () => { waiters.delete(jobId); reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')); };
        if (signal.aborted) return off();
        waiters.set(jobId, (r) => { signal.removeEventListener('abort', off); resolve(r); });
        signal.addEventListener('abort', off, { once: true });
      });
    },
  };
  // Poster frames are drawn on workers too (request-scoped image jobs).
  posterDrawerOf(ctx).draw = remotePosterDrawer(ctx, link);
  // Export batches are sent by workers too (the export loop hands each attempt to the sender).
  exportSenderOf(ctx).send = remoteExportSender(ctx, link);
  return link;
}
