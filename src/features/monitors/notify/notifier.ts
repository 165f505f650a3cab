/** Sends queued alert notifications (e-mail through nodemailer, Telegram sendMessage) and links Telegram chats. */
import type { AppContext } from '../../../kernel/context';
import { createMailer, type Mailer } from '../../../kernel/mail';
import { outboxCursor, setOutboxCursor } from '../../../kernel/events/cursors';
import { MonitorStore } from '../store';
import { DestinationService, telegramBot } from '../destinations/service';
import type { TelegramBot } from '../destinations/telegram';
import { NoticeStore, type NoticeRow } from './queue';
import { alertMessage } from './texts';

/** Durable position in the bot's update stream (stored among the named cursors). */
const TG_CURSOR = 'telegram-updates';

/** One notifier per app: `pass()` sends what is due; `pollTelegram()` links chats that sent their start code. */
export class Notifier {
  private notices: NoticeStore;
  private monitors: MonitorStore;
  private dests: DestinationService;
  private mailer: Mailer;
  private bot: TelegramBot | null;
  private busy = false;

  constructor(private ctx: AppContext) {
    this.notices = new NoticeStore(ctx.db);
    this.monitors = new MonitorStore(ctx.db);
    this.mailer = createMailer(ctx.config, ctx.log);
    this.dests = new DestinationService(ctx, this.mailer);
    this.bot = telegramBot(ctx);
  }

  /** Sends every due notification (one pass; overlapping calls return at once). */
  async pass(): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    let n = 0;
    try {
      for (;;) {
        const due = this.notices.due(this.ctx.clock.now());
        if (!due.length) break;
        await Promise.all(due.map((d) => this.send(d)));
        n += due.length;
      }
    } finally { this.busy = false; }
    return n;
  }

  private async send(n: NoticeRow): Promise<void> {
    const dest = this.dests.store.byId(n.destination_id);
    const alert = this.monitors.alert(n.alert_id);
    if (!dest || !alert || dest.status !== 'active' || !dest.target) {
      this.notices.failed({ ...n, attempts: 99 }, 'destination missing or not active', this.ctx.clock.now());
      return;
    }
    const msg = alertMessage(alert, n.kind, this.ctx.config.baseUrl);
    try {
      if (dest.kind === 'email') await this.mailer.send({ to: dest.target, subject: msg.subject, text: msg.text });
      else {
        if (!this.bot) throw new Error('telegram is not configured');
        // Info-level alerts arrive silently (no sound on the phone).
        await this.bot.sendMessage(dest.target, msg.text, alert.severity === 'info');
      }
      this.notices.sent(n.seq, this.ctx.clock.now());
    } catch (e) {
      this.ctx.log.warn('alert notification failed', { alert: n.alert_id, destination: n.destination_id, error: String(e) });
      this.notices.failed(n, String((e as Error).message ?? e), this.ctx.clock.now());
    }
  }

  /** Reads the bot's updates while chats wait to be linked; `/start <code>` links the chat and answers it. */
  async pollTelegram(): Promise<number> {
    if (!this.bot || !this.dests.store.pendingTelegram(this.ctx.clock.now()).length) return 0;
    const offset = outboxCursor(this.ctx.db, TG_CURSOR);
    const updates = await this.bot.getUpdates(offset);
    let linked = 0;
    for (const u of updates) {
      const m = /^\/start(?:@\S+)?\s+([A-Za-z0-9_-]{8,64})\s*$/.exec(u.message?.text ?? '');
      if (m && u.message) {
        const d = this.dests.linkChat(m[1], u.message.chat);
        if (d) {
          linked++;
          await this.bot.sendMessage(String(u.message.chat.id), `ViewStream: this chat now receives monitoring alerts (${d.name ?? d.id}).\nהצ'אט הזה יקבל מעכשיו התראות ניטור של ViewStream.`).catch(() => undefined);
        }
      }
      setOutboxCursor(this.ctx.db, TG_CURSOR, u.update_id + 1);
    }
    return linked;
  }
}
