/** Test peers for monitors: a local HTTP server speaking the Telegram Bot API (getMe, getUpdates, sendMessage). */

/** A message the fake bot was asked to send. */
export interface TgSent { chat_id: string; text: string; disable_notification: boolean }

/** A Bot API stand-in on 127.0.0.1:0: `say(chatId, text)` queues an incoming message update; `sent` records sendMessage. */
export interface FakeTelegram { url: string; token: string; sent: TgSent[]; calls: string[]; say(chatId: number, text: string): void; stop(): void }

/** Starts the fake Bot API; only requests for `/bot<token>/<method>` are answered (others 404 like the real API). */
export function startFakeTelegram(token = '123456:TEST-token'): FakeTelegram {
  const updates: { update_id: number; message: { message_id: number; text: string; chat: { id: number; type: string; username: string } } }[] = [];
  let nextId = 1000;
  const fake: FakeTelegram = {
    url: '', token, sent: [], calls: [],
    say(chatId, text) { updates.push({ update_id: nextId++, message: { message_id: nextId, text, chat: { id: chatId, type: 'private', username: `user${chatId}` } } }); },
    stop: () => server.stop(true),
  };
  const ok = (result: unknown) => Response.json({ ok: true, result });
  const server = Bun.serve({
    port: 0, hostname: '127.0.0.1',
    async fetch(req) {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(req.url).pathname);
      if (!m || m[1] !== token) return Response.json({ ok: false, error_code: 404, description: 'Not Found' }, { status: 404 });
      const body = req.method === 'POST' ? await req.json().catch(() => ({})) as Record<string, unknown> : {};
      fake.calls.push(m[2]);
      switch (m[2]) {
        case 'getMe': return ok({ id: 123456, is_bot: true, first_name: 'VS', username: 'vs_test_bot' });
        case 'getUpdates': return ok(updates.filter((u) => u.update_id >= Number(body.offset ?? 0)));
        case 'sendMessage': {
          fake.sent.push({ chat_id: String(body.chat_id), text: String(body.text), disable_notification: !!body.disable_notification });
          return ok({ message_id: fake.sent.length, chat: { id: Number(body.chat_id) }, text: body.text });
        }
        default: return Response.json({ ok: false, error_code: 400, description: 'Bad Request: method not found' }, { status: 400 });
      }
    },
  });
  fake.url = `http://127.0.0.1:${server.port}`;
  return fake;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=) of a mail header. */
export function decodeWords(h: string): string {
  return h.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) => enc.toUpperCase() === 'B'
    ? Buffer.from(text, 'base64').toString('utf8')
    : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, x: string) => String.fromCharCode(parseInt(x, 16))), 'latin1').toString('utf8'));
}
