import nodemailer from 'nodemailer';
import type { Config } from './config/schema';
import type { Logger } from './log';

/** One outgoing message. */
export interface Mail { to: string; subject: string; text: string; html?: string }

/** Sends e-mail through the configured SMTP server; `configured` is false when `smtp.url` is unset. */
export interface Mailer { configured: boolean; send(m: Mail): Promise<void> }

/** Builds the mailer for a config: nodemailer over `smtp.url`, or a stand-in that refuses when none is set. */
export function createMailer(config: Readonly<Config>, log: Logger): Mailer {
  const url = config.smtp.url;
  if (!url) {
    return {
      configured: false,
      async send(m) { log.warn('mail not sent: smtp is not configured', { to: m.to, subject: m.subject }); throw new Error('smtp is not configured'); },
    };
  }
  // One transport per mailer (built once per route set); each message opens its own SMTP connection.
  const transport = nodemailer.createTransport(url, { from: config.smtp.from });
  return {
    configured: true,
    async send(m) {
      await transport.sendMail({ from: config.smtp.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
    },
  };
}
