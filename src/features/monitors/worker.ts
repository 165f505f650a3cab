/** Starts the monitor engine (every `alerts.evalMs`), the notification sender and the Telegram linker for the app. */
import type { AppContext } from '../../kernel/context';
import { MonitorEngine } from './engine';
import { Notifier } from './notify/notifier';

/** The running monitor workers of one app. */
export interface MonitorWorkers { engine: MonitorEngine; notifier: Notifier }

/** Schedules evaluation and delivery; stops on shutdown. */
export function startMonitorWorkers(ctx: AppContext): MonitorWorkers {
  const engine = new MonitorEngine(ctx);
  const notifier = new Notifier(ctx);
  const log = (what: string) => (e: unknown) => ctx.log.error(`monitors: ${what} failed`, { error: String(e) });
  const send = () => { notifier.pass().catch(log('sending notifications')); };
  const evalTimer = setInterval(() => {
    engine.tick().then((r) => { if (r.notices) send(); }).catch(log('evaluation'));
  }, Math.max(100, ctx.config.alerts.evalMs));
  // Retries and notifications queued while muted become due on their own: look every second.
  const sendTimer = setInterval(send, Math.min(1000, Math.max(100, ctx.config.alerts.evalMs)));
  const tgTimer = setInterval(() => { notifier.pollTelegram().catch(log('reading Telegram updates')); }, 2000);
  ctx.onStop(() => { clearInterval(evalTimer); clearInterval(sendTimer); clearInterval(tgTimer); });
  return { engine, notifier };
}
