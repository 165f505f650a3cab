/** Checking and normalising the checks of a monitor against the catalogue (defaults filled in). */
import { AppError, type FieldError } from '../../kernel/errors';
import { checkType, type Severity, type TargetKind } from './catalogue';

/** A check as stored (every default resolved). */
export interface StoredCheck { type: string; threshold: number; for_s: number; window_s: number | null; severity: Severity; params: Record<string, string | number | boolean> }

/** A check as sent. */
export interface CheckInput { type: string; threshold?: number; for_s?: number; window_s?: number; severity?: Severity; params?: Record<string, string | number | boolean> }

/** Validates checks for a target kind; 422 naming each bad field (`checks[i].type` ...). Lip-sync is refused while off. */
export function normaliseChecks(checks: CheckInput[], target: TargetKind): StoredCheck[] {
  const errors: FieldError[] = [];
  const out: StoredCheck[] = [];
  checks.forEach((c, i) => {
    const at = `checks[${i}]`;
    const cat = checkType(c.type);
    if (!cat) { errors.push({ field: `${at}.type`, detail: `unknown check type "${c.type}"; see GET /v1/monitors/checks` }); return; }
    if (!cat.creatable) { errors.push({ field: `${at}.type`, detail: `${c.type} cannot be created: lip-sync analysis is off on this platform` }); return; }
    if (!cat.targets.includes(target)) errors.push({ field: `${at}.type`, detail: `${c.type} applies to ${cat.targets.join(', ')} targets, not ${target}` });
    const threshold = c.threshold ?? cat.default_threshold;
    if (!Number.isFinite(threshold)) errors.push({ field: `${at}.threshold`, detail: 'must be a finite number' });
    else if (cat.unit === 'ratio' && (threshold < 0 || threshold > 1)) errors.push({ field: `${at}.threshold`, detail: 'a ratio between 0 and 1' });
    else if (cat.unit === '%' && (threshold < 0 || threshold > 100)) errors.push({ field: `${at}.threshold`, detail: 'a percentage between 0 and 100' });
    else if (threshold < 0) errors.push({ field: `${at}.threshold`, detail: 'must not be negative' });
    if (c.window_s !== undefined && cat.default_window_s === null) errors.push({ field: `${at}.window_s`, detail: `${c.type} has no window` });
    out.push({ type: c.type, threshold, for_s: c.for_s ?? cat.default_for_s, window_s: cat.default_window_s === null ? null : c.window_s ?? cat.default_window_s, severity: c.severity ?? cat.default_severity, params: c.params ?? {} });
  });
  if (errors.length) throw new AppError('validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; '), { errors });
  return out;
}

/** A stable key of a stored check on its target: a changed check (or a moved target) starts from normal. */
export function checkKey(c: StoredCheck, target: { target_kind: string; target_id: string | null; target_host: string | null }): string {
  return JSON.stringify([c.type, c.threshold, c.for_s, c.window_s, c.severity, c.params, target.target_kind, target.target_id, target.target_host]);
}
