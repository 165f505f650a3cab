import { iso } from '../../kernel/clock';
import type { ArticleBody } from '../../engines/article/types';
import type { ProgrammeRow } from '../guide/store';
import type { ArtifactRow, CorrectionRow } from './store';

const parse = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

/** The API view of an artifact (with its corrections when given). */
export function artifactView(a: ArtifactRow, p: ProgrammeRow | null, corrections?: CorrectionRow[]) {
  return {
    id: a.id, kind: a.kind, status: a.status,
    subject: { kind: a.subject_kind, id: a.subject_id, channel_id: a.channel_id, title: p?.title ?? null },
    engine: a.engine, model: a.model, language: a.language,
    source: a.source_kind && a.source_id ? { kind: a.source_kind, id: a.source_id } : null,
    body: JSON.parse(a.body) as ArticleBody, warnings: JSON.parse(a.warnings) as string[],
    job_id: a.job_id, reason: a.reason, decided_by: a.decided_by, decided_at: a.decided_at === null ? null : iso(a.decided_at),
    ...(corrections ? { corrections: corrections.map((c) => ({ field: c.field, before: parse(c.before), after: parse(c.after), who: c.who, at: iso(c.at) })) } : {}),
    created_at: iso(a.created_at), updated_at: iso(a.updated_at),
  };
}
