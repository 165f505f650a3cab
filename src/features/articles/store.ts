import type { Db } from '../../kernel/db/sqlite';

/** A row of `ai_artifacts`. */
export interface ArtifactRow {
  seq: number; id: string; tenant_id: string; kind: string; status: string; subject_kind: string; subject_id: string;
  channel_id: string | null; engine: string; model: string | null; language: string | null; source_kind: string | null;
  source_id: string | null; body: string; warnings: string; job_id: string | null; reason: string | null;
  decided_by: string | null; decided_at: number | null; published_event: string | null; created_at: number; updated_at: number;
}

/** A row of `ai_corrections`. */
export interface CorrectionRow { seq: number; artifact_id: string; field: string; before: string | null; after: string | null; who: string; at: number }

/** The articles feature's SQL (artifacts and their corrections). */
export class ArtifactStore {
  constructor(private readonly db: Db) {}

  /** Inserts a new artifact. */
  insert(r: Omit<ArtifactRow, 'seq' | 'reason' | 'decided_by' | 'decided_at' | 'published_event'>): void {
    this.db.query(`INSERT INTO ai_artifacts (id, tenant_id, kind, status, subject_kind, subject_id, channel_id, engine, model, language, source_kind, source_id, body, warnings, job_id, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.id, r.tenant_id, r.kind, r.status, r.subject_kind, r.subject_id, r.channel_id, r.engine, r.model, r.language, r.source_kind, r.source_id, r.body, r.warnings, r.job_id, r.created_at, r.updated_at);
  }

  /** One artifact of the tenant. */
  get(tenantId: string, id: string): ArtifactRow | null {
    return this.db.query<ArtifactRow, [string, string]>('SELECT * FROM ai_artifacts WHERE tenant_id = ? AND id = ?').get(tenantId, id);
  }

  /** The newest artifact of a subject. */
  latestOf(tenantId: string, subjectKind: string, subjectId: string): ArtifactRow | null {
    return this.db.query<ArtifactRow, [string, string, string]>('SELECT * FROM ai_artifacts WHERE tenant_id = ? AND subject_kind = ? AND subject_id = ? ORDER BY seq DESC LIMIT 1').get(tenantId, subjectKind, subjectId);
  }

  /** The newest published artifact of a subject (what a public page may show). */
  latestPublishedOf(tenantId: string, subjectKind: string, subjectId: string): ArtifactRow | null {
    return this.db.query<ArtifactRow, [string, string, string]>("SELECT * FROM ai_artifacts WHERE tenant_id = ? AND subject_kind = ? AND subject_id = ? AND status = 'published' ORDER BY seq DESC LIMIT 1").get(tenantId, subjectKind, subjectId);
  }

  /** The artifact a job made. */
  byJob(jobId: string): ArtifactRow | null {
    return this.db.query<ArtifactRow, [string]>('SELECT * FROM ai_artifacts WHERE job_id = ?').get(jobId);
  }

  /** A tenant's artifacts newest first, `limit + 1` rows before `beforeSeq`. */
  list(tenantId: string, f: { status?: string; kind?: string }, beforeSeq: number | null, limit: number): ArtifactRow[] {
    const where = ['tenant_id = ?'], args: (string | number)[] = [tenantId];
    if (f.status) { where.push('status = ?'); args.push(f.status); }
    if (f.kind) { where.push('kind = ?'); args.push(f.kind); }
    if (beforeSeq !== null) { where.push('seq < ?'); args.push(beforeSeq); }
    return this.db.query<ArtifactRow, (string | number)[]>(`SELECT * FROM ai_artifacts WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`).all(...args, limit + 1);
  }

  /** Replaces the body of a draft; false when it is no longer a draft. */
  setBody(id: string, body: string, now: number): boolean {
    return this.db.query("UPDATE ai_artifacts SET body = ?, updated_at = ? WHERE id = ? AND status = 'draft'").run(body, now, id).changes > 0;
  }

  /** Moves a draft to `status` (published | rejected); false when it was not a draft (so it happens once). */
  decide(id: string, status: 'published' | 'rejected', who: string, reason: string | null, now: number): boolean {
    return this.db.query("UPDATE ai_artifacts SET status = ?, decided_by = ?, decided_at = ?, reason = ?, updated_at = ? WHERE id = ? AND status = 'draft'")
      .run(status, who, now, reason, now, id).changes > 0;
  }

  /** Records the id of the artifact's `artifact.published` event. */
  setPublishedEvent(id: string, eventId: string): void {
    this.db.query('UPDATE ai_artifacts SET published_event = ? WHERE id = ?').run(eventId, id);
  }

  /** Appends a correction. */
  addCorrection(c: Omit<CorrectionRow, 'seq'>): void {
    this.db.query('INSERT INTO ai_corrections (artifact_id, field, before, after, who, at) VALUES (?, ?, ?, ?, ?, ?)').run(c.artifact_id, c.field, c.before, c.after, c.who, c.at);
  }

  /** An artifact's corrections, oldest first. */
  corrections(artifactId: string): CorrectionRow[] {
    return this.db.query<CorrectionRow, [string]>('SELECT * FROM ai_corrections WHERE artifact_id = ? ORDER BY seq').all(artifactId);
  }
}
