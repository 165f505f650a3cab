/** The studio's API caller: same-origin /v1 calls with the session cookie and, on writes, the CSRF header. */

/** A failed call as words: the problem's title/detail and each field error. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string, readonly fields: { field: string; detail: string }[], readonly code = '', readonly retryAfter: number | null = null) {
    super(detail || title);
  }
  /** The whole problem in one sentence for people. */
  words(): string {
    const f = this.fields.map((e) => (e.field ? `${e.field}: ${e.detail}` : e.detail)).join('; ');
    return [this.detail || this.title, f].filter(Boolean).join(' — ');
  }
}


async function problemOf(r: Response): Promise<ApiError> {
  let p: { type?: string; title?: string; detail?: string; errors?: { field?: string; pointer?: string; detail?: string; message?: string }[] } = {};
  try { p = await r.json(); } catch { /* not JSON */ }
  const fields = (p.errors ?? []).map((e) => ({ field: e.field ?? e.pointer ?? '', detail: e.detail ?? e.message ?? '' }));
  // The stable code is the last part of the problem type (…/problems/<code>): the studio words it in the person's language.
  const code = /\/([a-z_]+)$/.exec(p.type ?? '')?.[1] ?? '';
  const retry = Number(r.headers.get('retry-after'));
  return new ApiError(r.status, p.title ?? r.statusText, p.detail ?? '', fields, code, Number.isFinite(retry) && retry > 0 ? retry : null);
}

/** Seconds a GET refused with 429 keeps asking again (each time after its Retry-After) before failing. */
const WAIT_429_S = 15;

/** How long a prefetched GET answer waits for the page that asked for it (ms after it arrived); it serves one call. */
const PREFETCH_FRESH_MS = 1500;
/** A GET in flight is joined only this long after it started: a later reload (after an event) wants a newer answer. */
const JOIN_MS = 1000;

/** A shared GET: its body text (each caller parses its own copy), when it started and arrived, its write generation. */
interface SharedGet { text: Promise<string>; started: number; at: number; gen: number; prefetched: boolean; used: boolean }

/** The studio's one API client (created by the app, handed to pages through the context): CSRF token and the 401 handler live here. */
export class ApiClient {
  /** CSRF token of the current session (from sign-in or GET /v1/session). */
  csrf = '';
  /** Called when any call answers 401 (the session ended): the app goes to sign-in. */
  onSignedOut: () => void = () => {};
  /** GETs in flight (joined by the same GET) and prefetched answers (served for a moment); any write drops them. */
  private shared = new Map<string, SharedGet>();
  private gen = 0;

  private async request(method: string, path: string, body: unknown, o: { silent401?: boolean; headers?: Record<string, string> }): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let r = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    // A read refused by the per-person rate limit (moving quickly between pages) is asked again after Retry-After,
    // for at most WAIT_429_S seconds in all (a page's reads share the refill, so one read may lose a few rounds).
    for (let waited = 0; r.status === 429 && method === 'GET' && waited < WAIT_429_S;) {
      const wait = Math.min(WAIT_429_S - waited, Math.max(1, Number(r.headers.get('retry-after')) || 1));
      await r.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 * (1 + Math.random() / 4))); // spread the retries
      waited += wait;
      r = await fetch(path, { method, headers, credentials: 'same-origin' });
    }
    if (!r.ok) {
      if (r.status === 401 && !o.silent401) this.onSignedOut();
      throw await problemOf(r);
    }
    return r;
  }

  /** Calls the API; resolves with the parsed JSON (null for 204), rejects with ApiError. GETs go through get(). `headers`: extra request headers (If-Match). */
  readonly api = async <T = unknown>(method: string, path: string, body?: unknown, o: { silent401?: boolean; headers?: Record<string, string> } = {}): Promise<T> => {
    if (method === 'GET' && body === undefined && !o.silent401) return this.get<T>(path);
    if (method !== 'GET' && method !== 'HEAD') { this.gen++; this.shared.clear(); }
    try {
      const r = await this.request(method, path, body, o);
      return r.status === 204 ? null as T : (await r.json()) as T;
    } finally {
      // Answers read while the write was under way may predate it.
      if (method !== 'GET' && method !== 'HEAD') { this.gen++; this.shared.clear(); }
    }
  };

  private start(path: string, prefetched: boolean): SharedGet {
    const e: SharedGet = { text: Promise.resolve(''), started: performance.now(), at: 0, gen: this.gen, prefetched, used: false };
    e.text = this.request('GET', path, undefined, {}).then((r) => (r.status === 204 ? 'null' : r.text())).then(
      (t) => { e.at = performance.now(); if (!prefetched || e.used || e.gen !== this.gen) this.drop(path, e); return t; },
      (err) => { this.drop(path, e); throw err; });
    this.shared.set(path, e);
    return e;
  }

  private drop(path: string, e: SharedGet): void { if (this.shared.get(path) === e) this.shared.delete(path); }

  private usable(e: SharedGet | undefined): e is SharedGet {
    const now = performance.now();
    return !!e && e.gen === this.gen && (e.at === 0 ? now - e.started < JOIN_MS : e.prefetched && now - e.at < PREFETCH_FRESH_MS);
  }

  /** GET: joins the same GET just started or just prefetched (once), else calls the API; each caller parses its own copy. */
  readonly get = <T = unknown>(path: string): Promise<T> => {
    let e = this.shared.get(path);
    if (this.usable(e)) { e.used = true; if (e.at) this.drop(path, e); } else e = this.start(path, false);
    return e.text.then((t) => JSON.parse(t) as T);
  };

  /**
   * Starts a GET ahead of the page that will ask for it (on navigation, hover or focus of a link): the page's own
   * get() of the same path joins it, or takes its answer if it arrived less than a moment ago.
   */
  prefetch(path: string): void {
    if (!this.usable(this.shared.get(path))) this.start(path, true).text.catch(() => {});
  }

  /** PUTs raw bytes with progress (XMLHttpRequest: fetch has no upload progress); resolves with the JSON answer. */
  putBytes<T>(url: string, blob: Blob, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<T> {
    const csrf = this.csrf;
    return new Promise((resolve, reject) => {
      const x = new XMLHttpRequest();
      x.open('PUT', url);
      x.setRequestHeader('x-csrf-token', csrf);
      x.setRequestHeader('content-type', 'application/octet-stream');
      x.upload.onprogress = (e) => onProgress(e.loaded);
      x.onload = () => {
        if (x.status >= 200 && x.status < 300) { resolve(JSON.parse(x.responseText) as T); return; }
        let p: { title?: string; detail?: string } = {};
        try { p = JSON.parse(x.responseText); } catch { /* not JSON */ }
        reject(new ApiError(x.status, p.title ?? String(x.status), p.detail ?? '', []));
      };
      x.onerror = () => reject(new ApiError(0, 'network', 'the connection failed', []));
      x.onabort = () => reject(new ApiError(0, 'aborted', 'cancelled', []));
      signal?.addEventListener('abort', () => x.abort(), { once: true });
      x.send(blob);
    });
  }
}

/** The words of any thrown value. */
export function errorWords(e: unknown): string {
  return e instanceof ApiError ? e.words() : e instanceof Error ? e.message : String(e);
}
