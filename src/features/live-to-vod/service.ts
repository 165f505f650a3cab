import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { newId } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { recordedRenditions, segmentsInRange } from '../channels/service';
import type { ChannelRow } from '../channels/store';
import { exclusionMatcher } from '../guide/exclusions';
import { exclusionRules, parseTime, programmeOf, setProgrammeVod } from '../guide/service';
import type { ProgrammeRow } from '../guide/store';
import type { VodPayload } from './job';
import { vodView } from './view';

/** Options of a publish-to-library request. */
export interface PublishOptions { publish?: boolean; start_at?: string; end_at?: string; collection_id?: string; replace?: boolean }

/** Publishing programmes to the library (live-to-VOD). Throws AppError. */
export class VodService {
  constructor(private ctx: AppContext) {}

  /** Queues one programme: 422 when excluded or unrecorded, 409 when on air or already published without `replace`. */
  publish(ch: ChannelRow, programmeId: string, o: PublishOptions, trigger = 'api'): { programme_id: string; job_id: string; vod: ReturnType<typeof vodView> } {
    const p: ProgrammeRow | null = programmeOf(this.ctx, ch.tenant_id, ch.id, programmeId);
    if (!p) throw notFound('programme');
    if (exclusionMatcher(exclusionRules(this.ctx, ch.tenant_id))(p)) throw invalid('programme_id', 'the programme is excluded from catch-up by a tenant rule');
    const from = o.start_at ? parseTime('start_at', o.start_at) : p.play_start_ms ?? p.start_ms;
    const to = o.end_at ? parseTime('end_at', o.end_at) : p.play_end_ms ?? p.end_ms;
    if (to <= from) throw invalid('end_at', 'must be after start_at');
    if (to - from > 12 * 3_600_000) throw invalid('end_at', 'at most 12 hours');
    const now = this.ctx.clock.now();
    if (to > now) throw new AppError('conflict', 'the programme has not ended yet; publish it once it is over');
    const rend = recordedRenditions(this.ctx, ch.id)[0];
    if (!rend || !segmentsInRange(this.ctx, ch.id, rend, from, to).length) throw invalid('start_at', 'nothing is recorded in the programme range');
    const cur = vodView(this.ctx, p);
    if (cur && cur.status !== 'failed' && !o.replace) throw new AppError('conflict', `the programme is already ${cur.status} (asset ${cur.asset_id ?? 'pending'}); send replace: true to publish it again`);
    const payload: VodPayload = { programmeId: p.id, channelId: ch.id, from, to, publish: !!o.publish, collectionId: o.collection_id ?? null, replace: !!o.replace, assetId: newId() };
    return tx(this.ctx.db, () => {
      const jobId = enqueueJob(this.ctx.db, { tenantId: ch.tenant_id, type: 'vod.publish', payload, subject: { kind: 'programme', id: p.id } }, now);
      setProgrammeVod(this.ctx, p.id, { status: 'publishing', trigger, error: null, asset_id: null });
      return { programme_id: p.id, job_id: jobId, vod: vodView(this.ctx, programmeOf(this.ctx, ch.tenant_id, ch.id, p.id)!) };
    });
  }

  /** Batch form: each programme accepted (with its job) or refused with the single form's problem. */
  publishMany(ch: ChannelRow, ids: string[], o: PublishOptions) {
    return ids.map((id) => {
      try { return { accepted: true, ...this.publish(ch, id, o, 'batch') }; } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return { programme_id: id, accepted: false, error: { code: e.code, status: e.status, detail: e.detail } };
      }
    });
  }
}
