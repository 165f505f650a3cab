import type { Migration } from '../migration';

/**
 * AI artifacts (issue 45): drafted articles of guide programmes (`kind` article, `status` draft -> published |
 * rejected), the corrections editors made to a draft (field, before, after, who, when), and the transcript each
 * draft was written from (`source_*`: where the cues came from, so the review page and quote checks read the same
 * cues). `published_event` holds the id of the one `artifact.published` event.
 */
export const m0160: Migration = {
  version: 160,
  name: 'ai_artifacts',
  sql: `
CREATE TABLE ai_artifacts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  subject_kind TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  channel_id TEXT,
  engine TEXT NOT NULL,
  model TEXT,
  language TEXT,
  source_kind TEXT,
  source_id TEXT,
  body TEXT NOT NULL,
  warnings TEXT NOT NULL DEFAULT '[]',
  job_id TEXT,
  reason TEXT,
  decided_by TEXT,
  decided_at INTEGER,
  published_event TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX ai_artifacts_list ON ai_artifacts (tenant_id, seq);
CREATE INDEX ai_artifacts_subject ON ai_artifacts (tenant_id, subject_kind, subject_id, seq);
CREATE TABLE ai_corrections (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  artifact_id TEXT NOT NULL REFERENCES ai_artifacts (id) ON DELETE CASCADE,
  field TEXT NOT NULL,
  before TEXT,
  after TEXT,
  who TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX ai_corrections_artifact ON ai_corrections (artifact_id, seq);
`,
};
