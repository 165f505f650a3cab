/** Stable error codes from the specification's Errors table (plus a few transport-level ones). */
export type ErrorCode =
  | 'invalid_credentials' | 'insufficient_scope' | 'forbidden' | 'feature_disabled' | 'not_found'
  | 'conflict' | 'validation_error' | 'lock_window' | 'rate_limited' | 'internal_error' | 'not_ready'
  | 'unknown_field' | 'invalid_json' | 'payload_too_large' | 'method_not_allowed' | 'bad_request'
  | 'unsupported_media_type' | 'gone' | 'range_not_satisfiable' | 'request_timeout' | 'precondition_required';

const STATUS: Record<ErrorCode, number> = {
  invalid_credentials: 401, insufficient_scope: 403, forbidden: 403, feature_disabled: 403, not_found: 404,
  conflict: 409, validation_error: 422, lock_window: 409, rate_limited: 429, internal_error: 500, not_ready: 503,
  unknown_field: 400, invalid_json: 400, payload_too_large: 413, method_not_allowed: 405, bad_request: 400,
  unsupported_media_type: 415, gone: 410, range_not_satisfiable: 416, request_timeout: 408, precondition_required: 428,
};

const TITLE: Record<ErrorCode, string> = {
  invalid_credentials: 'Invalid credentials', insufficient_scope: 'Insufficient scope', forbidden: 'Forbidden',
  feature_disabled: 'Feature disabled', not_found: 'Not found', conflict: 'Conflict',
  validation_error: 'Validation failed', lock_window: 'Locked window', rate_limited: 'Too many requests',
  internal_error: 'Internal error', not_ready: 'Not ready', unknown_field: 'Unknown field',
  invalid_json: 'Invalid JSON', payload_too_large: 'Payload too large', method_not_allowed: 'Method not allowed',
  bad_request: 'Bad request', unsupported_media_type: 'Unsupported media type', gone: 'Gone',
  range_not_satisfiable: 'Range not satisfiable', request_timeout: 'Request timeout', precondition_required: 'Precondition required',
};

/** One field-level validation failure, as listed in `errors[]`. */
export interface FieldError { field: string; detail: string }

/** The one error type of the service: a stable `code`, an HTTP status and a human `detail`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; truncated?: boolean; headers?: Record<string, string>; status?: number } = {},
  ) {
    const status = extra.status ?? STATUS[code];
    // A 4xx is an answer to the caller, not a fault: its stack is never read, and capturing one costs more than
    // building the whole problem answer (refusals must stay cheap under a flood of bad keys). 5xx keep theirs.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = limit;
    this.status = status;
  }
}

/** Builds a 422 validation error for one field. */
export function invalid(field: string, detail: string): AppError {
  return new AppError('validation_error', `${field}: ${detail}`, { errors: [{ field, detail }] });
}

/** Builds a 404 for an object that does not exist in the caller's tenant. */
export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

/** Renders RFC 9457 problem details as a Response. */
export function problemResponse(
  err: AppError, problemsBase: string, requestId: string, extraHeaders: Record<string, string> = {},
): Response {
  const body: Record<string, unknown> = {
    type: `${problemsBase}/${err.code}`,
    title: TITLE[err.code],
    status: err.status,
    detail: err.detail,
    request_id: requestId,
  };
  if (err.extra.errors) body.errors = err.extra.errors;
  if (err.extra.truncated) body.errors_truncated = true;
  return new Response(JSON.stringify(body), {
    status: err.status,
    headers: {
      'content-type': 'application/problem+json',
      'cache-control': 'no-store',
      'x-request-id': requestId,
      ...extraHeaders,
      ...err.extra.headers,
    },
  });
}
