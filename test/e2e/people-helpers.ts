import { SMTPServer } from 'smtp-server';
import type { TestServer } from '../helpers/server';
import { waitFor } from '../helpers/server';

/** One received message. */
export interface Received { to: string[]; subject: string; text: string }

/** A real SMTP server on 127.0.0.1 port 0 that keeps every message it receives. */
export async function startSmtp(): Promise<{ url: string; mails: Received[]; next(to: string, after?: number): Promise<Received>; stop(): Promise<void> }> {
  const mails: Received[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void parse(raw).then((m) => { mails.push({ ...m, to: session.envelope.rcptTo.map((r) => r.address) }); cb(); });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next: (to, after = 0) => waitFor(`mail to ${to}`, () => mails.slice(after).find((m) => m.to.includes(to)), 10_000) as Promise<Received>,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Minimal MIME reading for single-part text mails: headers, then the body decoded from quoted-printable or base64. */
async function parse(raw: string): Promise<{ subject: string; text: string }> {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  let body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const enc = header('Content-Transfer-Encoding').toLowerCase();
  if (enc === 'quoted-printable') {
    body = Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  } else if (enc === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return { subject: header('Subject'), text: body };
}

/** The first link of a mail that starts with `prefix`. */
export function linkIn(text: string, prefix: string): string {
  const m = new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S+`).exec(text);
  if (!m) throw new Error(`no link ${prefix} in: ${text}`);
  return m[0];
}

/** A studio browser stand-in: its session cookie and CSRF token. */
export interface Studio { cookie: string; csrf: string; call(method: string, path: string, body?: unknown, o?: { csrf?: boolean }): Promise<Response> }

/** Wraps a cookie and CSRF token into a caller (no API key; CSRF header on writes unless `csrf: false`). */
export function studioOf(s: TestServer, cookie: string, csrf: string): Studio {
  return {
    cookie, csrf,
    call(method, path, body, o = {}) {
      const headers: Record<string, string> = { cookie };
      if (o.csrf !== false && method !== 'GET') headers['x-csrf-token'] = csrf;
      return s.api(method, path, body, { key: null, headers });
    },
  };
}

/** Signs in over HTTP; throws unless 200. */
export async function signIn(s: TestServer, email: string, password: string): Promise<Studio> {
  const r = await s.api('POST', '/v1/session', { email, password }, { key: null });
  if (r.status !== 200) throw new Error(`sign-in ${r.status}: ${await r.text()}`);
  const set = r.headers.get('set-cookie')!;
  const body = await r.json() as { csrf_token: string };
  return studioOf(s, set.split(';')[0], body.csrf_token);
}
