/**
 * AI articles (issue 45; docs/articles.md): asking for a draft of an ended programme (one running job per
 * programme), reading artifacts, editing a draft (every change a correction), approving (published once, with one
 * `artifact.published` event) and rejecting with a reason. Published and rejected artifacts are read-only.
 */
import type { AppContext } from '../../kernel/context';
import { tx } from '../../kernel/db/sqlite';
import { AppError, invalid, notFound } from '../../kernel/errors';
import { emitEvent } from '../../kernel/events/outbox';
import type { Principal } from '../../kernel/http/auth';
import type { Page } from '../../kernel/http/pagination';
import { isUuid } from '../../kernel/ids';
import { enqueueJob } from '../../jobs/enqueue';
import { listJobs } from '../../jobs/store';
import { jobQueue } from '../../jobs/worker';
import type { ArticleBody } from '../../engines/article/types';
import { programmeById } from '../guide/service';
import type { ProgrammeRow } from '../guide/store';
import { applyPatch } from './edits';
import { chooseEngine, type EngineName } from './engines';
import { articleJsonLd, momentUrl } from './jsonld';
import type { ArticlePatch } from './model';
import { programmePage, type SitePageFinder } from './page';
import { ArtifactStore, type ArtifactRow } from './store';
import { playWindow, programmeTranscript, transcriptOf, type TranscriptSource } from './transcript';
import { artifactView } from './view';

/** Who made a change, as corrections and decisions record it. */
export const whoOf = (p: Principal): string => (p.session ? p.session.user.name || p.session.user.email : `API key ${p.keyId}`);

const ACTIVE = new Set(['queued', 'running']);

/** The articles feature's operations. Throws AppError. */
export class ArticleService {
  readonly store: ArtifactStore;
  constructor(private readonly ctx: AppContext, private readonly sitePage?: SitePageFinder) { this.store = new ArtifactStore(ctx.db); }

  private programme(tenantId: string, id: string): ProgrammeRow {
    const p = programmeById(this.ctx, tenantId, id);
    if (!p) throw notFound('programme');
    return p;
  }

  private latestJob(tenantId: string, programmeId: string) {
    return listJobs(this.ctx.db, tenantId, { type: 'article.draft', subject: programmeId }, null, 1)[0] ?? null;
  }

  /** POST /v1/programmes/{id}/article: 202 with a queued job, or the job already running for the programme. */
  request(tenantId: string, programmeId: string, o: { engine?: EngineName; language?: string }) {
    const p = this.programme(tenantId, programmeId);
    const { to } = playWindow(p);
    const now = this.ctx.clock.now();
    if (p.start_ms > now) throw new AppError('conflict', 'the programme has not started yet; ask for an article once it has ended');
    if (to > now) throw new AppError('conflict', 'the programme is still on air; ask for an article once it has ended');
    const running = this.latestJob(tenantId, p.id);
    if (running && ACTIVE.has(running.status)) {
      const payload = JSON.parse(running.payload) as { engine: string };
      return { job_id: running.id, status: running.status, programme_id: p.id, engine: payload.engine };
    }
    const engine = chooseEngine(this.ctx.config.articles, o.engine);
    const tr = programmeTranscript(this.ctx, p, o.language);
    if (!tr) throw invalid('programme', `the programme has no ready subtitle track${o.language ? ` in "${o.language}"` : ''} to write from; recognise or upload its subtitles first`);
    const jobId = tx(this.ctx.db, () => enqueueJob(this.ctx.db, {
      tenantId, type: 'article.draft', payload: { programmeId: p.id, engine, language: tr.source.language },
      subject: { kind: 'programme', id: p.id }, priority: -10, maxAttempts: 2,
    }, now));
    jobQueue(this.ctx)?.wake();
    return { job_id: jobId, status: 'queued', programme_id: p.id, engine };
  }

  /** GET /v1/programmes/{id}/article: the newest job and the newest artifact of the programme. */
  ofProgramme(tenantId: string, programmeId: string) {
    const p = this.programme(tenantId, programmeId);
    const j = this.latestJob(tenantId, p.id);
    const a = this.store.latestOf(tenantId, 'programme', p.id);
    return {
      job: j ? { id: j.id, status: j.status, progress: j.progress, error: j.error } : null,
      artifact: a ? this.view(a, true) : null,
    };
  }

  private view(a: ArtifactRow, withCorrections = false) {
    const p = programmeById(this.ctx, a.tenant_id, a.subject_id);
    return artifactView(a, p, withCorrections ? this.store.corrections(a.id) : undefined);
  }

  private one(tenantId: string, id: string): ArtifactRow {
    const a = isUuid(id) ? this.store.get(tenantId, id) : null;
    if (!a) throw notFound('artifact');
    return a;
  }

  /** GET /v1/ai/artifacts: newest first, filtered by status and kind. */
  list(tenantId: string, f: { status?: string; kind?: string }, limit: number, cursor?: string): Page<ReturnType<ArticleService['view']>> {
    const scope = `artifacts:${tenantId}:${f.status ?? ''}:${f.kind ?? ''}`;
    const before = cursor ? this.ctx.cursors.decode(scope, cursor) : null;
    return this.ctx.cursors.page(scope, this.store.list(tenantId, f, before, limit), limit, (r) => this.view(r));
  }

  /** GET /v1/ai/artifacts/{id} with its corrections. */
  get(tenantId: string, id: string) { return this.view(this.one(tenantId, id), true); }

  /** The transcript a draft was written from and where to watch it (the review page). */
  transcript(tenantId: string, id: string) {
    const a = this.one(tenantId, id);
    const p = this.programme(tenantId, a.subject_id);
    const source = a.source_kind && a.source_id ? { kind: a.source_kind, id: a.source_id, language: a.language ?? '' } as TranscriptSource : null;
    const tr = source ? transcriptOf(this.ctx, p, source) : null;
    const page = programmePage(this.ctx, p, this.sitePage);
    return {
      source, video: { hls: page.video.hls, url: page.url },
      cues: (tr?.cues ?? []).map((c) => ({ id: c.id, start_ms: c.startMs, end_ms: c.endMs, text: c.text })),
    };
  }

  /** PATCH /v1/ai/artifacts/{id}: edits a draft's body; each changed field stored as a correction; 409 unless a draft. */
  patch(pr: Principal, id: string, patch: ArticlePatch) {
    const a = this.one(pr.tenantId, id);
    if (a.status !== 'draft') throw new AppError('conflict', `the artifact is ${a.status} and read-only; only a draft can be edited`);
    const p = this.programme(pr.tenantId, a.subject_id);
    const { from, to } = playWindow(p);
    const needCues = patch.quotes !== undefined;
    const source = a.source_kind && a.source_id ? { kind: a.source_kind, id: a.source_id, language: a.language ?? '' } as TranscriptSource : null;
    const cues = needCues && source ? transcriptOf(this.ctx, p, source)?.cues ?? null : null;
    const { body, changes } = applyPatch(JSON.parse(a.body) as ArticleBody, patch, { durationMs: to - from, cues });
    const now = this.ctx.clock.now(), who = whoOf(pr);
    tx(this.ctx.db, () => {
      if (!changes.length) return;
      if (!this.store.setBody(a.id, JSON.stringify(body), now)) throw new AppError('conflict', 'the artifact is no longer a draft');
      for (const c of changes) this.store.addCorrection({ artifact_id: a.id, field: c.field, before: JSON.stringify(c.before), after: JSON.stringify(c.after), who, at: now });
    });
    return this.get(pr.tenantId, a.id);
  }

  /** POST approve: published, with `artifact.published` emitted in the same transaction, once (a repeat answers the published artifact). */
  approve(pr: Principal, id: string) {
    const a = this.one(pr.tenantId, id);
    if (a.status === 'published') return this.get(pr.tenantId, a.id);
    if (a.status !== 'draft') throw new AppError('conflict', `the artifact is ${a.status}; only a draft can be approved`);
    const p = this.programme(pr.tenantId, a.subject_id);
    const page = programmePage(this.ctx, p, this.sitePage);
    const now = this.ctx.clock.now();
    tx(this.ctx.db, () => {
      if (!this.store.decide(a.id, 'published', whoOf(pr), null, now)) return; // approved concurrently: that one fired
      const body = JSON.parse(a.body) as ArticleBody;
      const jsonld = articleJsonLd({ body, url: page.url, organisation: page.organisation, video: page.video, publishedAt: new Date(now).toISOString(), language: a.language });
      const moment = body.quotes[0]?.start_ms ?? body.chapters[0]?.start_ms ?? 0;
      const eventId = emitEvent(this.ctx.db, pr.tenantId, 'artifact.published', {
        artifact: a.id, subject: { kind: 'programme', id: p.id, channel_id: p.channel_id, title: p.title },
        url: page.url, moment_url: momentUrl(page.url, moment / 1000), jsonld,
      }, now);
      this.store.setPublishedEvent(a.id, eventId);
    });
    return this.get(pr.tenantId, a.id);
  }

  /** POST reject `{reason}`: rejected and read-only; 409 unless a draft. */
  reject(pr: Principal, id: string, reason: string) {
    const a = this.one(pr.tenantId, id);
    if (!reason.trim()) throw invalid('reason', 'must not be blank');
    if (a.status !== 'draft') throw new AppError('conflict', `the artifact is ${a.status}; only a draft can be rejected`);
    if (!this.store.decide(a.id, 'rejected', whoOf(pr), reason.trim(), this.ctx.clock.now())) throw new AppError('conflict', 'the artifact is no longer a draft');
    return this.get(pr.tenantId, a.id);
  }
}
