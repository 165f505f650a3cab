import { AppError } from '../../kernel/errors';

/** Upper bound in bytes of one tool result: structured JSON plus its text copy (about 60 KB together). */
export const RESULT_MAX_BYTES = 60_000;
const COPY_MAX = RESULT_MAX_BYTES / 2 - 512;

const size = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** The longest array directly under `v` (the list a result is made of), or null. */
function longestList(v: Record<string, unknown>): string | null {
  let best: string | null = null;
  for (const [k, x] of Object.entries(v)) if (Array.isArray(x) && x.length && (!best || x.length > (v[best] as unknown[]).length)) best = k;
  return best;
}

/**
 * Shortens a structured result to fit the cap: halves its longest list until the JSON fits, then marks it
 * `_truncated: true` with `_omitted` (items left out). A result without a list that is still too big is refused.
 */
export function capResult(v: Record<string, unknown>, max = COPY_MAX): Record<string, unknown> {
  return cappedWithText(v, max).value;
}

/** capResult with the result's JSON text (the tool's text copy): a result that fits is serialised once, not twice. */
export function cappedWithText(v: Record<string, unknown>, max = COPY_MAX): { value: Record<string, unknown>; text: string } {
  const text = JSON.stringify(v);
  // UTF-16 length bounds the UTF-8 byte length from below and 3 × it from above: count bytes only near the limit.
  if (text.length * 3 <= max || (text.length <= max && Buffer.byteLength(text) <= max)) return { value: v, text };
  const value = shorten(v, max);
  return { value, text: JSON.stringify(value) };
}

function shorten(v: Record<string, unknown>, max: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...v, _truncated: true, _omitted: 0 };
  for (;;) {
    const key = longestList(out);
    if (!key) throw new AppError('bad_request', `the result is larger than ${RESULT_MAX_BYTES} bytes; narrow the request`);
    const list = out[key] as unknown[];
    let keep = Math.floor(list.length / 2);
    // Step down by halves, then grow back one by one while it still fits (bounded: lists are at most a few hundred).
    out[key] = list.slice(0, keep);
    if (size(out) > max) { out._omitted = (out._omitted as number) + list.length - keep; continue; }
    while (keep < list.length && size({ ...out, [key]: list.slice(0, keep + 1) }) <= max) keep++;
    out[key] = list.slice(0, keep);
    out._omitted = (out._omitted as number) + list.length - keep;
    return out;
  }
}

/** A problem detail (RFC 9457 fields) for a failed tool call. */
export function problemOf(e: unknown, problemsBase: string): Record<string, unknown> {
  if (e instanceof AppError) {
    return { type: `${problemsBase}/${e.code}`, title: e.code, status: e.status, detail: e.detail, ...(e.extra.errors ? { errors: e.extra.errors } : {}) };
  }
  return { type: `${problemsBase}/internal_error`, title: 'internal_error', status: 500, detail: 'the tool failed; the server log has the cause' };
}
