/**
 * Deliveries of the published guide (issue 48): every published version queues one durable `guide.deliver` job per
 * enabled push destination that lists the channel (in the publishing transaction; a job still waiting carries the
 * newer guide too, since the document is rendered when the job runs). An attempt is logged; a failure is retried after
 * `retry_delay_s`, doubling, `retries` times (each retry its own job, at its time); then `epg.delivery_failed` with the
 * reason. A delivery that arrives emits `epg.published` with the destination named.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { emitEvent } from '../../kernel/events/outbox';
import { newId } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { PermanentJobError } from '../../jobs/errors';
import type { FeatureHandlers, JobRun } from '../../jobs/types';
import type { ChannelRow } from '../channels/store';
import { DestinationStore, type DestinationRow } from './destinations-store';
import { destinationsOfChannel, documentOf, KEPT_DELIVERIES } from './destinations';
import { DeliveryError, sendHttps, sendS3, sendSftp, type HttpsConfig, type S3Config, type SftpConfig } from './deliveries-send';

/** Queues a delivery to each destination of the channel (call inside the transaction that records the version). */
export function queueDeliveries(ctx: AppContext, ch: ChannelRow, version: number, now: number): void {
  const store = new DestinationStore(ctx.db);
  for (const d of destinationsOfChannel(ctx, ch)) {
    if (store.hasQueued(d.id)) continue;
    enqueueJob(ctx.db, { tenantId: d.tenant_id, type: 'guide.deliver', payload: { destinationId: d.id, delivery: newId(), attempt: 1, trigger: `publish:${ch.slug}:${version}` }, subject: { kind: 'guide_destination', id: d.id }, maxAttempts: 1 }, now);
  }
}

/** Renders and pushes the destination's document once; answers its size and how long the push took. Throws DeliveryError. */
export async function deliverOnce(ctx: AppContext, d: DestinationRow, delivery: string): Promise<{ bytes: number; ms: number }> {
  const t0 = performance.now();
  const doc = documentOf(ctx, d);
  const cfg = JSON.parse(d.config) as Record<string, unknown>;
  const creds = new DestinationStore(ctx.db).credentials(d);
  const allow = ctx.config.privateAllowlist;
  if (d.kind === 'https') await sendHttps(cfg as unknown as HttpsConfig, creds.secret ?? '', doc, delivery, allow, ctx.clock.now());
  else if (d.kind === 'sftp') await sendSftp(cfg as unknown as SftpConfig, creds, doc, allow);
  else if (d.kind === 's3') await sendS3(cfg as unknown as S3Config, creds.secret_access_key ?? '', doc);
  else throw new DeliveryError('a pull destination is not pushed to');
  return { bytes: Buffer.byteLength(doc.body), ms: Math.round(performance.now() - t0) };
}

/** Sends a test delivery now (not retried, no events), logged with trigger `test`. */
export async function testDelivery(ctx: AppContext, d: DestinationRow): Promise<{ ok: boolean; detail: string | null; bytes: number; ms: number }> {
  const store = new DestinationStore(ctx.db);
  const delivery = newId();
  const t0 = performance.now();
  let r: { ok: boolean; detail: string | null; bytes: number; ms: number };
  try { r = { ok: true, detail: null, ...(await deliverOnce(ctx, d, delivery)) }; } catch (e) {
    r = { ok: false, detail: e instanceof DeliveryError ? e.message : String((e as Error)?.message ?? e).slice(0, 300), bytes: 0, ms: Math.round(performance.now() - t0) };
  }
  store.log({ id: newId(), destination_id: d.id, delivery, attempt: 1, trigger: 'test', status: r.ok ? 'delivered' : 'failed', detail: r.detail, bytes: r.ok ? r.bytes : null, ms: r.ms, next_at: null, at: ctx.clock.now() });
  return r;
}

/** `guide.deliver`: one attempt of one delivery (see the file comment). */
async function deliver(ctx: AppContext, job: JobRun<'guide.deliver'>): Promise<void> {
  const store = new DestinationStore(ctx.db);
  const { destinationId, delivery, attempt, trigger } = job.payload;
  const d = store.byId(destinationId);
  if (!d || !d.enabled) { job.setResult({ skipped: d ? 'disabled' : 'deleted' }); return; }
  const t0 = performance.now();
  const channel = trigger.split(':')[1] ?? null;
  const base = { destination_id: d.id, destination: d.name, kind: d.kind, delivery, channel, trigger, attempt };
  try {
    const r = await deliverOnce(ctx, d, delivery);
    const now = ctx.clock.now();
    tx(ctx.db, () => {
      store.log({ id: newId(), destination_id: d.id, delivery, attempt, trigger, status: 'delivered', detail: null, bytes: r.bytes, ms: r.ms, next_at: null, at: now });
      store.trim(d.id, KEPT_DELIVERIES);
      emitEvent(ctx.db, d.tenant_id, 'epg.published', { ...base, bytes: r.bytes }, now);
    });
    job.setResult({ delivered: true, bytes: r.bytes });
    return;
  } catch (e) {
    const reason = e instanceof DeliveryError ? e.message : String((e as Error)?.message ?? e).slice(0, 300);
    const ms = Math.round(performance.now() - t0);
    const now = ctx.clock.now();
    const last = attempt > d.retries;
    const nextAt = last ? null : now + d.retry_delay_s * 1000 * 2 ** (attempt - 1);
    tx(ctx.db, () => {
      store.log({ id: newId(), destination_id: d.id, delivery, attempt, trigger, status: last ? 'failed' : 'retrying', detail: reason, bytes: null, ms, next_at: nextAt, at: now });
      store.trim(d.id, KEPT_DELIVERIES);
      if (last) emitEvent(ctx.db, d.tenant_id, 'epg.delivery_failed', { ...base, attempts: attempt, error: reason }, now);
      else enqueueJob(ctx.db, { tenantId: d.tenant_id, type: 'guide.deliver', payload: { destinationId: d.id, delivery, attempt: attempt + 1, trigger }, subject: { kind: 'guide_destination', id: d.id }, runAt: nextAt!, maxAttempts: 1 }, now);
    });
    if (last) throw new PermanentJobError(`delivery failed after ${attempt} attempts: ${reason}`);
    job.setResult({ delivered: false, error: reason, retry_at: new Date(nextAt!).toISOString() });
  }
}

/** The guide's job handlers. */
export const guideDeliveryJobHandlers: FeatureHandlers<'guide.deliver'> = { 'guide.deliver': deliver };
