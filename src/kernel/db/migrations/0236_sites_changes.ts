import type { Migration } from '../migration';

/**
 * Sites (issue 44): a per-tenant change counter for the public catalogue, moved by triggers on every table the
 * catalogue reads (assets, programmes, channels, clips, catch-up exclusions, articles). The catalogue's change check
 * becomes one primary-key read instead of six aggregates over the tenant's rows — those ran on the request path
 * whenever anything at all was written to the database (every ~2 s on an idle appliance: jobs, statistics), ~9 ms
 * at 100,000 items on top of the answer.
 */
export const m0236: Migration = {
  version: 236,
  name: 'sites_changes',
  sql: `
CREATE TABLE sites_changes (tenant_id TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER sites_changes_assets_insert AFTER INSERT ON assets BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_assets_update AFTER UPDATE ON assets BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_assets_delete AFTER DELETE ON assets BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_programmes_insert AFTER INSERT ON programmes BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_programmes_update AFTER UPDATE ON programmes BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_programmes_delete AFTER DELETE ON programmes BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_channels_insert AFTER INSERT ON channels BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_channels_update AFTER UPDATE ON channels BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_channels_delete AFTER DELETE ON channels BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_clips_insert AFTER INSERT ON clips BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_clips_update AFTER UPDATE ON clips BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_clips_delete AFTER DELETE ON clips BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_catchup_exclusions_insert AFTER INSERT ON catchup_exclusions BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_catchup_exclusions_update AFTER UPDATE ON catchup_exclusions BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_catchup_exclusions_delete AFTER DELETE ON catchup_exclusions BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_ai_artifacts_insert AFTER INSERT ON ai_artifacts BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_ai_artifacts_update AFTER UPDATE ON ai_artifacts BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (NEW.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER sites_changes_ai_artifacts_delete AFTER DELETE ON ai_artifacts BEGIN
  INSERT INTO sites_changes (tenant_id, n) VALUES (OLD.tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET n = n + 1;
END;
`,
};
