import type { Db } from '../../kernel/db/sqlite';
import { serializeOutput, type AssetOutput } from './output';

/**
 * Swaps the `output` of a ready asset for one with a new poster, only while the asset is still ready at the same
 * output version (a re-encode that started meanwhile wins). Returns whether it was written.
 */
export function savePosterOutput(db: Db, id: string, output: AssetOutput, now: number): boolean {
  const r = db.query(`UPDATE assets SET output = ?, updated_at = ? WHERE id = ? AND status = 'ready' AND deleted_at IS NULL AND output_version = ?`)
    .run(serializeOutput(output), now, id, output.version);
  return r.changes > 0;
}
