/** A small client of the Telegram Bot API (sendMessage, getUpdates, getMe) against a configurable base URL. */

/** A message update as the Bot API sends it (the fields used here). */
export interface TgUpdate { update_id: number; message?: { text?: string; chat: { id: number | string; title?: string; username?: string; first_name?: string } } }

/** Bot API calls for one bot; every call has a deadline and throws on `ok: false`. */
export class TelegramBot {
  constructor(private apiBase: string, private token: string, private timeoutMs = 10_000) {}

  private async call<T>(method: string, body: Record<string, unknown>): Promise<T> {
    const r = await fetch(`${this.apiBase}/bot${this.token}/${method}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual',
    });
    const j = await r.json().catch(() => null) as { ok?: boolean; result?: T; description?: string } | null;
    if (!r.ok || !j?.ok) throw new Error(`telegram ${method}: ${r.status} ${j?.description ?? ''}`.trim());
    return j.result as T;
  }

  /** Sends a text message; `silent` sets disable_notification. */
  sendMessage(chatId: string, text: string, silent = false): Promise<unknown> {
    return this.call('sendMessage', { chat_id: chatId, text, disable_notification: silent, link_preview_options: { is_disabled: true } });
  }

  /** Updates after `offset` (long polling off: returns at once). */
  getUpdates(offset: number): Promise<TgUpdate[]> {
    return this.call<TgUpdate[]>('getUpdates', { offset, timeout: 0, allowed_updates: ['message'] });
  }

  /** The bot's user name (for t.me links). */
  async username(): Promise<string | null> {
    const me = await this.call<{ username?: string }>('getMe', {});
    return me.username ?? null;
  }
}
