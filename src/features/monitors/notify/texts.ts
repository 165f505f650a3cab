/** Texts of alert e-mails, Telegram messages and the destination confirmation e-mail (English and Hebrew). */
import type { AlertRow } from '../store';

/** What a notification announces. */
export type NoticeKind = 'firing' | 'repeat' | 'resolved';

/** The confirmation e-mail of a new non-member address. */
export function confirmMail(link: string): { subject: string; text: string } {
  return {
    subject: 'ViewStream: confirm alert e-mails / אישור התראות בדוא"ל',
    text: `This address was added to receive ViewStream monitoring alerts. To confirm, open:\n${link}\n\nThe link works once, for 3 days. If you did not expect this, ignore this message and no alert will be sent.\n\n`
      + `כתובת זו נוספה לקבלת התראות ניטור של ViewStream. לאישור פתחו את הקישור:\n${link}\n\nהקישור תקף פעם אחת, למשך 3 ימים. אם לא ציפיתם להודעה זו, התעלמו ממנה ולא יישלחו התראות.\n`,
  };
}

const HE_KIND: Record<NoticeKind, string> = { firing: 'התראה', repeat: 'התראה חוזרת', resolved: 'נפתרה' };
const EN_KIND: Record<NoticeKind, string> = { firing: 'FIRING', repeat: 'STILL FIRING', resolved: 'RESOLVED' };

/** Subject and text of an alert notification. */
export function alertMessage(a: AlertRow, kind: NoticeKind, baseUrl: string): { subject: string; text: string } {
  const subject = `[${EN_KIND[kind]}] ${a.severity}: ${a.monitor_name} — ${a.check_type}`;
  const when = kind === 'resolved' && a.resolved_at ? `Resolved at ${new Date(a.resolved_at).toISOString()} (fired ${new Date(a.started_at).toISOString()}).` : `Since ${new Date(a.condition_at).toISOString()}.`;
  const text = `${subject}\n\n${a.summary}\n${when}\n\nAlert ${a.id} · ${baseUrl}/v1/alerts/${a.id}\n\n`
    + `${HE_KIND[kind]} (${a.severity}): ${a.monitor_name} — ${a.check_type}\n${a.summary}\n`;
  return { subject, text };
}
