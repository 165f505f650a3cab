import { ValueErrorType } from '@sinclair/typebox/errors';
import { AppError, type FieldError } from '../errors';

interface TypeBoxIssue { type: number; path: string; message: string; summary?: string; schema?: { anyOf?: { const?: unknown }[]; enum?: unknown[] } }

/** A readable detail: "one of: a, b" for enumerations, else TypeBox's own message. */
function detailOf(i: TypeBoxIssue): string {
  const opts = i.schema?.enum ?? (i.schema?.anyOf?.every((s) => s.const !== undefined) ? i.schema.anyOf.map((s) => s.const) : null);
  if (opts && opts.length) return `must be one of: ${opts.join(', ')}`;
  return i.message;
}

function field(path: string): string {
  const f = path.replace(/^\//, '').replace(/\//g, '.');
  return f || '(body)';
}

/** At most this many entries in a problem's `errors[]`; `errors_truncated: true` says there were more. */
export const MAX_FIELD_ERRORS = 20;

/** Turns an Elysia validation error into 400 unknown_field (extra properties) or 422 validation_error. */
export function fromValidation(err: { all?: TypeBoxIssue[]; type?: string; message?: string }): AppError {
  const issues: TypeBoxIssue[] = Array.isArray(err.all) ? err.all : [];
  const unknown = issues.filter((i) => i.type === ValueErrorType.ObjectAdditionalProperties);
  if (unknown.length) {
    const errors: FieldError[] = unknown.slice(0, MAX_FIELD_ERRORS).map((i) => ({ field: field(i.path), detail: 'unknown field' }));
    const more = unknown.length > MAX_FIELD_ERRORS;
    return new AppError('unknown_field', `unknown field: ${errors.map((e) => e.field).join(', ')}${more ? ', ...' : ''}`.slice(0, 500), { errors, truncated: more });
  }
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  let truncated = false;
  for (const i of issues) {
    const f = field(i.path);
    if (seen.has(f)) continue;
    seen.add(f);
    if (errors.length === MAX_FIELD_ERRORS) { truncated = true; break; }
    errors.push({ field: f, detail: detailOf(i) });
  }
  if (!errors.length) errors.push({ field: '(body)', detail: 'invalid value' });
  return new AppError('validation_error', errors.map((e) => `${e.field}: ${e.detail}`).join('; ').slice(0, 500), { errors, truncated });
}

/** Maps any thrown value to the service error (unknown faults become a stack-free 500). */
export function toAppError(code: string | number, error: unknown): { err: AppError; fault: boolean } {
  if (error instanceof AppError) return { err: error, fault: false };
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof AppError) return { err: cause, fault: false };
  switch (code) {
    case 'VALIDATION': return { err: fromValidation(error as never), fault: false };
    case 'PARSE': return { err: new AppError('invalid_json', 'request body could not be parsed'), fault: false };
    case 'NOT_FOUND': return { err: new AppError('not_found', 'no such route'), fault: false };
    case 'INVALID_COOKIE_SIGNATURE': return { err: new AppError('bad_request', 'invalid cookie'), fault: false };
    case 'INVALID_FILE_TYPE': return { err: new AppError('unsupported_media_type', 'file type not accepted'), fault: false };
  }
  return { err: new AppError('internal_error', 'internal error; quote request_id when reporting it'), fault: true };
}

/**
 * For Elysia's error hook, before it returns a problem answer: Elysia presets `set.status` to the error's status,
 * and any status but 200 there makes it rebuild the hook's answer (a second Response, headers copied, the body
 * turned into a stream; ~1/3 of a refused request's cost). A problem answer carries its own status and headers, so
 * the preset is cleared and the answer passes through as built (headers a route set before throwing still merge).
 */
export function answerAsBuilt(set: { status?: number | string }): void {
  set.status = 200;
}
